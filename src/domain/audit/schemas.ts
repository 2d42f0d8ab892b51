import { z } from 'zod';
import { idSchema, pageQuery, timestampSchema } from '../schemas.js';

// The audit-log list's filters (HTTP query and gRPC request) and its record (OpenAPI), declared once.

/** An actor filter: a principal's or an API key's id, or `operator` (changes made over the admin API). */
export const auditActorFilter = z.union([idSchema, z.literal('operator')], 'must be a principal id, an API key id or operator');

/** An action filter: a dotted verb such as `member.update`. */
export const auditActionFilter = z
  .string()
  .regex(/^[a-z_]+(\.[a-z_]+)+$/, 'must be a dotted action such as member.update')
  .max(64, 'at most 64 characters');

export const auditFilters = z
  .object({
    actor: auditActorFilter.optional(),
    action: auditActionFilter.optional(),
    /** Records made at or after this time. */
    since: timestampSchema.optional(),
    /** Records made before this time. */
    until: timestampSchema.optional(),
  })
  .refine((q) => q.since === undefined || q.until === undefined || Date.parse(q.since) < Date.parse(q.until), {
    message: 'must be after since',
    path: ['until'],
  });
export type AuditFilters = z.infer<typeof auditFilters>;

export const auditQuery = z.intersection(pageQuery, auditFilters);

export const auditRecordSchema = z.object({
  id: z.string(),
  organization_id: z.string().nullable(),
  actor: z.object({
    type: z.enum(['principal', 'api_key', 'portal_session', 'operator']),
    principal_id: z.string().optional(),
    api_key_id: z.string().optional(),
    portal_session_id: z.string().optional(),
    method: z.enum(['jwt', 'dev', 'invitation_link']).optional(),
  }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  changes: z.object({
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
  }),
  timestamp: z.string(),
  request_id: z.string().nullable(),
  source: z.enum(['http', 'grpc', 'system']),
});
