import { randomUUID } from 'node:crypto';
import t from 'tap';
import { asPrincipal, codeOf, createOrganizationAs, request, startTestDaemon } from './helpers.js';
import { operator } from '../src/domain/identity/caller.js';
import { createIdentityStore } from '../src/domain/identity/store.js';

t.test('organizations, members, teams and grants', async (t) => {
  const d = await startTestDaemon(t);
  const call = (who: string, method: string, path: string, body?: unknown) =>
    request(d.url, method, path, { headers: asPrincipal(who), body });

  /** An organization with an owner and, for each role given, a fresh principal holding it. */
  async function organization(slug: string, roles: string[] = []) {
    const owner = randomUUID();
    const org = await createOrganizationAs(d.url, asPrincipal(owner), slug);
    const members: Record<string, { principal: string; membership: string }> = {};
    for (const role of roles) {
      const principal = randomUUID();
      const res = await call(owner, 'POST', `/v1/organizations/${org.id}/members`, { principal_id: principal, role });
      if (res.status !== 201) throw new Error(`adding ${role}: ${res.status}`);
      members[role] = { principal, membership: res.body.data.id };
    }
    const ownerMembership = (await call(owner, 'GET', `/v1/organizations/${org.id}/members`)).body.data.find(
      (m: { role: string }) => m.role === 'owner',
    ).id as string;
    return { org, owner, ownerMembership, members, path: `/v1/organizations/${org.id}` };
  }

  t.test('slugs are unique, case-insensitively, even under concurrent creation', async (t) => {
    const first = await call(randomUUID(), 'POST', '/v1/organizations', { slug: 'acme' });
    t.equal(first.status, 201);
    t.match(first.body.data, { slug: 'acme', display_name: 'acme' });
    for (const slug of ['acme', 'ACME', ' Acme ']) {
      const res = await call(randomUUID(), 'POST', '/v1/organizations', { slug });
      t.equal(res.status, 409, JSON.stringify(slug));
      t.equal(res.body.error.code, 'conflict');
    }
    t.equal((await call(randomUUID(), 'POST', '/v1/organizations', { slug: '-acme' })).status, 422, 'slug format');

    const racers = Array.from({ length: 6 }, () => randomUUID());
    const results = await Promise.all(racers.map((p) => call(p, 'POST', '/v1/organizations', { slug: 'race' })));
    t.same(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
    const winner = racers[results.findIndex((r) => r.status === 201)];
    for (const p of racers) {
      const mine = (await call(p, 'GET', '/v1/organizations')).body.data;
      t.equal(mine.length, p === winner ? 1 : 0, 'only the winner owns an organization');
    }
  });

  t.test('creation writes organization.created with the organization', async (t) => {
    const owner = randomUUID();
    const created = await call(owner, 'POST', '/v1/organizations', { slug: 'evented', display_name: 'Evented Inc.' });
    t.equal(created.status, 201);
    const org = created.body.data;
    // Read straight after the 201, no waiting: the event was in the organization's own batch.
    const events = await call(owner, 'GET', `/v1/organizations/${org.id}/events`);
    t.equal(events.status, 200);
    t.same(
      events.body.data.map((e: { kind: string }) => e.kind),
      ['organization.created', 'member.added'],
      'the founding owner joins as a member does',
    );
    const [event, joined] = events.body.data;
    t.match(event, { kind: 'organization.created', organization_id: org.id, id: /^evt_[0-9A-Z]{26}$/ });
    t.same(event.payload, { organization_id: org.id, slug: 'evented', display_name: 'Evented Inc.', owner_principal_id: owner });
    t.ok(Date.parse(event.timestamp) >= Date.parse(org.created_at));

    const byKind = await call(owner, 'GET', `/v1/organizations/${org.id}/events?kind=organization.created`);
    t.same(
      byKind.body.data.map((e: { id: string }) => e.id),
      [event.id],
    );
    t.same(
      (await call(owner, 'GET', `/v1/organizations/${org.id}/events?after=${event.id}`)).body.data,
      [joined],
      'its member.added after it',
    );
  });

  t.test('reading the event log needs admin', async (t) => {
    const o = await organization('log-readers', ['admin', 'member']);
    t.equal((await call(o.members.admin.principal, 'GET', `${o.path}/events`)).status, 200);
    const member = await call(o.members.member.principal, 'GET', `${o.path}/events`);
    t.equal(member.status, 403);
    t.equal(member.body.error.code, 'forbidden');
  });

  t.test('renaming needs admin', async (t) => {
    const o = await organization('renamed', ['admin', 'member']);
    t.equal((await call(o.members.member.principal, 'PATCH', o.path, { display_name: 'Nope' })).status, 403);
    const res = await call(o.members.admin.principal, 'PATCH', o.path, { display_name: 'Renamed Ltd' });
    t.equal(res.status, 200);
    t.equal((await call(o.owner, 'GET', o.path)).body.data.display_name, 'Renamed Ltd');
  });

  t.test('a new slug is unique too; renaming needs admin', async (t) => {
    const o = await organization('slugged', ['admin', 'member']);
    await organization('taken');
    t.equal((await call(o.members.member.principal, 'PATCH', o.path, { slug: 'other' })).status, 403);
    const clash = await call(o.members.admin.principal, 'PATCH', o.path, { slug: ' TAKEN ' });
    t.equal(clash.status, 409, 'a slug another organization has');
    t.match(clash.body.error, { code: 'conflict', details: { field: 'slug' } });
    t.equal((await call(o.owner, 'PATCH', o.path, { slug: 'Not A Slug' })).status, 422);
    const res = await call(o.members.admin.principal, 'PATCH', o.path, { slug: 'slugged-2' });
    t.equal(res.status, 200);
    t.match(res.body.data, { id: o.org.id, slug: 'slugged-2', display_name: 'slugged' });
    const reuse = await call(randomUUID(), 'POST', '/v1/organizations', { slug: 'slugged' });
    t.equal(reuse.status, 201, 'the old slug is free again');
  });

  t.test('team names are unique in an organization; renaming a team (PATCH)', async (t) => {
    const o = await organization('teams-unique', ['admin', 'member']);
    const other = await organization('teams-other');
    const create = (who: string, name: string, path = o.path) => call(who, 'POST', `${path}/teams`, { name });
    const results = await Promise.all(Array.from({ length: 5 }, () => create(o.owner, 'platform')));
    t.same(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409], 'five concurrent creates of one name: one wins');
    t.match(results.find((r) => r.status === 409)!.body.error, {
      code: 'conflict',
      message: 'a team named platform already exists in this organization',
      details: { field: 'name' },
    });
    t.equal((await create(o.owner, ' PLATFORM ')).status, 409, 'case-insensitively, trimmed');
    t.equal((await create(other.owner, 'platform', other.path)).status, 201, 'another organization may use the name');
    const ops = (await create(o.owner, 'ops')).body.data;
    const teamPath = `${o.path}/teams/${ops.id}`;
    t.equal((await call(o.members.member.principal, 'PATCH', teamPath, { name: 'x' })).status, 403, 'team.update needs admin');
    t.equal((await call(o.members.admin.principal, 'PATCH', teamPath, { name: 'Platform' })).status, 409);
    t.equal((await call(o.owner, 'PATCH', teamPath, { name: '' })).status, 422);
    const renamed = await call(o.members.admin.principal, 'PATCH', teamPath, { name: 'operations' });
    t.equal(renamed.status, 200);
    t.same(renamed.body.data, { ...ops, name: 'operations' });
    t.equal((await call(o.owner, 'GET', teamPath)).body.data.name, 'operations');
    t.equal((await call(o.owner, 'PATCH', `${other.path}/teams/${ops.id}`, { name: 'y' })).status, 404, 'through another org');

    // Members of a deleted team: not found, not an empty list.
    t.equal((await call(o.owner, 'DELETE', teamPath)).status, 200);
    t.equal((await call(o.owner, 'GET', `${o.path}/members?team_id=${ops.id}`)).status, 404);
  });

  t.test('only owners grant, change or remove the owner role; the last owner stays', async (t) => {
    const o = await organization('owned', ['admin', 'member']);
    const admin = o.members.admin.principal;
    const member = o.members.member;
    const refusals: [string, string, string, unknown][] = [
      ['admin adds an owner', 'POST', `${o.path}/members`, { principal_id: randomUUID(), role: 'owner' }],
      ['admin promotes a member to owner', 'PATCH', `${o.path}/members/${member.membership}`, { role: 'owner' }],
      ['admin promotes itself to owner', 'PATCH', `${o.path}/members/${o.members.admin.membership}`, { role: 'owner' }],
      ['admin demotes the owner', 'PATCH', `${o.path}/members/${o.ownerMembership}`, { role: 'admin' }],
      ['admin removes the owner', 'DELETE', `${o.path}/members/${o.ownerMembership}`, undefined],
    ];
    for (const [what, method, path, body] of refusals) {
      const res = await call(admin, method, path, body);
      t.equal(res.status, 403, what);
      t.equal(res.body.error.code, 'forbidden', what);
    }
    t.equal(
      (await call(admin, 'PATCH', `${o.path}/members/${member.membership}`, { role: 'admin' })).status,
      200,
      'admins manage non-owners',
    );
    t.equal(
      (await call(o.members.member.principal, 'PATCH', `${o.path}/members/${o.members.admin.membership}`, { role: 'viewer' }))
        .status,
      200,
      'the promoted member acts as admin',
    );

    for (const [what, method, body] of [
      ['the last owner demotes itself', 'PATCH', { role: 'admin' }],
      ['the last owner removes itself', 'DELETE', undefined],
    ] as const) {
      const res = await call(o.owner, method, `${o.path}/members/${o.ownerMembership}`, body);
      t.equal(res.status, 409, what);
      t.equal(res.body.error.code, 'invalid_state', what);
    }

    const second = randomUUID();
    const direct = await call(o.owner, 'POST', `${o.path}/members`, { principal_id: second, role: 'owner' });
    t.equal(direct.status, 403, 'nobody is made owner without consent: not even an owner adds one over /v1');
    t.match(direct.body.error.message, /invit/);
    const joined = await call(o.owner, 'POST', `${o.path}/members`, { principal_id: second, role: 'admin' });
    t.equal(joined.status, 201);
    const added = await call(o.owner, 'PATCH', `${o.path}/members/${joined.body.data.id}`, { role: 'owner' });
    t.equal(added.status, 200, 'an owner promotes a member to owner');
    t.equal(
      (await call(o.owner, 'PATCH', `${o.path}/members/${o.ownerMembership}`, { role: 'admin' })).status,
      200,
      'with another owner, the first may step down',
    );
    t.equal(
      (await call(o.owner, 'DELETE', `${o.path}/members/${added.body.data.id}`)).status,
      403,
      'now an admin, it cannot remove the owner',
    );
    t.equal(
      (await call(second, 'DELETE', `${o.path}/members/${added.body.data.id}`)).body.error.code,
      'invalid_state',
      'the new last owner stays',
    );

    const roles = (await call(second, 'GET', `${o.path}/members`)).body.data.map((m: { principal_id: string; role: string }) => [
      m.principal_id,
      m.role,
    ]);
    t.same(
      new Map(roles),
      new Map([
        [o.owner, 'admin'],
        [admin, 'viewer'],
        [member.principal, 'admin'],
        [second, 'owner'],
      ]),
    );
  });

  t.test('a team-level membership gives its role on that team only', async (t) => {
    const o = await organization('teams');
    const red = (await call(o.owner, 'POST', `${o.path}/teams`, { name: 'red' })).body.data;
    const blue = (await call(o.owner, 'POST', `${o.path}/teams`, { name: 'blue' })).body.data;
    const lead = randomUUID();
    const membership = await call(o.owner, 'POST', `${o.path}/members`, { principal_id: lead, role: 'admin', team_id: red.id });
    t.equal(membership.status, 201);
    t.equal(membership.body.data.team_id, red.id);
    t.equal(
      (await call(o.owner, 'POST', `${o.path}/members`, { principal_id: lead, role: 'member', team_id: red.id })).status,
      409,
      'one membership per team',
    );

    t.equal((await call(lead, 'GET', o.path)).status, 200, 'the organization is visible');
    t.equal((await call(lead, 'GET', `${o.path}/teams/${blue.id}`)).status, 200, 'other teams are visible');
    const refusals: [string, string, string, unknown][] = [
      ['create a team', 'POST', `${o.path}/teams`, { name: 'green' }],
      ['delete another team', 'DELETE', `${o.path}/teams/${blue.id}`, undefined],
      ['rename the organization', 'PATCH', o.path, { display_name: 'x' }],
      ['add a member', 'POST', `${o.path}/members`, { principal_id: randomUUID(), role: 'viewer', team_id: red.id }],
      ['read grants', 'GET', `${o.path}/grants`, undefined],
    ];
    for (const [what, method, path, body] of refusals) t.equal((await call(lead, method, path, body)).status, 403, what);

    t.equal((await call(lead, 'DELETE', `${o.path}/teams/${red.id}`)).status, 200, 'its own team: admin');
    t.equal((await call(lead, 'GET', o.path)).status, 404, 'the team and its memberships are gone, so is the view');
    t.same(
      (await call(o.owner, 'GET', `${o.path}/teams`)).body.data.map((x: { name: string }) => x.name),
      ['blue'],
    );
  });

  t.test('adding a member by email creates (or reuses) its principal', async (t) => {
    const o1 = await organization('mail-one');
    const o2 = await organization('mail-two');
    const added = await call(o1.owner, 'POST', `${o1.path}/members`, { email: ' New.Person@Example.COM ', role: 'member' });
    t.equal(added.status, 201);
    const principal = added.body.data.principal_id;
    t.match(principal, /^[0-9a-f-]{36}$/);
    t.equal((await call(principal, 'GET', o1.path)).status, 200, 'the new principal is a member');
    const again = await call(o2.owner, 'POST', `${o2.path}/members`, { email: 'new.person@example.com', role: 'viewer' });
    t.equal(again.body.data.principal_id, principal, 'the same email is the same principal');
    t.equal(
      (await call(o1.owner, 'POST', `${o1.path}/members`, { email: 'NEW.PERSON@example.com', role: 'admin' })).status,
      409,
      'already a member',
    );
    t.equal((await call(o1.owner, 'POST', `${o1.path}/members`, { role: 'member' })).status, 422, 'neither id nor email');

    // A new address added to both organizations at once still becomes one principal.
    const [r1, r2] = await Promise.all([
      call(o1.owner, 'POST', `${o1.path}/members`, { email: 'twice@example.com', role: 'member' }),
      call(o2.owner, 'POST', `${o2.path}/members`, { email: 'Twice@Example.com', role: 'member' }),
    ]);
    t.same([r1.status, r2.status], [201, 201]);
    t.equal(r1.body.data.principal_id, r2.body.data.principal_id, 'one principal for one email');
    t.equal((await call(r1.body.data.principal_id, 'GET', '/v1/organizations')).body.data.length, 2, 'member of both');
    t.equal(
      (await call(o1.owner, 'POST', `${o1.path}/members`, { principal_id: randomUUID(), email: 'a@b.example', role: 'member' }))
        .status,
      422,
      'both',
    );
  });

  t.test('a grant lets a member do one action on one resource', async (t) => {
    const o = await organization('granted', ['admin', 'member']);
    const member = o.members.member.principal;
    const t3 = (await call(o.owner, 'POST', `${o.path}/teams`, { name: 't3' })).body.data;
    const t4 = (await call(o.owner, 'POST', `${o.path}/teams`, { name: 't4' })).body.data;
    const check = async (action: string, resource_type: string, resource_id: string) =>
      (await call(member, 'POST', '/v1/permissions/check', { action, resource_type, resource_id })).body.data;

    t.equal((await call(member, 'DELETE', `${o.path}/teams/${t3.id}`)).status, 403, 'not without the grant');
    t.equal(
      (
        await call(member, 'POST', `${o.path}/grants`, {
          principal_id: member,
          action: 'team.delete',
          resource_type: 'team',
          resource_id: t3.id,
        })
      ).status,
      403,
      'a member cannot grant',
    );
    const grant = await call(o.members.admin.principal, 'POST', `${o.path}/grants`, {
      principal_id: member,
      action: 'team.delete',
      resource_type: 'team',
      resource_id: t3.id,
    });
    t.equal(grant.status, 201);
    t.match(grant.body.data, {
      principal_id: member,
      action: 'team.delete',
      resource_type: 'team',
      resource_id: t3.id,
      created_by: o.members.admin.principal,
    });

    t.same(await check('team.delete', 'team', t3.id), { allowed: true, role: 'member', reason: 'grant' });
    t.same(await check('team.delete', 'team', t4.id), { allowed: false, role: 'member', reason: 'requires admin' });
    t.equal((await call(member, 'DELETE', `${o.path}/teams/${t4.id}`)).status, 403, 'another team');
    t.equal((await call(member, 'POST', `${o.path}/teams`, { name: 't5' })).status, 403, 'another action');
    t.equal((await call(member, 'DELETE', `${o.path}/teams/${t3.id}`)).status, 200, 'the granted action');
    t.same((await call(o.owner, 'GET', `${o.path}/grants`)).body.data, [], 'the grant went with its team');

    const invite = await call(o.owner, 'POST', `${o.path}/grants`, {
      principal_id: member,
      action: 'invitation.create',
      resource_type: 'organization',
      resource_id: o.org.id,
    });
    t.equal(invite.status, 201);
    t.equal((await check('invitation.create', 'organization', o.org.id)).reason, 'grant');
    t.equal((await call(o.owner, 'DELETE', `${o.path}/grants/${invite.body.data.id}`)).status, 200);
    t.same(
      await check('invitation.create', 'organization', o.org.id),
      { allowed: false, role: 'member', reason: 'requires admin' },
      'removed grant, removed right',
    );
  });

  t.test('no one grants what they do not hold', async (t) => {
    const o = await organization('no-escalation', ['admin', 'member']);
    const admin = o.members.admin.principal;
    const settingsGrant = {
      principal_id: admin,
      action: 'settings.update',
      resource_type: 'organization',
      resource_id: o.org.id,
    };
    const refused = await call(admin, 'POST', `${o.path}/grants`, settingsGrant);
    t.equal(refused.status, 403, 'an admin cannot grant itself an owner-only action');
    t.equal(refused.body.error.code, 'forbidden');
    t.equal(
      (await call(admin, 'POST', `${o.path}/grants`, { ...settingsGrant, principal_id: o.members.member.principal })).status,
      403,
      'nor give it to anyone',
    );
    t.equal((await call(o.owner, 'POST', `${o.path}/grants`, settingsGrant)).status, 201, 'an owner may delegate it');
    const checked = await call(admin, 'POST', '/v1/permissions/check', {
      action: 'settings.update',
      resource_type: 'organization',
      resource_id: o.org.id,
    });
    t.same(checked.body.data, { allowed: true, role: 'admin', reason: 'grant' });

    const other = await organization('elsewhere');
    const foreign = await call(o.owner, 'POST', `${o.path}/grants`, {
      principal_id: admin,
      action: 'organization.read',
      resource_type: 'organization',
      resource_id: other.org.id,
    });
    t.equal(foreign.status, 422, 'a resource of another organization');
    t.equal(
      (await call(o.owner, 'POST', `${o.path}/grants`, { ...settingsGrant, resource_type: 'spaceship' })).status,
      400,
      'an unknown resource type',
    );
  });
});

