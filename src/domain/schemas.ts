import { z } from 'zod';

// Schema primitives every area shares, written once: ids, timestamps, emails, list queries.

/** Resource ids are UUID v4 (contract 3). */
export const idSchema = z.uuid('must be a UUID');

/** ISO 8601 UTC with milliseconds and `Z`. */
export const timestampSchema = z.iso.datetime();

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
