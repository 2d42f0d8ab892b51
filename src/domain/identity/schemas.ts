import { z } from 'zod';
import { cleanText, emailSchema, idSchema as id, timestampSchema as timestamp } from '../schemas.js';
import { apiKeyScopes } from './caller.js';
import { actions } from './permissions.js';
import { roles } from './roles.js';

// Request and record schemas of the identity area: they validate HTTP and gRPC input and
// document the API (OpenAPI), so each shape is written once.

export const roleSchema = z.enum(roles);
const scopeSchema = z.enum(apiKeyScopes);
const actionSchema = z.enum(actions);
const slugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lower-case letters, digits and dashes, 1-63 characters');

export const organizationSchema = z.object({
  id,
  slug: z.string(),
  display_name: z.string(),
  created_by: id.nullable(),
  created_at: timestamp,
});
export const membershipSchema = z.object({
  id,
  organization_id: id,
  team_id: id.nullable(),
  principal_id: id,
  role: roleSchema,
  created_at: timestamp,
  updated_at: timestamp,
});
export const teamSchema = z.object({ id, organization_id: id, name: z.string(), created_at: timestamp });
export const grantSchema = z.object({
  id,
  organization_id: id,
  principal_id: id,
  action: z.string(),
  resource_type: z.string(),
  resource_id: z.string(),
  created_by: id.nullable(),
  created_at: timestamp,
});
export const apiKeySchema = z.object({
  id,
  name: z.string(),
  organization_id: id,
  principal_id: id,
  prefix: z.string(),
  scopes: z.array(scopeSchema),
  expires_at: timestamp.nullable(),
  created_at: timestamp,
  revoked_at: timestamp.nullable(),
  revoked_reason: z.string().nullable(),
  last_used_at: timestamp.nullable(),
});
export const createdApiKeySchema = apiKeySchema.extend({ raw_key: z.string().describe('shown once, never again') });

export const createOrganizationBody = z.object({ slug: slugSchema, display_name: cleanText(200).optional() });
export const updateOrganizationBody = z.object({ slug: slugSchema.optional(), display_name: cleanText(200).optional() });
export const createTeamBody = z.object({ name: cleanText(200) });
export const updateTeamBody = createTeamBody;
export const addMemberBody = z
  .object({ principal_id: id.optional(), email: emailSchema.optional(), role: roleSchema, team_id: id.nullable().optional() })
  .refine((b) => (b.principal_id === undefined) !== (b.email === undefined), {
    message: 'give exactly one of principal_id or email',
    path: ['principal_id'],
  });
export const updateMemberBody = z.object({ role: roleSchema });
export const createGrantBody = z.object({
  principal_id: id,
  action: actionSchema,
  resource_type: z.string().min(1).max(64),
  resource_id: z.string().min(1).max(200),
});
/**
 * How long an API key may live (docs/decisions.md); applies to expires_at and expires_in_seconds alike.
 * Ten calendar years hold at most three leap days, so the CLI's `--expires-in 10y` fits.
 */
export const apiKeyLifetimeSeconds = { min: 60, max: (10 * 365 + 3) * 86_400 } as const;

export const createApiKeyBody = z
  .object({
    name: cleanText(200),
    organization_id: id,
    scopes: z.array(scopeSchema).max(apiKeyScopes.length).optional(),
    expires_at: timestamp.optional(),
    expires_in_seconds: z
      .number()
      .int()
      .min(apiKeyLifetimeSeconds.min, 'must be at least 60s')
      .max(apiKeyLifetimeSeconds.max, 'must be at most 10 years')
      .optional(),
  })
  .refine((b) => b.expires_at === undefined || b.expires_in_seconds === undefined, {
    message: 'give expires_at or expires_in_seconds, not both',
    path: ['expires_at'],
  });

export const permissionCheck = z.object({
  action: actionSchema,
  resource_type: z.string().min(1).max(64),
  resource_id: z.string().min(1).max(200),
});
const permissionBatchItem = z.object({
  action: actionSchema,
  resource_type: z.string().min(1).max(64).optional(),
  resource_id: z.string().min(1).max(200).optional(),
});
export const permissionBatchBody = z.object({ checks: z.array(permissionBatchItem).min(1).max(100) });
/** The operator's check for someone else (gRPC CheckPermission): a principal or an API key, and a check. */
export const permissionCheckFor = permissionBatchItem
  .extend({
    principal: z.string().trim().min(1).max(320).optional(),
    api_key_id: id.optional(),
  })
  .refine((b) => (b.principal === undefined) !== (b.api_key_id === undefined), {
    message: 'give principal or api_key_id, exactly one',
    path: ['principal'],
  })
  .refine((b) => (b.resource_type === undefined) === (b.resource_id === undefined), {
    message: 'give resource_type and resource_id together, or neither (the organization)',
    path: ['resource_id'],
  });
export const decisionSchema = z.object({ allowed: z.boolean(), role: roleSchema.nullable(), reason: z.string() });
