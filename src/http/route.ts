import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { ApiKeyScope, Caller } from '../domain/identity/caller.js';
import type { ErrorDescription } from '../errors.js';
import type { Logger } from '../log.js';
import type { Page } from '../storage/collection.js';
import { idSchema } from '../domain/schemas.js';
import type { BodyFormat } from './body.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The client errors the OpenAPI document describes (src/http/openapi.ts). */
export type ClientErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429;

export type RouteAuth = 'none' | 'public' | 'required';

/** The caller a handler sees: never null on a route that requires authentication. */
export type CallerOf<A extends RouteAuth> = A extends 'required' ? Caller : Caller | null;

export interface RouteContext<P, Q, B, C extends Caller | null = Caller | null> {
  params: P;
  query: Q;
  body: B;
  caller: C;
  requestId: string;
  req: IncomingMessage;
  res: ServerResponse;
  log: Logger;
}

const NONE: Readonly<Record<string, never>> = Object.freeze({});

/**
 * A non-default answer: a status, extra meta, headers, a redirect, or a response already written.
 * `D` is its body's type, checked against the route's response schema (RouteAnswer); the answers
 * without a JSON body (redirect, HTML, handled) are `Reply<never>`, which every route may give.
 */
export class Reply<out D = unknown> {
  private constructor(
    readonly status: number,
    /** The JSON body (`json`, `raw`); undefined for the others. */
    readonly data: D | undefined,
    readonly meta: Readonly<Record<string, unknown>> = NONE,
    readonly headers: Readonly<Record<string, string>> = NONE,
    readonly kind: 'json' | 'redirect' | 'handled' | 'raw' | 'html' = 'json',
    /** The page (`html`). */
    readonly html = '',
  ) {}

