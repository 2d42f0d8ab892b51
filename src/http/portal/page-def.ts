import { z } from 'zod';
import type { PortalSession } from '../../domain/portal/service.js';
import { idSchema } from '../../domain/schemas.js';
import { AppError } from '../../errors.js';
import type { Reply, RouteContext } from '../route.js';
import type { SafeHtml } from './html.js';

// What a portal page is, and the small readers its handler uses: the pages (pages/*.ts) define
// themselves with these, and routes.ts turns them into routes.

export const formBody = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type FormBody = z.infer<typeof formBody>;

export type PortalContext = RouteContext<Record<string, string>, unknown, FormBody | undefined>;

/** What a page handler answers: a page, or a Reply (a redirect, a stream). */
export type PortalAnswer = SafeHtml | Reply;

export interface PortalPageDef {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  handler: (ctx: PortalContext, session: PortalSession) => Promise<PortalAnswer>;
}

/** A path id that is not a resource id is the same 404 as another organization's. */
export function pathId(ctx: PortalContext, name: string): string {
  const value = ctx.params[name];
  if (!idSchema.safeParse(value).success) throw new AppError('not_found', 'not found');
  return value.toLowerCase();
}

/** The query string's values (first of each). */
export function queryOf(ctx: PortalContext): URLSearchParams {
  return new URL(ctx.req.url ?? '/', 'http://portal.invalid').searchParams;
}

/** One form field as text ('' when absent). */
export function field(body: FormBody | undefined, name: string): string {
  const value = body?.[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/** A form field given any number of times. */
export function fieldList(body: FormBody | undefined, name: string): string[] {
  const value = body?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
