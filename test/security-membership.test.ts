import { randomUUID } from 'node:crypto';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Attacks from the adversarial review (issue "Security hardening", items 1, 3 and 7), each performed
// as written and shown refused.

t.test('a removed member keeps no power: grants deleted, keys revoked, and they stay revoked', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const mallory = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'victim');
  const orgPath = `/v1/organizations/${org.id}`;
  const membership = (
    await request(d.url, 'POST', `${orgPath}/members`, { headers: asOwner, body: { principal_id: mallory, role: 'member' } })
  ).body.data;
  for (const action of ['invitation.create', 'member.create']) {
    const grant = await request(d.url, 'POST', `${orgPath}/grants`, {
      headers: asOwner,
      body: { principal_id: mallory, action, resource_type: 'organization', resource_id: org.id },
    });
    t.equal(grant.status, 201, `mallory holds ${action}`);
  }
  const key = (
    await request(d.url, 'POST', '/v1/api-keys', { headers: asPrincipal(mallory), body: { name: 'm', organization_id: org.id } })
  ).body.data;
  t.equal((await request(d.url, 'GET', orgPath, { headers: bearer(key.raw_key) })).status, 200, 'the key works while a member');

  t.equal((await request(d.url, 'DELETE', `${orgPath}/members/${membership.id}`, { headers: asOwner })).status, 200, 'removed');

  const invite = await request(d.url, 'POST', '/v1/invitations', {
    headers: bearer(key.raw_key),
    body: { organization_id: org.id, email: 'mallory@example.com', role: 'admin' },
  });
  t.equal(invite.status, 401, 'the old key cannot create an invitation');
  const readd = await request(d.url, 'POST', `${orgPath}/members`, {
    headers: asPrincipal(mallory),
    body: { principal_id: mallory, role: 'admin' },
  });
  t.equal(readd.status, 404, 'its own credentials cannot re-add it: no grant is left, the organization is invisible');
  const grants = (await request(d.url, 'GET', `${orgPath}/grants`, { headers: asOwner })).body.data as { principal_id: string }[];
  t.same(
    grants.filter((g) => g.principal_id === mallory),
    [],
    'its grants are gone',
  );
  const shown = (await request(d.url, 'GET', `/v1/api-keys/${key.id}`, { headers: asOwner })).body.data;
  t.match(shown, { revoked_reason: 'member removed', revoked_at: String }, 'the key records why it was revoked');

  // Added again later: the old key does not come back to life.
  t.equal(
    (await request(d.url, 'POST', `${orgPath}/members`, { headers: asOwner, body: { principal_id: mallory, role: 'member' } }))
      .status,
    201,
  );
  t.equal((await request(d.url, 'GET', orgPath, { headers: bearer(key.raw_key) })).status, 401, 'the old key stays revoked');
});

t.test('a team deletion that removes the last membership removes the power too', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const teamOnly = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'teamy');
  const orgPath = `/v1/organizations/${org.id}`;
  const team = (await request(d.url, 'POST', `${orgPath}/teams`, { headers: asOwner, body: { name: 'red' } })).body.data;
  await request(d.url, 'POST', `${orgPath}/members`, {
    headers: asOwner,
    body: { principal_id: teamOnly, role: 'admin', team_id: team.id },
  });
  const grant = await request(d.url, 'POST', `${orgPath}/grants`, {
    headers: asOwner,
    body: { principal_id: teamOnly, action: 'member.read', resource_type: 'organization', resource_id: org.id },
  });
  t.equal(grant.status, 201);
  t.equal((await request(d.url, 'GET', `${orgPath}/members`, { headers: asPrincipal(teamOnly) })).status, 200, 'granted');
  t.equal((await request(d.url, 'DELETE', `${orgPath}/teams/${team.id}`, { headers: asOwner })).status, 200);
  t.equal((await request(d.url, 'GET', `${orgPath}/members`, { headers: asPrincipal(teamOnly) })).status, 404, 'nothing left');
});

t.test('a grant delegates one action, never a role', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const viewer = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'delegation');
  const orgPath = `/v1/organizations/${org.id}`;
  const mine = (
    await request(d.url, 'POST', `${orgPath}/members`, { headers: asOwner, body: { principal_id: viewer, role: 'viewer' } })
  ).body.data;
  const admin = (
    await request(d.url, 'POST', `${orgPath}/members`, { headers: asOwner, body: { principal_id: randomUUID(), role: 'admin' } })
  ).body.data;
  for (const action of ['member.update', 'invitation.create', 'member.create']) {
    const grant = await request(d.url, 'POST', `${orgPath}/grants`, {
      headers: asOwner,
      body: { principal_id: viewer, action, resource_type: 'organization', resource_id: org.id },
    });
    t.equal(grant.status, 201, `the viewer holds ${action}`);
  }
  const asViewer = asPrincipal(viewer);

  const self = await request(d.url, 'PATCH', `${orgPath}/members/${mine.id}`, { headers: asViewer, body: { role: 'admin' } });
  t.equal(self.status, 403, 'a viewer with member.update cannot make itself admin');
  t.equal(self.body.error.code, 'forbidden');
  const demote = await request(d.url, 'PATCH', `${orgPath}/members/${admin.id}`, { headers: asViewer, body: { role: 'viewer' } });
  t.equal(demote.status, 403, 'nor change a member above its own role');
  const invite = await request(d.url, 'POST', '/v1/invitations', {
    headers: asViewer,
    body: { organization_id: org.id, email: 'accomplice@example.com', role: 'admin' },
  });
  t.equal(invite.status, 403, 'a viewer with invitation.create cannot invite an admin');
  const add = await request(d.url, 'POST', `${orgPath}/members`, {
    headers: asViewer,
    body: { principal_id: randomUUID(), role: 'member' },
  });
  t.equal(add.status, 403, 'a viewer with member.create cannot add a member');

  t.equal(
    (
      await request(d.url, 'POST', '/v1/invitations', {
        headers: asViewer,
        body: { organization_id: org.id, email: 'peer@example.com', role: 'viewer' },
      })
    ).status,
    201,
    'the delegated action still works up to its own role',
  );
  t.equal(
    (
      await request(d.url, 'POST', `${orgPath}/members`, {
        headers: asViewer,
        body: { principal_id: randomUUID(), role: 'viewer' },
      })
    ).status,
    201,
  );
});

t.test('nobody is made owner without consent', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const target = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'consent');
  // The target exists: it owns an organization of its own.
  await createOrganizationAs(d.url, asPrincipal(target), 'target-home');
  const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: asOwner,
    body: { principal_id: target, role: 'owner' },
  });
  t.equal(res.status, 403, 'an owner cannot add an existing principal as owner over /v1');
  t.match(res.body.error.message, /invit/, 'the answer says to invite instead');
  const byEmail = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: asOwner,
    body: { email: 'someone@example.com', role: 'owner' },
  });
  t.equal(byEmail.status, 403, 'nor by email');

  const added = await d.services.memberships.addMember(operator, org.id, { principal_id: target, role: 'owner' });
  t.equal(added.role, 'owner', 'the operator (admin API) still can');
});
