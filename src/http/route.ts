import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { ApiKeyScope, Caller } from '../domain/identity/caller.js';
import type { Logger } from '../log.js';
import type { Page } from '../storage/collection.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** null only on public routes. */
  caller: Caller | null;
  requestId: string;
  req: IncomingMessage;
  res: ServerResponse;
  log: Logger;
}

const NONE: Readonly<Record<string, never>> = Object.freeze({});

/** A non-default answer: a status, extra meta, headers, a redirect, or a response already written. */
export class Reply {
  private constructor(
    readonly status: number,
    readonly data: unknown,
    readonly meta: Readonly<Record<string, unknown>> = NONE,
    readonly headers: Readonly<Record<string, string>> = NONE,
    readonly kind: 'json' | 'redirect' | 'handled' | 'raw' = 'json',
  ) {}

  static json(status: number, data: unknown, meta: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
    return new Reply(status, data, meta, headers);
  }

  static page<T>(page: Page<T>, map: (item: T) => unknown = (x) => x): Reply {
    return new Reply(200, page.items.map(map), { next_cursor: page.nextCursor });
  }

  static redirect(location: string, status = 303): Reply {
    return new Reply(status, undefined, NONE, { location }, 'redirect');
  }

  /** A body outside the /v1 envelope (health, OpenAPI document). */
  static raw(status: number, body: unknown): Reply {
    return new Reply(status, body, NONE, NONE, 'raw');
  }

  /** The handler wrote the response itself (streams). */
  static handled(): Reply {
    return new Reply(0, undefined, NONE, NONE, 'handled');
  }
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDef<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
> {
  method: HttpMethod;
  /** polka pattern, e.g. /v1/webhooks/:id */
  path: string;
  summary: string;
  tag: string;
  /**
   * `required` (the default): credentials must be presented and valid. `public`: anonymous callers
   * are served, and credentials that are presented are still checked (a bad one is 401), because
   * the handler may act for the caller (the invitation accept link). `none`: credentials are not
   * read at all (health probes and the OpenAPI document), so a stale header cannot fail a probe.
   */
  auth?: 'none' | 'public' | 'required';
  /** API keys with a non-empty scope list reach only routes that name one of their scopes. */
  scope?: ApiKeyScope;
  params?: P;
  query?: Q;
  body?: B;
  /** The success `data` schema, for the OpenAPI document. */
  response?: Schema;
  /** Success status when the handler returns plain data (default 200). */
  status?: number;
  /** Health probes are logged at debug level only. */
  quiet?: boolean;
  /** Plain data (or a Reply), or a promise of it; a handler that needs no I/O may answer synchronously. */
  handler: (ctx: RouteContext<Out<P>, Out<Q>, Out<B>>) => unknown;
}

/** Declares a route; the same schemas validate requests, type the handler and feed OpenAPI. */
export function defineRoute<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(def: RouteDef<P, Q, B>): RouteDef {
  return def;
}

/** Shared query for list routes: ?limit= (1..200, default 50) and ?cursor=. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(1024).optional(),
});

export const uuidParam = z.string().uuid('must be a UUID');
