import { z } from 'zod';
import type { Identity } from '../../domain/identity/index.js';
import type { Caller } from '../../domain/identity/caller.js';
import type { Action } from '../../domain/identity/permissions.js';
import {
  addMemberBody,
  apiKeySchema,
  createApiKeyBody,
  createdApiKeySchema,
  createGrantBody,
  createOrganizationBody,
  createTeamBody,
  decisionSchema,
  grantSchema,
  membershipSchema,
  organizationSchema,
  permissionBatchBody,
  permissionCheck,
  teamSchema,
  updateMemberBody,
  updateOrganizationBody,
} from '../../domain/identity/schemas.js';
import { defineRoute, pageQuery, Reply, uuidParam } from '../route.js';

const orgParams = z.object({ id: uuidParam });
const orgChildParams = (name: string) => z.object({ id: uuidParam, [name]: uuidParam });
const idParams = z.object({ id: uuidParam });

/** Routes are authenticated unless public, so the caller is set; this narrows the type. */
function caller(c: Caller | null): Caller {
  return c!;
}

export function identityRoutes(identity: Identity) {
  const { organizations: orgs, apiKeys } = identity;
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/organizations',
      summary: 'Create an organization; the caller becomes its owner',
      tag: 'organizations',
      body: createOrganizationBody,
      response: organizationSchema,
      status: 201,
      handler: async (ctx) => (await orgs.createOrganization(caller(ctx.caller), ctx.body)).organization,
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations',
      summary: "The caller's organizations",
      tag: 'organizations',
      query: pageQuery,
      response: z.array(organizationSchema),
      handler: async (ctx) => Reply.page(await orgs.listOrganizations(caller(ctx.caller), ctx.query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id',
      summary: 'One organization',
      tag: 'organizations',
      params: orgParams,
      response: organizationSchema,
      handler: async (ctx) => orgs.getOrganization(caller(ctx.caller), ctx.params.id),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/organizations/:id',
      summary: 'Rename an organization (admin)',
      tag: 'organizations',
      params: orgParams,
      body: updateOrganizationBody,
      response: organizationSchema,
      handler: async (ctx) => orgs.updateOrganization(caller(ctx.caller), ctx.params.id, ctx.body),
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/members',
      summary: 'Members of an organization (organization- and team-level)',
      tag: 'members',
      params: orgParams,
      query: pageQuery.extend({ team_id: uuidParam.optional() }),
      response: z.array(membershipSchema),
      handler: async (ctx) => Reply.page(await orgs.listMembers(caller(ctx.caller), ctx.params.id, ctx.query)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/organizations/:id/members',
      summary: 'Add a member with a role, organization-wide or on one team (admin; owner role: owners only)',
      tag: 'members',
      params: orgParams,
      body: addMemberBody,
      response: membershipSchema,
      status: 201,
      handler: async (ctx) => orgs.addMember(caller(ctx.caller), ctx.params.id, ctx.body),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/organizations/:id/members/:membership_id',
      summary: "Change a member's role",
      tag: 'members',
      params: orgChildParams('membership_id'),
      body: updateMemberBody,
      response: membershipSchema,
      handler: async (ctx) => orgs.updateMember(caller(ctx.caller), ctx.params.id, ctx.params.membership_id, ctx.body.role),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/organizations/:id/members/:membership_id',
      summary: 'Remove a member',
      tag: 'members',
      params: orgChildParams('membership_id'),
      response: membershipSchema,
      handler: async (ctx) => orgs.removeMember(caller(ctx.caller), ctx.params.id, ctx.params.membership_id),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/organizations/:id/teams',
      summary: 'Create a team (admin)',
      tag: 'teams',
      params: orgParams,
      body: createTeamBody,
      response: teamSchema,
      status: 201,
      handler: async (ctx) => orgs.createTeam(caller(ctx.caller), ctx.params.id, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/teams',
      summary: 'Teams of an organization',
      tag: 'teams',
      params: orgParams,
      query: pageQuery,
      response: z.array(teamSchema),
      handler: async (ctx) => Reply.page(await orgs.listTeams(caller(ctx.caller), ctx.params.id, ctx.query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/teams/:team_id',
      summary: 'One team',
      tag: 'teams',
      params: orgChildParams('team_id'),
      response: teamSchema,
      handler: async (ctx) => orgs.getTeam(caller(ctx.caller), ctx.params.id, ctx.params.team_id),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/organizations/:id/teams/:team_id',
      summary: 'Delete a team and its memberships',
      tag: 'teams',
      params: orgChildParams('team_id'),
      response: teamSchema,
      handler: async (ctx) => orgs.deleteTeam(caller(ctx.caller), ctx.params.id, ctx.params.team_id),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/organizations/:id/grants',
      summary: 'Give one principal one action on one resource (ACL grant)',
      tag: 'grants',
      params: orgParams,
      body: createGrantBody,
      response: grantSchema,
      status: 201,
      handler: async (ctx) =>
        orgs.createGrant(caller(ctx.caller), ctx.params.id, { ...ctx.body, action: ctx.body.action as Action }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/grants',
      summary: 'ACL grants of an organization',
      tag: 'grants',
      params: orgParams,
      query: pageQuery,
      response: z.array(grantSchema),
      handler: async (ctx) => Reply.page(await orgs.listGrants(caller(ctx.caller), ctx.params.id, ctx.query)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/organizations/:id/grants/:grant_id',
      summary: 'Remove an ACL grant',
      tag: 'grants',
      params: orgChildParams('grant_id'),
      response: grantSchema,
      handler: async (ctx) => orgs.deleteGrant(caller(ctx.caller), ctx.params.id, ctx.params.grant_id),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/api-keys',
      summary: 'Create an API key acting as the caller in one organization; raw_key is shown once',
      tag: 'api-keys',
      body: createApiKeyBody,
      response: createdApiKeySchema,
      status: 201,
      handler: async (ctx) => apiKeys.create(caller(ctx.caller), ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/api-keys',
      summary: 'Active API keys of an organization (admins: all; others: their own)',
      tag: 'api-keys',
      query: pageQuery.extend({ organization_id: uuidParam }),
      response: z.array(apiKeySchema),
      handler: async (ctx) => Reply.page(await apiKeys.list(caller(ctx.caller), ctx.query.organization_id, ctx.query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/api-keys/:id',
      summary: 'One API key, without its secret (admins: any key of the organization; others: their own)',
      tag: 'api-keys',
      params: idParams,
      response: apiKeySchema,
      handler: async (ctx) => apiKeys.get(caller(ctx.caller), ctx.params.id),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/api-keys/:id',
      summary: 'Revoke an API key (effective on the next request)',
      tag: 'api-keys',
      params: idParams,
      response: apiKeySchema,
      handler: async (ctx) => apiKeys.revoke(caller(ctx.caller), ctx.params.id),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/permissions/check',
      summary: 'May the caller perform this action on this resource?',
      tag: 'permissions',
      body: permissionCheck,
      response: decisionSchema,
      handler: async (ctx) => identity.check(caller(ctx.caller), { ...ctx.body, action: ctx.body.action as Action }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/permissions/check-batch',
      summary: 'Up to 100 permission checks, answered in order',
      tag: 'permissions',
      body: permissionBatchBody,
      response: z.object({ results: z.array(decisionSchema) }),
      handler: async (ctx) => {
        const who = caller(ctx.caller);
        const results = await Promise.all(ctx.body.checks.map((c) => identity.check(who, { ...c, action: c.action as Action })));
        return { results };
      },
    }),
  ];
}
