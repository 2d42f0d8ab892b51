import { randomUUID } from 'node:crypto';
import path from 'node:path';
import t, { type Test } from 'tap';
import { operator, type Caller } from '../src/domain/identity/caller.js';
import { actions, PermissionEngine, type Action } from '../src/domain/identity/permissions.js';
import { createIdentityStore } from '../src/domain/identity/store.js';
import type { Grant } from '../src/domain/identity/types.js';
import { createLogger } from '../src/log.js';
import { newId, nowIso } from '../src/storage/keys.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { migrate, migrations } from '../src/storage/leveldb/migrate.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Security issue, item 2: grants cannot be used to slow others down. One principal holds at most
// SERVICE_MAX_GRANTS_PER_PRINCIPAL grants per organization, and a permission check reads only the
// grants on the resource it asks about and on that resource's organization.

const silent = createLogger('silent');

/** `count` distinct (resource, action) pairs over the organization and its teams. */
function grantTargets(organizationId: string, teamIds: string[], count: number): { type: string; id: string; action: Action }[] {
  const resources = [{ type: 'organization', id: organizationId }, ...teamIds.map((id) => ({ type: 'team', id }))];
  const targets = resources.flatMap((r) => actions.map((action) => ({ ...r, action })));
  if (targets.length < count) throw new TypeError(`only ${targets.length} distinct grants available`);
  return targets.slice(0, count);
}

function grantRecord(organizationId: string, principalId: string, type: string, id: string, action: string): Grant {
  return {
    id: newId(),
    organization_id: organizationId,
    principal_id: principalId,
    action,
    resource_type: type,
    resource_id: id,
    created_by: null,
    created_at: nowIso(),
  };
}

t.test('the 1,001st grant of one principal in one organization is refused; other tenants are unaffected', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const mallory = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'crowded');
  const orgPath = `/v1/organizations/${org.id}`;
  const { teams, grants, memberships } = d.services;
  // Grants go to members only: mallory is a viewer here, and in the neighbour organization below.
  await memberships.addMember(operator, org.id, { principal_id: mallory, role: 'viewer' });
  const teamIds: string[] = [];
  for (let i = 0; i < 30; i++) teamIds.push((await teams.createTeam(operator, org.id, { name: `team ${i}` })).id);
  for (const target of grantTargets(org.id, teamIds, 1000)) {
    await grants.createGrant(operator, org.id, {
      principal_id: mallory,
      action: target.action,
      resource_type: target.type,
      resource_id: target.id,
    });
  }

  const refused = await request(d.url, 'POST', `${orgPath}/grants`, {
    headers: asOwner,
    body: { principal_id: mallory, action: 'team.read', resource_type: 'team', resource_id: teamIds[29] },
  });
  t.equal(refused.status, 422, 'the 1,001st over HTTP');
  t.match(refused.body.error, {
    code: 'validation_failed',
    message: /maximum of 1000 grants in this organization/,
    details: { fields: { principal_id: String }, limit: 'max_grants_per_principal', max: 1000 },
  });
  await t.rejects(
    grants.createGrant(operator, org.id, {
      principal_id: mallory,
      action: 'team.read',
      resource_type: 'team',
      resource_id: teamIds[29],
    }),
    { code: 'validation_failed' },
    'the operator is held to the cap too',
  );

  // The cap is per organization: another tenant, and mallory there, work as before.
  const other = randomUUID();
  const otherOrg = await createOrganizationAs(d.url, asPrincipal(other), 'neighbour');
  t.equal((await request(d.url, 'GET', `/v1/organizations/${otherOrg.id}`, { headers: asPrincipal(other) })).status, 200);
  await memberships.addMember(operator, otherOrg.id, { principal_id: mallory, role: 'viewer' });
  // An action above her viewer role, so that the grant is what decides.
  const elsewhere = await request(d.url, 'POST', `/v1/organizations/${otherOrg.id}/grants`, {
    headers: asPrincipal(other),
    body: { principal_id: mallory, action: 'grant.read', resource_type: 'organization', resource_id: otherOrg.id },
  });
  t.equal(elsewhere.status, 201, 'a grant in another organization');
  const check = await request(d.url, 'POST', '/v1/permissions/check', {
    headers: asPrincipal(mallory),
    body: { action: 'grant.read', resource_type: 'organization', resource_id: otherOrg.id },
  });
  t.match(check.body.data, { allowed: true, reason: 'grant' }, "mallory's check in the other organization");
  const inCrowded = await request(d.url, 'POST', '/v1/permissions/check', {
    headers: asPrincipal(mallory),
    body: { action: 'team.update', resource_type: 'team', resource_id: teamIds[0] },
  });
  t.match(inCrowded.body.data, { allowed: true, reason: 'grant' }, 'her grants in the crowded organization still decide');

  // Deleting one frees a slot.
  const first = (await request(d.url, 'GET', `${orgPath}/grants?limit=1`, { headers: asOwner })).body.data[0];
  t.equal((await request(d.url, 'DELETE', `${orgPath}/grants/${first.id}`, { headers: asOwner })).status, 200);
  const again = await request(d.url, 'POST', `${orgPath}/grants`, {
    headers: asOwner,
    body: { principal_id: mallory, action: first.action, resource_type: first.resource_type, resource_id: first.resource_id },
  });
  t.equal(again.status, 201, 'a freed slot can be used');
});

