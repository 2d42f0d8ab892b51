import type { Collection } from '../../storage/collection.js';
import type { Area, AreaBase } from '../area.js';
import { ApiKeyService } from './api-keys.js';
import { AuthenticationService } from './authenticate.js';
import { PermissionCheckService } from './checks.js';
import { GrantService } from './grants.js';
import { MembershipService } from './memberships.js';
import { OrganizationService } from './organizations.js';
import { atOrganization, PermissionEngine } from './permissions.js';
import { PrincipalService } from './principals.js';
import { createIdentityStore } from './store.js';
import { TeamService } from './teams.js';

export interface IdentityServices {
  permissions: PermissionEngine;
  permissionChecks: PermissionCheckService;
  authentication: AuthenticationService;
  principals: PrincipalService;
  organizations: OrganizationService;
  teams: TeamService;
  memberships: MembershipService;
  grants: GrantService;
  apiKeys: ApiKeyService;
}

/** Identity: principals, organizations, teams, memberships, grants, API keys, authentication, permissions. */
export function createIdentity({ storage, eventLog, audit, config, log }: AreaBase): Area<IdentityServices> {
  const store = createIdentityStore(storage);
  const permissions = new PermissionEngine(store);
  const principals = new PrincipalService(storage, store, log.child({ module: 'identity' }));
  const organizations = new OrganizationService(
    storage,
    store,
    permissions,
    principals,
    eventLog,
    audit,
    config.orgCreatePerHour,
  );
  const teams = new TeamService(storage, store, permissions, audit, eventLog);
  const memberships = new MembershipService(storage, store, permissions, principals, teams, audit, eventLog);
  const grants = new GrantService(storage, store, permissions, audit, config.maxGrantsPerPrincipal);
  const apiKeys = new ApiKeyService(
    storage,
    store,
    permissions,
    organizations,
    memberships,
    audit,
    log.child({ module: 'identity' }),
  );
  const authentication = new AuthenticationService(apiKeys, principals, config);
  const permissionChecks = new PermissionCheckService(permissions, principals, store);
  const tables: Pick<Collection<object>, 'name' | 'count'>[] = [
    store.principals,
    store.organizations,
    store.teams,
    store.memberships,
    store.grants,
    store.apiKeys,
  ];
  return {
    services: { permissions, permissionChecks, authentication, principals, organizations, teams, memberships, grants, apiKeys },
    resources: {
      organization: async (id) => ((await store.organizations.get(id)) ? atOrganization(id) : undefined),
      team: async (id) => {
        const team = await store.teams.get(id);
        return team && { organizationId: team.organization_id, teamId: team.id };
      },
      api_key: (id) => apiKeys.locateApiKey(id),
    },
    count: async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t.name, await t.count()] as const))),
  };
}