t.test('an owner created by email in the same batch as its organization keeps the email', async (t) => {
  const d = await startTestDaemon(t);
  const { owner } = await d.services.organizations.createOrganization(operator, {
    slug: 'by-email',
    owner_email: '  Founder@Example.COM ',
  });
  const principal = await d.services.principals.findPrincipalByEmail('founder@example.com');
  t.ok(principal, 'the principal is found by its normalised email');
  t.equal(principal?.id, owner.principal_id, 'and it is the owner');
  t.equal(principal?.email, 'founder@example.com');
});

t.test('data from before the name rule (two teams of one name) still loads; the name is ambiguous', async (t) => {
  const d = await startTestDaemon(t);
  const { organization: org } = await d.services.organizations.createOrganization(operator, { slug: 'legacy' });
  const store = createIdentityStore(d.storage);
  const at = new Date().toISOString();
  const twins = [randomUUID(), randomUUID()];
  // Written as an older daemon would have, past the services' check.
  await d.storage.transaction({}, async (tx) => {
    for (const id of twins) await tx.put(store.teams, { id, organization_id: org.id, name: 'core', created_at: at });
  });
  const listed = await d.services.teams.listTeams(operator, org.id);
  t.same(
    listed.items.map((team) => team.name),
    ['core', 'core'],
  );
  for (const id of twins) t.equal((await d.services.teams.findTeam(operator, org.id, id)).id, id, 'each by its id');
  const ambiguous = await d.services.teams.findTeam(operator, org.id, 'core').catch((err: unknown) => err);
  t.match(ambiguous, { code: 'invalid_request', message: /2 teams are named core/, details: { team_ids: twins.sort() } });
  t.equal(await codeOf(d.services.teams.createTeam(operator, org.id, { name: 'core' })), 'conflict', 'no third one');
  const renamed = await d.services.teams.updateTeam(operator, org.id, twins[0], { name: 'core-2' });
  t.equal(renamed.name, 'core-2', 'one of them can be renamed out of the clash');
  t.equal((await d.services.teams.findTeam(operator, org.id, 'core')).id, twins[1], 'then the name is one team again');
});
