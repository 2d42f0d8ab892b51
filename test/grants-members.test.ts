import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { AdminClient, CliError } from '../src/cli/client.js';
import { operator } from '../src/domain/identity/caller.js';
import { createIdentityStore } from '../src/domain/identity/store.js';
import type { GrantServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/GrantService.js';
import type { Daemon } from '../src/main.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Issue 33, item 6 (Low): a stranger's organization could put ACL grants on a principal that was not
// its member, who could then read that organization. Grants now go to members only, count for members
// only, and end with the last membership (docs/permissions.md, "Grants go to members").

const NOT_A_MEMBER = 'not a member of this organization';

/** An organization owned by a fresh principal, with helpers acting as its owner. */
async function ownedOrganization(d: Daemon, slug: string) {
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), slug);
  const path = `/v1/organizations/${org.id}`;
  const asOwner = asPrincipal(owner);
  return {
    org,
    owner,
    path,
    addMember: async (principal_id: string, role: string, team_id?: string) => {
      const res = await request(d.url, 'POST', `${path}/members`, {
        headers: asOwner,
        body: { principal_id, role, ...(team_id === undefined ? {} : { team_id }) },
      });
      if (res.status !== 201) throw new Error(`adding a member: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data as { id: string; principal_id: string };
    },
    grant: (principal_id: string, action: string, resource_type = 'organization', resource_id: string = org.id) =>
      request(d.url, 'POST', `${path}/grants`, { headers: asOwner, body: { principal_id, action, resource_type, resource_id } }),
    grantsOf: async (principal: string) =>
      ((await request(d.url, 'GET', `${path}/grants`, { headers: asOwner })).body.data as { principal_id: string }[]).filter(
        (g) => g.principal_id === principal,
      ),
  };
}

/** What `principal` is told about the organization: the read route, a permission check and its own list. */
async function viewOf(d: Daemon, principal: string, orgId: string) {
  const headers = asPrincipal(principal);
  const read = await request(d.url, 'GET', `/v1/organizations/${orgId}`, { headers });
  const check = await request(d.url, 'POST', '/v1/permissions/check', {
    headers,
    body: { action: 'organization.read', resource_type: 'organization', resource_id: orgId },
  });
  const listed = (await request(d.url, 'GET', '/v1/organizations', { headers })).body.data as { id: string }[];
  return { read: read.status, check: check.body.data as unknown, listed: listed.some((o) => o.id === orgId) };
}

const invisible = {
  read: 404,
  check: { allowed: false, role: null, reason: 'resource not found' },
  listed: false,
};

t.test("a stranger's organization cannot grant to a principal that is not its member", async (t) => {
  const d = await startTestDaemon(t);
  const stranger = await ownedOrganization(d, 'stranger');
  // The victim belongs to an organization of its own, so its principal exists.
  const victim = randomUUID();
  await createOrganizationAs(d.url, asPrincipal(victim), 'victim-home');

  for (const action of ['organization.read', 'apikey.create', 'member.read']) {
    const res = await stranger.grant(victim, action);
    t.equal(res.status, 422, `${action} to a non-member: 422`);
    t.match(res.body.error, {
      code: 'validation_failed',
      message: /member of this organization/,
      details: { fields: { principal_id: NOT_A_MEMBER } },
    });
  }
  t.same(await stranger.grantsOf(victim), [], 'nothing was stored');
  t.same(await viewOf(d, victim, stranger.org.id), invisible, 'the victim is not shown the organization');
  const key = await request(d.url, 'POST', '/v1/api-keys', {
    headers: asPrincipal(victim),
    body: { name: 'lured', organization_id: stranger.org.id },
  });
  t.equal(key.status, 404, 'nor can it make an API key there');

  // Whether the id names a principal at all is not disclosed: an unknown id is answered alike.
  const unknown = await stranger.grant(randomUUID(), 'organization.read');
  t.equal(unknown.status, 422);
  t.same(unknown.body.error, (await stranger.grant(victim, 'organization.read')).body.error, 'the same answer, word for word');

  // Every failing field at once: a resource elsewhere and a non-member.
  const both = await stranger.grant(victim, 'team.read', 'team', randomUUID());
  t.equal(both.status, 422);
  t.same(both.body.error.details.fields, { resource_id: 'not found in this organization', principal_id: NOT_A_MEMBER });
});

t.test('members of the organization, or of one of its teams, may hold grants', async (t) => {
  const d = await startTestDaemon(t);
  const o = await ownedOrganization(d, 'granting');
  const team = (await request(d.url, 'POST', `${o.path}/teams`, { headers: asPrincipal(o.owner), body: { name: 'core' } })).body
    .data as { id: string };
  const viewer = randomUUID();
  const teamOnly = randomUUID();
  await o.addMember(viewer, 'viewer');
  await o.addMember(teamOnly, 'viewer', team.id);

  t.equal((await o.grant(viewer, 'member.create')).status, 201, 'an organization-level member');
  const onTeam = await o.grant(teamOnly, 'team.update', 'team', team.id);
  t.equal(onTeam.status, 201, "a member of one of the organization's teams");
  const check = await request(d.url, 'POST', '/v1/permissions/check', {
    headers: asPrincipal(teamOnly),
    body: { action: 'team.update', resource_type: 'team', resource_id: team.id },
  });
  t.same(check.body.data, { allowed: true, role: 'viewer', reason: 'grant' }, 'and the grant decides');

  // A member of another organization only is a non-member here.
  const elsewhere = await ownedOrganization(d, 'elsewhere');
  const refused = await elsewhere.grant(viewer, 'organization.read');
  t.equal(refused.status, 422);
  t.same(refused.body.error.details.fields, { principal_id: NOT_A_MEMBER });
});

t.test('removing a member ends what its grants gave, and re-adding does not bring them back', async (t) => {
  const d = await startTestDaemon(t);
  const o = await ownedOrganization(d, 'leaving');
  const team = (await request(d.url, 'POST', `${o.path}/teams`, { headers: asPrincipal(o.owner), body: { name: 'core' } })).body
    .data as { id: string };
  const leaver = randomUUID();
  const whole = await o.addMember(leaver, 'viewer');
  const onTeam = await o.addMember(leaver, 'viewer', team.id);
  t.equal((await o.grant(leaver, 'member.create')).status, 201);
  const asLeaver = asPrincipal(leaver);
  const canAdd = async () =>
    (
      await request(d.url, 'POST', '/v1/permissions/check', {
        headers: asLeaver,
        body: { action: 'member.create', resource_type: 'organization', resource_id: o.org.id },
      })
    ).body.data as unknown;
  t.same(await canAdd(), { allowed: true, role: 'viewer', reason: 'grant' }, 'granted while a member');

  // One membership left (on the team): still a member, the grant stays.
  t.equal((await request(d.url, 'DELETE', `${o.path}/members/${whole.id}`, { headers: asPrincipal(o.owner) })).status, 200);
  t.equal((await o.grantsOf(leaver)).length, 1, 'a team membership keeps the grant');
  t.same(await canAdd(), { allowed: true, role: 'viewer', reason: 'grant' });

  // The last one: the grant goes in the same transaction, and with it every effect.
  t.equal((await request(d.url, 'DELETE', `${o.path}/members/${onTeam.id}`, { headers: asPrincipal(o.owner) })).status, 200);
  t.same(await o.grantsOf(leaver), [], 'the grant is deleted with the last membership');
  t.same(await canAdd(), { allowed: false, role: null, reason: 'resource not found' });
  const add = await request(d.url, 'POST', `${o.path}/members`, {
    headers: asLeaver,
    body: { principal_id: randomUUID(), role: 'viewer' },
  });
  t.equal(add.status, 404, 'the route refuses as the check does');
  t.same(await viewOf(d, leaver, o.org.id), invisible);

  await o.addMember(leaver, 'viewer');
  t.same(await canAdd(), { allowed: false, role: 'viewer', reason: 'requires admin' }, 'back as a viewer, without the grant');
});

t.test('a grant created while its principal is removed never outlives the membership', async (t) => {
  const d = await startTestDaemon(t);
  const o = await ownedOrganization(d, 'racing');
  for (let round = 0; round < 10; round++) {
    const principal = randomUUID();
    const m = await o.addMember(principal, 'viewer');
    const [granted, removed] = await Promise.all([
      o.grant(principal, 'member.read'),
      request(d.url, 'DELETE', `${o.path}/members/${m.id}`, { headers: asPrincipal(o.owner) }),
    ]);
    t.equal(removed.status, 200, `round ${round}: removed`);
    t.ok([201, 422].includes(granted.status), `round ${round}: the grant is made before or refused after (${granted.status})`);
    t.same(await o.grantsOf(principal), [], `round ${round}: no grant is left on the non-member`);
  }
});

t.test('grants stored before the rule open nothing to a non-member', async (t) => {
  const d = await startTestDaemon(t);
  const o = await ownedOrganization(d, 'legacy-grants');
  const outsider = randomUUID();
  const store = createIdentityStore(d.storage);
  // Written as an older daemon let a stranger's organization write them, past the services' check.
  await d.storage.transaction({}, async (tx) => {
    for (const action of ['organization.read', 'member.read', 'apikey.create'])
      await tx.put(store.grants, {
        id: randomUUID(),
        organization_id: o.org.id,
        principal_id: outsider,
        action,
        resource_type: 'organization',
        resource_id: o.org.id,
        created_by: o.owner,
        created_at: new Date().toISOString(),
      });
  });
  t.equal((await o.grantsOf(outsider)).length, 3, 'the old grants are there');
  t.same(await viewOf(d, outsider, o.org.id), invisible, 'and count for nothing');
  const headers = asPrincipal(outsider);
  t.equal((await request(d.url, 'GET', `${o.path}/members`, { headers })).status, 404, 'member.read refused');
  const key = await request(d.url, 'POST', '/v1/api-keys', { headers, body: { name: 'old', organization_id: o.org.id } });
  t.equal(key.status, 404, 'apikey.create refused');

  await o.addMember(outsider, 'viewer');
  t.same(
    (
      await request(d.url, 'POST', '/v1/permissions/check', {
        headers,
        body: { action: 'apikey.create', resource_type: 'organization', resource_id: o.org.id },
      })
    ).body.data,
    { allowed: true, role: 'viewer', reason: 'grant' },
    'once a member, its grants count like any member grant',
  );
});

function adminClient(t: Test, d: Daemon): AdminClient {
  const client = new AdminClient({ kind: 'unix', socketPath: d.grpc.socketPath });
  t.teardown(() => client.close());
  return client;
}

t.test('the operator over gRPC is held to the same rule', async (t) => {
  const d = await startTestDaemon(t);
  const grants = adminClient(t, d).service<GrantServiceDefinition>('GrantService');
  const o = await ownedOrganization(d, 'over-grpc');
  // A registered principal, member of no organization.
  const principal = await d.services.principals.ensurePrincipalByEmail('outsider@example.com');
  const create = (principal_id: string) =>
    grants.CreateGrant({
      organization: 'over-grpc',
      principal_id,
      action: 'member.read',
      resource_type: 'organization',
      resource_id: o.org.id,
    });
  for (const ref of [principal.id, 'outsider@example.com']) {
    const err = await create(ref).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof CliError, `${ref}: refused`);
    t.match(err, { code: 'validation_failed', details: { fields: { principal_id: NOT_A_MEMBER } } }, `${ref}: names the field`);
  }
  t.same((await d.services.grants.listGrants(operator, o.org.id)).items, [], 'nothing stored');

  await o.addMember(principal.id, 'viewer');
  t.match(await create('outsider@example.com'), { principal_id: principal.id, action: 'member.read' }, 'a member: granted');
});
