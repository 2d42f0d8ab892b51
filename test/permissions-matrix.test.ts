import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { actionCatalog, actions, type Action } from '../src/domain/identity/permissions.js';
import type { Role } from '../src/domain/identity/roles.js';
import { asPrincipal, bearer, createOrganizationAs, repoRoot, request, startTestDaemon } from './helpers.js';

// The expected minimum role of every action, written out by hand: the catalog must agree with it, and
// every answer below is derived from it, so a wrong catalog entry fails twice.
const minimumRole: Record<Action, Role> = {
  'organization.read': 'viewer',
  'organization.update': 'admin',
  'team.create': 'admin',
  'team.read': 'viewer',
  'team.update': 'admin',
  'team.delete': 'admin',
  'member.read': 'viewer',
  'member.create': 'admin',
  'member.update': 'admin',
  'member.delete': 'admin',
  'grant.create': 'admin',
  'grant.read': 'admin',
  'grant.delete': 'admin',
  'invitation.create': 'admin',
  'invitation.read': 'admin',
  'invitation.revoke': 'admin',
  'settings.read': 'member',
  'settings.update': 'owner',
  'apikey.create': 'member',
  'apikey.read': 'member',
  'apikey.delete': 'member',
  'apikey.manage': 'admin',
  'portal.create': 'admin',
  'webhook.create': 'admin',
  'webhook.read': 'admin',
  'webhook.update': 'admin',
  'webhook.delete': 'admin',
  'event.read': 'admin',
  'audit.read': 'admin',
  'provider.read': 'viewer',
  'provider.usage': 'admin',
  'provider.execute': 'member',
  'workflow.read': 'viewer',
  'workflow.write': 'member',
  'job.read': 'viewer',
  'job.write': 'member',
};
// Team actions are checked against a team; everything else against the organization.
const teamActions = new Set<Action>(['team.read', 'team.update', 'team.delete']);

const rank: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

interface Answer {
  allowed: boolean;
  role: Role | null;
  reason: string;
}
interface Check {
  action: Action;
  resource_type: 'organization' | 'team';
  resource_id: string;
}

const notFound: Answer = { allowed: false, role: null, reason: 'resource not found' };

/** What a caller whose effective role on the resource is `role` must be told. */
function byRole(role: Role, action: Action): Answer {
  const min = minimumRole[action];
  return rank[role] >= rank[min] ? { allowed: true, role, reason: 'role' } : { allowed: false, role, reason: `requires ${min}` };
}

t.test('the expected table and the action catalog list the same actions with the same minimum roles', async (t) => {
  t.same(Object.keys(minimumRole).sort(), [...actions].sort());
  for (const action of actions) t.equal(actionCatalog[action].role, minimumRole[action], action);
  // The two rules the specification states in words (5.4).
  t.equal(minimumRole['settings.update'], 'owner', 'settings update requires owner');
  t.equal(minimumRole['invitation.create'], 'admin', 'invitation creation requires admin (or a grant)');
  t.same(
    actions.filter((a) => minimumRole[a] === 'owner'),
    ['settings.update'],
    'settings.update is the only owner-only action',
  );
});

t.test('docs/permissions.md lists every action with its minimum role and scope, and nothing else', async (t) => {
  const doc = readFileSync(path.join(repoRoot, 'docs', 'permissions.md'), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of doc.split('\n')) {
    const m = /^\|\s*`([a-z]+\.[a-z]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (m)
      rows.set(
        m[1],
        m[2].split('|').map((c) => c.trim()),
      );
  }
  t.same([...rows.keys()].sort(), [...actions].sort(), 'one row per catalog action');
  for (const action of actions) {
    const spec: { role: Role; resource: string; scope?: string } = actionCatalog[action];
    const [role, resource, scope] = rows.get(action) ?? [];
    t.equal(role, spec.role, `${action}: role`);
    t.equal(resource, spec.resource, `${action}: resource`);
    t.equal(scope, spec.scope === undefined ? 'full-access key' : `\`${spec.scope}\``, `${action}: scope`);
  }
});