t.test('concurrent grant creates never pass the cap', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_MAX_GRANTS_PER_PRINCIPAL: '5' });
  const owner = asPrincipal(randomUUID());
  const mallory = randomUUID();
  const org = await createOrganizationAs(d.url, owner, 'race');
  const member = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: owner,
    body: { principal_id: mallory, role: 'viewer' },
  });
  t.equal(member.status, 201, 'grants go to members: mallory joins first');
  const answers = await Promise.all(
    actions.slice(0, 20).map((action) =>
      request(d.url, 'POST', `/v1/organizations/${org.id}/grants`, {
        headers: owner,
        body: { principal_id: mallory, action, resource_type: 'organization', resource_id: org.id },
      }),
    ),
  );
  t.equal(answers.filter((a) => a.status === 201).length, 5, 'exactly the cap');
  t.equal(answers.filter((a) => a.status === 422).length, 15, 'the rest refused');
  const listed = (await request(d.url, 'GET', `/v1/organizations/${org.id}/grants`, { headers: owner })).body.data;
  t.equal(listed.length, 5, 'five stored');
});

/**
 * A storage with one organization, 30 teams, `principal` a viewer there (grants count for members only)
 * and the grants given; the engine's grant reads are recorded.
 */
async function engineWithGrants(t: Test, dir: string, principal: string, grantsFor: (org: string, teams: string[]) => Grant[]) {
  const storage = await LevelStorage.open(dir, silent);
  t.teardown(() => storage.close());
  await migrate(storage);
  const store = createIdentityStore(storage);
  const org = newId();
  const teams = Array.from({ length: 30 }, () => newId());
  await storage.transaction({}, async (tx) => {
    const at = nowIso();
    await tx.put(store.memberships, {
      id: newId(),
      organization_id: org,
      team_id: null,
      principal_id: principal,
      role: 'viewer',
      created_at: at,
      updated_at: at,
    });
    for (const g of grantsFor(org, teams)) await tx.put(store.grants, g);
  });
  const reads: string[] = [];
  const record = (name: string, detail = ''): void => void reads.push(`${name}${detail}`);
  const { grants } = store;
  for (const method of ['get', 'getMany', 'idsBy', 'listBy', 'list', 'listDistinct', 'range'] as const) {
    const original = grants[method].bind(grants) as (...args: unknown[]) => unknown;
    (grants as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      record(method);
      return original(...args);
    };
  }
  const hasAny = grants.hasAny.bind(grants);
  grants.hasAny = (index, value) => {
    record('hasAny', ` ${index} ${[value].flat().slice(1).join(' ')}`);
    return hasAny(index, value);
  };
  return { engine: new PermissionEngine(store), org, teams, reads };
}

t.test('a permission check reads only the grants on the resource and on its organization', async (t) => {
  const principal = randomUUID();
  const caller: Caller = { principalId: principal, method: 'dev' };
  const dir = t.testdir({ crowded: {}, empty: {} });
  const crowded = await engineWithGrants(t, path.join(dir, 'crowded'), principal, (org, teams) =>
    grantTargets(org, teams, 1000).map((g) => grantRecord(org, principal, g.type, g.id, g.action)),
  );
  const empty = await engineWithGrants(t, path.join(dir, 'empty'), principal, () => []);

  for (const [label, { engine, org, teams, reads }, allowed] of [
    ['1,000 grants', crowded, true],
    ['no grants', empty, false],
  ] as const) {
    const team = teams[7];
    const decision = await engine.decideAt(
      caller,
      'team.update',
      { type: 'team', id: team },
      { organizationId: org, teamId: team },
    );
    t.equal(decision.allowed, allowed, `${label}: the decision`);
    t.notOk(
      reads.some((r) => !r.startsWith('hasAny')),
      `${label}: no grant record and no list of grants is read (${reads.join(', ')})`,
    );
    t.ok(reads.length > 0 && reads.length <= 4, `${label}: a few key lookups`);
    for (const r of reads)
      t.ok(
        r === `hasAny principal_resource team ${team} team.update` ||
          r === `hasAny principal_resource organization ${org} team.update`,
        `${label}: ${r} names the checked resource or its organization`,
      );
    reads.length = 0;
  }
});

t.test('migration 3 indexes the grants written before it', async (t) => {
  const storage = await LevelStorage.open(t.testdir(), silent);
  t.teardown(() => storage.close());
  t.same(await migrate(storage, migrations.slice(0, 2)), { from: 0, to: 2 });
  const store = createIdentityStore(storage);
  const [org, team, principal] = [newId(), newId(), newId()];
  const written = [
    grantRecord(org, principal, 'team', team, 'team.read'),
    grantRecord(org, principal, 'organization', org, 'member.read'),
  ];
  // The principal is a member: migration 14 deletes grants of non-members (410bfcd).
  const at = new Date().toISOString();
  const membership = { id: newId(), organization_id: org, team_id: null, principal_id: principal, role: 'viewer' as const };
  await storage.transaction({}, async (tx) => {
    await tx.put(store.memberships, { ...membership, created_at: at, updated_at: at });
    for (const g of written) await tx.put(store.grants, g);
  });
  await storage.sublevel('grants~principal_resource').clear();
  t.notOk(await store.grants.hasAny('principal_resource', [principal, 'team', team]), 'before: not indexed');

  t.same(await migrate(storage), { from: 2, to: migrations.length });
  t.same(await store.grants.idsBy('principal_resource', [principal, 'team', team]), [written[0].id]);
  t.ok(await store.grants.hasAny('principal_resource', [principal, 'organization', org, 'member.read']));
  t.notOk(await store.grants.hasAny('principal_resource', [principal, 'organization', org, 'team.read']));
});
