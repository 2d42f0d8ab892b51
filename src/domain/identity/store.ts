import { Collection } from '../../storage/collection.js';
import { HourlyLog } from '../../storage/hourly-log.js';
import { compositeKey } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { ApiKeyRecord, Grant, Membership, Organization, OrganizationCreate, Principal, Team } from './types.js';

/** The identity tables and their indexes (names declared in storage/keyspace.ts). */
export interface IdentityStore {
  principals: Collection<Principal>;
  organizations: Collection<Organization>;
  teams: Collection<Team>;
  memberships: Collection<Membership>;
  grants: Collection<Grant>;
  apiKeys: Collection<ApiKeyRecord>;
  /** Organizations created over /v1 per principal, in the last hour (SERVICE_ORG_CREATE_PER_HOUR). */
  organizationCreates: HourlyLog<OrganizationCreate>;
}

function active(key: ApiKeyRecord, value: string[]): string[] | undefined {
  return key.revoked_at === null ? value : undefined;
}

/** Identity records are read on every request, so their tables keep a read cache (where the engine has one). */
const cached = { cache: true };

/** The `scope` value of a membership: its organization, its team (null: organization-level), its principal. */
export function scopeKey(organizationId: string, teamId: string | null, principalId: string): string {
  return compositeKey(organizationId, teamId ?? '-', principalId);
}

export function createIdentityStore(storage: Storage): IdentityStore {
  return {
    principals: new Collection<Principal>(
      storage,
      'principals',
      (p) => p.id,
      [
        { name: 'email', value: (p) => p.email ?? undefined, unique: true },
        // One principal per identity-provider subject (contract 13).
        { name: 'external_id', value: (p) => p.external_id ?? undefined, unique: true },
      ],
      cached,
    ),
    organizations: new Collection<Organization>(
      storage,
      'organizations',
      (o) => o.id,
      [{ name: 'slug', value: (o) => o.slug, unique: true }],
      cached,
    ),
    teams: new Collection<Team>(
      storage,
      'teams',
      (t) => t.id,
      [{ name: 'organization', value: (t) => t.organization_id, sort: (t) => t.created_at }],
      cached,
    ),
    memberships: new Collection<Membership>(
      storage,
      'memberships',
      (m) => m.id,
      [
        { name: 'principal', value: (m) => m.principal_id, sort: (m) => m.organization_id },
        { name: 'organization', value: (m) => m.organization_id, sort: (m) => m.created_at },
        // One membership per (organization, team or none, principal).
        { name: 'scope', value: (m) => scopeKey(m.organization_id, m.team_id, m.principal_id), unique: true },
        {
          name: 'team',
          value: (m) => (m.team_id === null ? undefined : [m.organization_id, m.team_id]),
          sort: (m) => m.created_at,
        },
        {
          name: 'owner',
          value: (m) => (m.team_id === null && m.role === 'owner' ? m.organization_id : undefined),
          sort: (m) => m.created_at,
        },
      ],
      cached,
    ),
    grants: new Collection<Grant>(storage, 'grants', (g) => g.id, [
      { name: 'organization', value: (g) => g.organization_id, sort: (g) => g.created_at },
      { name: 'principal', value: (g) => g.principal_id, sort: (g) => g.organization_id },
      { name: 'resource', value: (g) => [g.resource_type, g.resource_id], sort: (g) => g.created_at },
      // A check asks "does this principal hold this action on this resource?": one key read, however
      // many grants the principal holds elsewhere.
      { name: 'principal_resource', value: (g) => [g.principal_id, g.resource_type, g.resource_id], sort: (g) => g.action },
    ]),
    apiKeys: new Collection<ApiKeyRecord>(
      storage,
      'api_keys',
      (k) => k.id,
      [
        { name: 'prefix', value: (k) => k.prefix, unique: true },
        // Lists show active keys only, so a revoked key leaves both list indexes.
        { name: 'organization', value: (k) => active(k, [k.organization_id]), sort: (k) => k.created_at },
        {
          name: 'organization_principal',
          value: (k) => active(k, [k.organization_id, k.principal_id]),
          sort: (k) => k.created_at,
        },
        // Every key, revoked ones too (`key list --all`).
        { name: 'organization_all', value: (k) => k.organization_id, sort: (k) => k.created_at },
      ],
      cached,
    ),
    organizationCreates: new HourlyLog<OrganizationCreate>(storage, 'organization_creates'),
  };
}