t.test('every action against every kind of caller, single and batch', async (t) => {
  const d = await startTestDaemon(t);
  const ids = {
    owner: randomUUID(),
    admin: randomUUID(),
    member: randomUUID(),
    viewer: randomUUID(),
    teamAdmin: randomUUID(),
    oneGrant: randomUUID(),
    allGrants: randomUUID(),
    stranger: randomUUID(),
  };
  const org = await createOrganizationAs(d.url, asPrincipal(ids.owner), 'matrix');
  const asOwner = asPrincipal(ids.owner);
  const team = (await request(d.url, 'POST', `/v1/organizations/${org.id}/teams`, { headers: asOwner, body: { name: 'red' } }))
    .body.data;
  const otherTeam = (
    await request(d.url, 'POST', `/v1/organizations/${org.id}/teams`, { headers: asOwner, body: { name: 'blue' } })
  ).body.data;
  const add = async (principal_id: string, role: Role, team_id?: string) => {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
      headers: asOwner,
      body: { principal_id, role, team_id },
    });
    t.equal(res.status, 201, `member ${role}${team_id ? ' (team)' : ''} added`);
  };
  await add(ids.admin, 'admin');
  await add(ids.member, 'member');
  await add(ids.viewer, 'viewer');
  await add(ids.teamAdmin, 'admin', team.id);
  // Grants go to members only: the grant holders are viewers, so every grant adds to the least role.
  await add(ids.oneGrant, 'viewer');
  await add(ids.allGrants, 'viewer');

  const catalogResource = (action: Action): Check => ({
    action,
    resource_type: teamActions.has(action) ? 'team' : 'organization',
    resource_id: teamActions.has(action) ? team.id : org.id,
  });
  const grant = async (principal_id: string, c: Check) => {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/grants`, {
      headers: asOwner,
      body: { principal_id, ...c },
    });
    t.equal(res.status, 201, `grant ${c.action} created`);
  };
  await grant(ids.oneGrant, catalogResource('invitation.create'));
  for (const action of actions) await grant(ids.allGrants, catalogResource(action));

  // Each row: who asks, about what, and the answer the expected table implies.
  const onCatalogResource = (expect: (a: Action) => Answer) =>
    actions.map((a) => ({ check: catalogResource(a), expect: expect(a) }));
  const cases: Record<string, { principal: string; rows: { check: Check; expect: Answer }[] }> = {
    owner: { principal: ids.owner, rows: onCatalogResource((a) => byRole('owner', a)) },
    admin: { principal: ids.admin, rows: onCatalogResource((a) => byRole('admin', a)) },
    member: { principal: ids.member, rows: onCatalogResource((a) => byRole('member', a)) },
    viewer: { principal: ids.viewer, rows: onCatalogResource((a) => byRole('viewer', a)) },
    'team-level admin': {
      principal: ids.teamAdmin,
      rows: [
        // On its own team: admin. On the organization and on another team: the read-only view a
        // membership gives.
        ...actions.map((a) => ({
          check: { action: a, resource_type: 'team' as const, resource_id: team.id },
          expect: byRole('admin', a),
        })),
        ...actions.map((a) => ({
          check: { action: a, resource_type: 'organization' as const, resource_id: org.id },
          expect: byRole('viewer', a),
        })),
        ...actions.map((a) => ({
          check: { action: a, resource_type: 'team' as const, resource_id: otherTeam.id },
          expect: byRole('viewer', a),
        })),
      ],
    },
    'viewer holding one grant (invitation.create)': {
      principal: ids.oneGrant,
      rows: onCatalogResource((a) =>
        // The grant adds its one action; everything else is the viewer's role.
        a === 'invitation.create' ? { allowed: true, role: 'viewer', reason: 'grant' } : byRole('viewer', a),
      ),
    },
    'viewer holding a grant per action': {
      principal: ids.allGrants,
      // What the role allows is decided by the role; every other action by its grant.
      rows: onCatalogResource((a) =>
        byRole('viewer', a).allowed ? byRole('viewer', a) : { allowed: true, role: 'viewer', reason: 'grant' },
      ),
    },
    'no membership': { principal: ids.stranger, rows: onCatalogResource(() => notFound) },
  };

  // The explicit rules, spelled out once more against the rows above.
  const answerOf = (who: string, action: Action) => cases[who].rows.find((r) => r.check.action === action)!.expect.allowed;
  t.same(
    ['owner', 'admin', 'member', 'viewer'].map((w) => answerOf(w, 'settings.update')),
    [true, false, false, false],
    'settings.update: owner only',
  );
  t.same(
    ['owner', 'admin', 'member', 'viewer', 'viewer holding one grant (invitation.create)', 'no membership'].map((w) =>
      answerOf(w, 'invitation.create'),
    ),
    [true, true, false, false, true, false],
    'invitation.create: admin or a grant',
  );

  for (const [who, { principal, rows }] of Object.entries(cases)) {
    t.test(`${who}: POST /v1/permissions/check`, async (t) => {
      const answers = await Promise.all(
        rows.map((r) => request(d.url, 'POST', '/v1/permissions/check', { headers: asPrincipal(principal), body: r.check })),
      );
      rows.forEach((r, i) => {
        t.equal(answers[i].status, 200, `${r.check.action} on ${r.check.resource_type}: 200`);
        t.same(answers[i].body.data, r.expect, `${r.check.action} on ${r.check.resource_type}`);
      });
    });
    t.test(`${who}: POST /v1/permissions/check-batch answers the same, in order`, async (t) => {
      // A batch holds at most 100 checks: the rows go in batches of that size.
      for (let start = 0; start < rows.length; start += 100) {
        const batch = rows.slice(start, start + 100);
        const res = await request(d.url, 'POST', '/v1/permissions/check-batch', {
          headers: asPrincipal(principal),
          body: { checks: batch.map((r) => r.check) },
        });
        t.equal(res.status, 200);
        t.same(
          res.body.data.results,
          batch.map((r) => r.expect),
        );
      }
    });
  }

  t.test('a stranger is told about an existing organization exactly what it is told about a missing one', async (t) => {
    const missing = await request(d.url, 'POST', '/v1/permissions/check', {
      headers: asPrincipal(ids.stranger),
      body: { action: 'organization.read', resource_type: 'organization', resource_id: randomUUID() },
    });
    t.same(missing.body.data, notFound);
  });

  t.test('check-batch holds at most 100 checks', async (t) => {
    const check = catalogResource('organization.read');
    const hundred = await request(d.url, 'POST', '/v1/permissions/check-batch', {
      headers: asOwner,
      body: { checks: Array(100).fill(check) },
    });
    t.equal(hundred.status, 200);
    t.equal(hundred.body.data.results.length, 100);
    const tooMany = await request(d.url, 'POST', '/v1/permissions/check-batch', {
      headers: asOwner,
      body: { checks: Array(101).fill(check) },
    });
    t.equal(tooMany.status, 422);
    t.equal(tooMany.body.error.code, 'validation_failed');
    t.ok(tooMany.body.error.details.fields.checks, 'names the checks field');
    const none = await request(d.url, 'POST', '/v1/permissions/check-batch', { headers: asOwner, body: { checks: [] } });
    t.equal(none.status, 422);
    const unknown = await request(d.url, 'POST', '/v1/permissions/check-batch', {
      headers: asOwner,
      body: { checks: [{ action: 'organization.destroy' }] },
    });
    t.equal(unknown.status, 422, 'an action outside the catalog is refused');
  });

  t.test('a batch item without a resource is checked against an API key organization, refused otherwise', async (t) => {
    const key = await request(d.url, 'POST', '/v1/api-keys', {
      headers: asPrincipal(ids.admin),
      body: { name: 'k', organization_id: org.id },
    });
    t.equal(key.status, 201);
    const checks = [{ action: 'team.create' }, { action: 'settings.update' }];
    const viaKey = await request(d.url, 'POST', '/v1/permissions/check-batch', {
      headers: bearer(key.body.data.raw_key),
      body: { checks },
    });
    t.same(viaKey.body.data.results, [
      { allowed: true, role: 'admin', reason: 'role' },
      { allowed: false, role: 'admin', reason: 'requires owner' },
    ]);
    const viaHeader = await request(d.url, 'POST', '/v1/permissions/check-batch', {
      headers: asPrincipal(ids.admin),
      body: { checks },
    });
    t.same(
      viaHeader.body.data.results.map((r: Answer) => r.allowed),
      [false, false],
    );
    t.match(viaHeader.body.data.results[0].reason, /required/);
  });
});
