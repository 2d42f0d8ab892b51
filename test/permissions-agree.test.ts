import { randomUUID } from 'node:crypto';
import t from 'tap';
import { actions, type Action } from '../src/domain/identity/permissions.js';
import type { Role } from '../src/domain/identity/roles.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, type JsonResponse } from './helpers.js';

// POST /v1/permissions/check and the route that performs the action answer from the same decision:
// for every action with a route, every kind of caller, a check that says `allowed` means the route
// succeeds, "resource not found" means 404, and any other refusal means 403.

/** Actions whose routes arrive with later areas (webhooks, providers, runs, jobs) or do not exist yet. */
const withoutRoute = new Set<Action>([
  'team.update',
  'webhook.create',
  'webhook.read',
  'webhook.update',
  'webhook.delete',
  // Listing providers needs only authentication (contract 8): its route checks no action.
  'provider.read',
  'workflow.read',
  'workflow.write',
  'job.read',
  'job.write',
]);

interface Case {
  resource_type: string;
  resource_id: string;
  call: (headers: Record<string, string>) => Promise<JsonResponse>;
}

t.test('the permission check and the route agree for every action of the catalog', async (t) => {
  const d = await startTestDaemon(t);
  const ids = {
    owner: randomUUID(),
    admin: randomUUID(),
    member: randomUUID(),
    viewer: randomUUID(),
    teamAdmin: randomUUID(),
    grantee: randomUUID(),
    stranger: randomUUID(),
  };
  const asOwner = asPrincipal(ids.owner);
  const org = await createOrganizationAs(d.url, asOwner, 'agree');
  await createOrganizationAs(d.url, asPrincipal(ids.stranger), 'elsewhere');
  const call = (method: string, p: string, headers: Record<string, string>, body?: unknown) =>
    request(d.url, method, p, { headers, ...(body === undefined ? {} : { body }) });
  const ok = async (res: Promise<JsonResponse>, what: string) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const orgPath = `/v1/organizations/${org.id}`;
  const newTeam = async () => ok(call('POST', `${orgPath}/teams`, asOwner, { name: `t-${randomUUID()}` }), 'team');
  const team = await newTeam();
  const addMember = async (principal_id: string, role: Role, team_id?: string) =>
    ok(call('POST', `${orgPath}/members`, asOwner, { principal_id, role, ...(team_id ? { team_id } : {}) }), 'member');
  await addMember(ids.admin, 'admin');
  await addMember(ids.member, 'member');
  await addMember(ids.viewer, 'viewer');
  await addMember(ids.teamAdmin, 'admin', team.id);
  await addMember(ids.grantee, 'viewer');
  // The grantee holds two actions beyond its role: one on the organization, one on the team.
  for (const [action, resource_type, resource_id] of [
    ['invitation.create', 'organization', org.id],
    ['team.delete', 'team', team.id],
  ])
    await ok(
      call('POST', `${orgPath}/grants`, asOwner, { principal_id: ids.grantee, action, resource_type, resource_id }),
      'grant',
    );
  const ownerKey = await ok(call('POST', '/v1/api-keys', asOwner, { name: 'owner key', organization_id: org.id }), 'key');

  const onOrg = (method: string, p: string, body?: unknown): Case => ({
    resource_type: 'organization',
    resource_id: org.id,
    call: (h) => call(method, p, h, body),
  });
  const invite = () =>
    ok(
      call('POST', '/v1/invitations', asOwner, { organization_id: org.id, email: `${randomUUID()}@example.com`, role: 'viewer' }),
      'inv',
    );

  // A fresh resource for each attempt, so that an allowed delete does not change the next caller's answer.
  const cases: Partial<Record<Action, () => Promise<Case[]>>> = {
    'organization.read': async () => [onOrg('GET', orgPath)],
    'organization.update': async () => [onOrg('PATCH', orgPath, { display_name: 'Agree' })],
    // Fresh names on each call: team and key names are unique within an organization.
    'team.create': async () => [
      {
        resource_type: 'organization',
        resource_id: org.id,
        call: (h) => call('POST', `${orgPath}/teams`, h, { name: `new-${randomUUID()}` }),
      },
    ],
    'team.read': async () => [
      { resource_type: 'team', resource_id: team.id, call: (h) => call('GET', `${orgPath}/teams/${team.id}`, h) },
    ],
    'team.delete': async () => {
      const fresh = await newTeam();
      // The grantee's grant is on `team`: a fresh team tests the role; `team` itself tests the grant.
      return [{ resource_type: 'team', resource_id: fresh.id, call: (h) => call('DELETE', `${orgPath}/teams/${fresh.id}`, h) }];
    },
    'member.read': async () => [onOrg('GET', `${orgPath}/members`)],
    'member.create': async () => [onOrg('POST', `${orgPath}/members`, { principal_id: randomUUID(), role: 'viewer' })],
    'member.update': async () => {
      const m = await addMember(randomUUID(), 'viewer');
      return [onOrg('PATCH', `${orgPath}/members/${m.id}`, { role: 'member' })];
    },
    'member.delete': async () => {
      const m = await addMember(randomUUID(), 'viewer');
      return [onOrg('DELETE', `${orgPath}/members/${m.id}`)];
    },
    // Grants go to members only: a fresh member for each attempt.
    'grant.create': async () => {
      const m = await addMember(randomUUID(), 'viewer');
      return [
        onOrg('POST', `${orgPath}/grants`, {
          principal_id: m.principal_id,
          action: 'organization.read',
          resource_type: 'organization',
          resource_id: org.id,
        }),
      ];
    },
    'grant.read': async () => [onOrg('GET', `${orgPath}/grants`)],
    'grant.delete': async () => {
      const m = await addMember(randomUUID(), 'viewer');
      const g = await ok(
        call('POST', `${orgPath}/grants`, asOwner, {
          principal_id: m.principal_id,
          action: 'organization.read',
          resource_type: 'organization',
          resource_id: org.id,
        }),
        'grant',
      );
      return [onOrg('DELETE', `${orgPath}/grants/${g.id}`)];
    },
    'invitation.create': async () => [
      onOrg('POST', '/v1/invitations', { organization_id: org.id, email: `${randomUUID()}@example.com`, role: 'viewer' }),
    ],
    'invitation.read': async () => {
      const inv = await invite();
      return [
        onOrg('GET', `/v1/invitations?organization_id=${org.id}`),
        { resource_type: 'invitation', resource_id: inv.id, call: (h) => call('GET', `/v1/invitations/${inv.id}`, h) },
      ];
    },
    'invitation.revoke': async () => {
      const inv = await invite();
      return [
        { resource_type: 'invitation', resource_id: inv.id, call: (h) => call('POST', `/v1/invitations/${inv.id}/revoke`, h) },
      ];
    },
    'settings.read': async () => [onOrg('GET', `${orgPath}/settings`)],
    'settings.update': async () => [onOrg('PUT', `${orgPath}/settings`, { logo_url: null })],
    'apikey.create': async () => [
      {
        resource_type: 'organization',
        resource_id: org.id,
        call: (h) => call('POST', '/v1/api-keys', h, { name: `k-${randomUUID()}`, organization_id: org.id }),
      },
    ],
    // Another principal's key (the owner's): members are told it does not exist, by check and route.
    'apikey.read': async () => [
      { resource_type: 'api_key', resource_id: ownerKey.id, call: (h) => call('GET', `/v1/api-keys/${ownerKey.id}`, h) },
    ],
    'apikey.delete': async () => {
      const key = await ok(
        call('POST', '/v1/api-keys', asOwner, { name: `doomed-${randomUUID()}`, organization_id: org.id }),
        'key',
      );
      return [{ resource_type: 'api_key', resource_id: key.id, call: (h) => call('DELETE', `/v1/api-keys/${key.id}`, h) }];
    },
    'apikey.manage': async () => [
      { resource_type: 'api_key', resource_id: ownerKey.id, call: (h) => call('GET', `/v1/api-keys/${ownerKey.id}`, h) },
    ],
    'event.read': async () => [onOrg('GET', `${orgPath}/events`)],
    'portal.create': async () => [onOrg('POST', `${orgPath}/portal-sessions`, {})],
    'audit.read': async () => [onOrg('GET', `${orgPath}/audit-log`)],
    'provider.execute': async () => [
      onOrg('POST', '/v1/providers/execute', { modality: 'text', input: { prompt: 'hi' }, organization_id: org.id }),
    ],
    'provider.usage': async () => [onOrg('GET', `${orgPath}/usage`)],
  };

  t.same(
    Object.keys(cases).sort(),
    actions.filter((a) => !withoutRoute.has(a)).sort(),
    'every catalog action with a route has a case (a new route must join this test)',
  );

  const callers = Object.entries(ids).filter(([name]) => name !== 'owner');
  callers.unshift(['owner', ids.owner]);
  const grantedTeam = { resource_type: 'team', resource_id: team.id };
  for (const [action, makeCases] of Object.entries(cases) as [Action, () => Promise<Case[]>][]) {
    for (const [who, principal] of callers) {
      const list = await makeCases();
      if (action === 'team.delete' && who === 'grantee')
        list.push({ ...grantedTeam, call: (h) => call('DELETE', `${orgPath}/teams/${team.id}`, h) });
      for (const c of list) {
        const headers = asPrincipal(principal);
        const check = await call('POST', '/v1/permissions/check', headers, {
          action,
          resource_type: c.resource_type,
          resource_id: c.resource_id,
        });
        t.equal(check.status, 200);
        const answer = check.body.data as { allowed: boolean; reason: string };
        const res = await c.call(headers);
        const what = `${action} on ${c.resource_type} as ${who}: check ${JSON.stringify(answer)}, route ${res.status}`;
        if (answer.allowed) t.ok(res.status >= 200 && res.status < 300, what);
        else if (answer.reason === 'resource not found') t.equal(res.status, 404, what);
        else t.equal(res.status, 403, what);
      }
    }
  }
});