  static json<D>(status: number, data: D, meta: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply<D> {
    return new Reply(status, data, meta, headers);
  }

  /** A page of items, as they are or each mapped (a view function). */
  static page<T>(page: Page<T>): Reply<T[]>;
  static page<T, U>(page: Page<T>, map: (item: T) => U): Reply<U[]>;
  static page<T, U>(page: Page<T>, map?: (item: T) => U): Reply<(T | U)[]> {
    const items: (T | U)[] = map === undefined ? page.items : page.items.map(map);
    return new Reply(200, items, { next_cursor: page.nextCursor });
  }

  static redirect(location: string, status = 303, headers: Record<string, string> = {}): Reply<never> {
    return new Reply<never>(status, undefined, NONE, { ...headers, location }, 'redirect');
  }

  /** A body outside the /v1 envelope (health, OpenAPI document). */
  static raw<D>(status: number, body: D): Reply<D> {
    return new Reply(status, body, NONE, NONE, 'raw');
  }

  /** An HTML page (the invitation confirmation page): `html` must be fully escaped by the caller. */
  static html(status: number, html: string, headers: Record<string, string> = {}): Reply<never> {
    return new Reply<never>(status, undefined, NONE, headers, 'html', html);
  }

  /** The answer to a HEAD request: Node sends no body for HEAD, so it carries none (only the status). */
  static head(status = 200): Reply<never> {
    return new Reply<never>(status, undefined);
  }

  /** The handler wrote the response itself (streams). */
  static handled(): Reply<never> {
    return new Reply<never>(0, undefined, NONE, NONE, 'handled');
  }
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * What a handler may answer: with a `response` schema, a body the schema accepts (its input type,
 * what parsing the answer would take), as plain data or in a Reply, or a Reply without a body
 * (redirect, HTML, handled); without one, anything (streams, the portal's pages). So a field the
 * schema gains and the handler's view lacks, or the reverse in an object literal, fails `tsc`.
 */
export type RouteAnswer<R> = R extends z.ZodType ? z.input<R> | Reply<z.input<R>> : unknown;
type Awaitable<T> = T | Promise<T>;

/** The `:name` parameters of a polka path, as a union of names. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** A params schema must name exactly the path's parameters. */
type ParamsSchema<Path extends string> = z.ZodType<Record<PathParams<Path>, unknown>>;

/** Error answers in another protocol's shape: the body, and its schema for the OpenAPI document. */
export interface ErrorShape {
  /** The schema's name among the document's components. */
  name: string;
  body: (status: number, error: ErrorDescription) => unknown;
  schema: z.ZodType;
}

export interface RouteDef<
  Path extends string = string,
  A extends RouteAuth = RouteAuth,
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema | undefined = Schema | undefined,
> {
  method: HttpMethod;
  /** polka pattern, e.g. /v1/webhooks/:id */
  path: Path;
  summary: string;
  tag: string;
  /**
   * `required` (the default): credentials must be presented and valid. `public`: anonymous callers
   * are served, and credentials that are presented are still checked (a bad one is 401), because
   * the handler may act for the caller (the invitation accept link). `none`: credentials are not
   * read at all (health probes and the OpenAPI document), so a stale header cannot fail a probe.
   */
  auth?: A;
  /**
   * API keys with a non-empty scope list reach only routes that name one of their scopes; `any`: every
   * key, scoped or not (permission checks, whose answers weigh the key's scopes themselves).
   */
  scope?: ApiKeyScope | 'any';
  params?: P;
  query?: Q;
  body?: B;
  /** Body formats accepted (default JSON only, else 415): `form` adds URL-encoded HTML form posts. */
  bodyFormats?: readonly BodyFormat[];
  /** Largest body accepted (default BODY_LIMIT_BYTES, 1 MiB); larger is 413. */
  bodyLimitBytes?: number;
  /** The success `data` schema, for the OpenAPI document; the handler's answer is typed by it (RouteAnswer). */
  response?: R;
  /** Other statuses answered with the `response` schema (the readiness probe's 503), for the OpenAPI document. */
  alsoAnswers?: readonly number[];
  /** Media types of a success answer the handler writes itself (a download, a stream), for the OpenAPI document. */
  produces?: readonly string[];
  /** 4xx statuses the handler answers beyond those its definition implies (auth, params, body), for OpenAPI. */
  errors?: readonly ClientErrorStatus[];
  /** Success status when the handler returns plain data (default 200). */
  status?: number;
  /** false: left out of the OpenAPI document (the portal's HTML pages). */
  document?: boolean;
  /** Health probes are logged at debug level only. */
  quiet?: boolean;
  /**
   * This route's error answers (status and headers unchanged); default the contract's envelope. The
   * gateway's routes answer in their protocol's own shape (OpenAI's, Anthropic's).
   */
  errorBody?: ErrorShape;
  /** Plain data (or a Reply), or a promise of it; a handler that needs no I/O may answer synchronously. */
  handler: (ctx: RouteContext<Out<P>, Out<Q>, Out<B>, CallerOf<A>>) => Awaitable<RouteAnswer<R>>;
}

/**
 * Declares a route; the same schemas validate requests, type the handler and feed OpenAPI. The
 * params schema is checked against the path's `:names`, and the handler's caller is non-null unless
 * the route is public.
 */
export function defineRoute<
  const Path extends string,
  A extends RouteAuth = 'required',
  P extends ParamsSchema<Path> | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
>(def: RouteDef<Path, A, P, Q, B, R>): RouteDef {
  // The one place a route's precise types are erased, for the router's list.
  return def;
}

/** A path parameter that is a resource id. */
export const uuidParam = idSchema;

/** The params schema of a path whose parameters are all resource ids: `idParams('id', 'team_id')`. */
export function idParams<const N extends string>(...names: N[]): z.ZodObject<{ [K in N]: typeof idSchema }> {
  return z.object(Object.fromEntries(names.map((name) => [name, idSchema]))) as z.ZodObject<{ [K in N]: typeof idSchema }>;
}

export { pageQuery } from '../domain/schemas.js';
