import { z } from 'zod';

// Schema primitives every area shares, written once: ids, timestamps, emails, list queries.

/** Resource ids are UUID v4 (contract 3). */
export const idSchema = z.uuid('must be a UUID');

/** Any JSON value, one schema for every field that holds opaque JSON (`JsonValue` in OpenAPI). */
export const jsonValue = z.json();
z.globalRegistry.add(jsonValue, { id: 'JsonValue' });

/** ISO 8601 UTC with milliseconds and `Z`. */
export const timestampSchema = z.iso.datetime();

/**
 * A time given in a filter (`since`, `until`) in the one form stored times have (milliseconds and
 * `Z`): `…56Z` and `…56.530Z` compare as strings by their characters ('Z' after '.'), not as times.
 */
export function canonicalTime(value: string): string {
  return new Date(Date.parse(value)).toISOString();
}

/** Emails are matched case-insensitively after trimming (contract 3): trimmed before the format check. */
export const emailSchema = z.string().trim().max(320, 'at most 320 characters').pipe(z.email('must be an email address'));

/** The form an email is stored and compared in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The list query of every /v1 list: ?limit= (1..200, default 50) and ?cursor=. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(1024).optional(),
});

/**
 * What free text shown to people (names, display names) may not hold: control characters (C0, DEL,
 * C1), line and paragraph separators, bidi overrides and isolates, and lone surrogates.
 */
const UNCLEAN =
  /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

/** Trimmed, 1..max characters of clean text: one rule for every name on every route. */
export function cleanText(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `at most ${max} characters`)
    .refine((v) => !UNCLEAN.test(v), 'must not contain control characters, line breaks, bidi overrides or lone surrogates');
}

/**
 * A view typed by its response schema's type `T`, refusing at compile time any key `T` does not list,
 * so a record spread into a view cannot leak a field that the schema (and /openapi.json) does not
 * describe, and a field the schema gains must be written: `exactly<ScheduleView>()(view)`.
 */
export function exactly<T>(): <V extends T>(view: V & Record<Exclude<keyof V, keyof T>, never>) => T {
  return (view) => view;
}
