import { z } from 'zod';
import { emailSchema, idSchema as id, timestampSchema as timestamp } from '../schemas.js';
import { roleSchema } from '../identity/schemas.js';
import { invitationStatuses } from './types.js';

// Request and record schemas of invitations: HTTP and gRPC input, types and OpenAPI from one place.

export const createInvitationBody = z.object({ organization_id: id, email: emailSchema, role: roleSchema });

export const invitationStatusSchema = z.enum(invitationStatuses);

export const invitationSchema = z.object({
  id,
  organization_id: id,
  email: z.string(),
  role: roleSchema,
  status: invitationStatusSchema,
  expires_at: timestamp,
  created_at: timestamp,
  updated_at: timestamp,
  created_by: id.nullable(),
  outbox_entry_id: id.nullable(),
  send_count: z.number().int(),
  accepted_at: timestamp.nullable(),
  accepted_by: id.nullable(),
  membership_id: id.nullable(),
  revoked_at: timestamp.nullable(),
  revoked_by: id.nullable(),
  expired_at: timestamp.nullable(),
});

export const acceptResultSchema = z.object({
  status: z.literal('accepted'),
  invitation_id: id,
  organization_id: id,
  membership_id: id,
});

/** An invitation as callers see it, typed by its response schema (docs/openapi.md). */
export type InvitationView = z.input<typeof invitationSchema>;
