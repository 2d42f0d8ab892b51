import type { ApiKeyScope } from './caller.js';
import type { Role } from './roles.js';

export interface Principal {
  id: string;
  /** Normalised (trimmed, lower-case); null for principals known only by id (JWT sub, dev header). */
  email: string | null;
  /**
   * The identity provider's subject (a JWT `sub`, contract 13) this principal is bound to; absent on
   * records written before subjects were kept, and null until bound.
   */
  external_id?: string | null;
  created_at: string;
}

/** A principal as shown: `external_id` always present (null when unbound). */
export type PrincipalView = Omit<Principal, 'external_id'> & { external_id: string | null };

export function viewPrincipal(principal: Principal): PrincipalView {
  return {
    id: principal.id,
    email: principal.email,
    external_id: principal.external_id ?? null,
    created_at: principal.created_at,
  };
}

export interface Organization {
  id: string;
  slug: string;
  display_name: string;
  created_by: string | null;
  created_at: string;
}

export interface Team {
  id: string;
  organization_id: string;
  name: string;
  created_at: string;
}

export interface Membership {
  id: string;
  organization_id: string;
  /** null: organization-level; else the role applies to that team's resources. */
  team_id: string | null;
  principal_id: string;
  role: Role;
  created_at: string;
  updated_at: string;
}

/** One organization created over /v1 (`subject`: the principal), counted per hour. */
export interface OrganizationCreate {
  id: string;
  subject: string;
  organization_id: string;
  at: string;
}

export interface Grant {
  id: string;
  organization_id: string;
  principal_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  created_by: string | null;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  organization_id: string;
  principal_id: string;
  prefix: string;
  /** SHA-256 (hex) of the whole key text; the key itself is never stored. */
  key_hash: string;
  scopes: ApiKeyScope[];
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
  /** Why the key stopped working: `revoked` (by a caller) or `member removed` (its principal left). */
  revoked_reason?: string | null;
  last_used_at: string | null;
}

/**
 * An API key as shown to users: never the hash or the key; `revoked_reason` always present (null for
 * keys stored before it existed), as apiKeySchema (schemas.ts) promises.
 */
export type ApiKeyView = Omit<ApiKeyRecord, 'key_hash' | 'revoked_reason'> & { revoked_reason: string | null };

export function viewApiKey(record: ApiKeyRecord): ApiKeyView {
  const { key_hash: _hidden, ...view } = record;
  return { ...view, revoked_reason: record.revoked_reason ?? null };
}
