import { randomUUID } from 'node:crypto';
import t from 'tap';
import { eventRoutes } from '../src/http/routes/events.js';
import { identityRoutes } from '../src/http/routes/identity.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon } from './helpers.js';

interface Tenant {
  owner: string;
  org: { id: string; slug: string; display_name: string };
  team: string;
  /** A member whose role a foreign caller tries to change. */
  member: { id: string; principal_id: string };
  /** A member a foreign caller tries to remove. */
  doomed: { id: string };
  grant: string;
  key: { id: string; raw: string };
}

interface Case {
  /** The route pattern this request exercises (as declared in the routes file). */
  route: string;
  method: string;
  path: string;
  body?: unknown;
}

t.test('a caller of one organization cannot see or touch another organization', async (t) => {
  const d = await startTestDaemon(t);

  async function setUp(slug: string): Promise<Tenant> {
    const owner = randomUUID();
    const h = asPrincipal(owner);
    const org = await createOrganizationAs(d.url, h, slug);
    const base = `/v1/organizations/${org.id}`;
    const team = await request(d.url, 'POST', `${base}/teams`, { headers: h, body: { name: 'core' } });
    const member = await request(d.url, 'POST', `${base}/members`, {
      headers: h,
      body: { principal_id: randomUUID(), role: 'member' },
    });
    const doomed = await request(d.url, 'POST', `${base}/members`, {
      headers: h,
      body: { email: `leaver@${slug}.example`, role: 'viewer' },
    });
    const grant = await request(d.url, 'POST', `${base}/grants`, {
      headers: h,
      body: {
        principal_id: member.body.data.principal_id,
        action: 'invitation.create',
        resource_type: 'organization',
        resource_id: org.id,
      },
    });
    const key = await request(d.url, 'POST', '/v1/api-keys', {
      headers: h,
      body: { name: `${slug} owner key`, organization_id: org.id },
    });
    for (const res of [team, member, doomed, grant, key])
      if (res.status !== 201) throw new Error(`set-up of ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
    return {
      owner,
      org,
      team: team.body.data.id,
      member: member.body.data,
      doomed: doomed.body.data,
      grant: grant.body.data.id,
      key: { id: key.body.data.id, raw: key.body.data.raw_key },
    };
  }

  const a = await setUp('tenant-a');
  const b = await setUp('tenant-b');

  // A principal who is an admin in both organizations, holding an API key of A only.
  const dual = randomUUID();
  for (const tenant of [a, b]) {
    const res = await request(d.url, 'POST', `/v1/organizations/${tenant.org.id}/members`, {
      headers: asPrincipal(tenant.owner),
      body: { principal_id: dual, role: 'admin' },
    });
    t.equal(res.status, 201);
  }
  const dualKeyOfA = await request(d.url, 'POST', '/v1/api-keys', {
    headers: asPrincipal(dual),
    body: { name: 'dual in A', organization_id: a.org.id },
  });
  t.equal(dualKeyOfA.status, 201);

  /** Every resource route, aimed at tenant `x`'s resources. */
  const resourceCases = (x: Tenant): Case[] => {
    const o = `/v1/organizations/${x.org.id}`;
    return [
      { route: 'GET /v1/organizations/:id', method: 'GET', path: o },
      { route: 'PATCH /v1/organizations/:id', method: 'PATCH', path: o, body: { display_name: 'taken over' } },
      { route: 'GET /v1/organizations/:id/members', method: 'GET', path: `${o}/members` },
      {
        route: 'POST /v1/organizations/:id/members',
        method: 'POST',
        path: `${o}/members`,
        body: { principal_id: randomUUID(), role: 'viewer' },
      },
      {
        route: 'PATCH /v1/organizations/:id/members/:membership_id',
        method: 'PATCH',
        path: `${o}/members/${x.member.id}`,
        body: { role: 'admin' },
      },
      { route: 'DELETE /v1/organizations/:id/members/:membership_id', method: 'DELETE', path: `${o}/members/${x.doomed.id}` },
      { route: 'POST /v1/organizations/:id/teams', method: 'POST', path: `${o}/teams`, body: { name: 'intruders' } },
      { route: 'GET /v1/organizations/:id/teams', method: 'GET', path: `${o}/teams` },
      { route: 'GET /v1/organizations/:id/teams/:team_id', method: 'GET', path: `${o}/teams/${x.team}` },
      {
        route: 'PATCH /v1/organizations/:id/teams/:team_id',
        method: 'PATCH',
        path: `${o}/teams/${x.team}`,
        body: { name: 'taken over' },
      },
      {
        route: 'POST /v1/organizations/:id/grants',
        method: 'POST',
        path: `${o}/grants`,
        body: { principal_id: x.member.principal_id, action: 'team.delete', resource_type: 'team', resource_id: x.team },
      },
      { route: 'GET /v1/organizations/:id/grants', method: 'GET', path: `${o}/grants` },
      { route: 'DELETE /v1/organizations/:id/grants/:grant_id', method: 'DELETE', path: `${o}/grants/${x.grant}` },
      { route: 'GET /v1/organizations/:id/events', method: 'GET', path: `${o}/events` },
      { route: 'GET /v1/api-keys', method: 'GET', path: `/v1/api-keys?organization_id=${x.org.id}` },
      { route: 'GET /v1/api-keys/:id', method: 'GET', path: `/v1/api-keys/${x.key.id}` },
      { route: 'POST /v1/api-keys', method: 'POST', path: '/v1/api-keys', body: { name: 'foreign', organization_id: x.org.id } },
      { route: 'DELETE /v1/api-keys/:id', method: 'DELETE', path: `/v1/api-keys/${x.key.id}` },
      // Last: deleting the team takes its memberships and grants with it.
      { route: 'DELETE /v1/organizations/:id/teams/:team_id', method: 'DELETE', path: `${o}/teams/${x.team}` },
    ];
  };

  // Routes that name no organization's resource; their isolation is checked separately below.
  const otherRoutes = [
    'POST /v1/organizations',
    'GET /v1/organizations',
    'POST /v1/permissions/check',
    'POST /v1/permissions/check-batch',
    // The event catalog describes the daemon, not a tenant: every caller reads the same.
    'GET /v1/event-types',
  ];

  t.test('every identity and event route is covered here', async (t) => {
    const declared = [...identityRoutes(d.services), ...eventRoutes(d.services)].map((r) => `${r.method} ${r.path}`);
    const covered = [...resourceCases(b).map((c) => c.route), ...otherRoutes];
    t.same([...new Set(covered)].sort(), [...declared].sort());
  });

  const foreigners: [string, Record<string, string>][] = [
    ["A's owner (development principal)", asPrincipal(a.owner)],
    ["A's owner's API key", bearer(a.key.raw)],
    ['an API key of A whose principal is an admin of B too', bearer(dualKeyOfA.body.data.raw_key)],
  ];

  for (const [who, headers] of foreigners) {
    t.test(`${who}: every route on B's resources is 404`, async (t) => {
      for (const c of resourceCases(b)) {
        const res = await request(d.url, c.method, c.path, { headers, body: c.body });
        t.equal(res.status, 404, c.route);
        t.equal(res.body?.error?.code, 'not_found', `${c.route}: not_found`);
      }
    });
  }

  t.test("B's resources named under A's organization path are 404 too", async (t) => {
    const o = `/v1/organizations/${a.org.id}`;
    for (const headers of [asPrincipal(a.owner), bearer(a.key.raw)]) {
      const cases: Case[] = [
        { route: 'PATCH member', method: 'PATCH', path: `${o}/members/${b.member.id}`, body: { role: 'admin' } },
        { route: 'DELETE member', method: 'DELETE', path: `${o}/members/${b.doomed.id}` },
        { route: 'GET team', method: 'GET', path: `${o}/teams/${b.team}` },
        { route: 'DELETE team', method: 'DELETE', path: `${o}/teams/${b.team}` },
        { route: 'DELETE grant', method: 'DELETE', path: `${o}/grants/${b.grant}` },
        {
          route: 'POST member on a team of B',
          method: 'POST',
          path: `${o}/members`,
          body: { principal_id: randomUUID(), role: 'member', team_id: b.team },
        },
      ];
      for (const c of cases) {
        const res = await request(d.url, c.method, c.path, { headers, body: c.body });
        t.equal(res.status, 404, c.route);
      }
      // A grant on a resource of B is refused exactly as one on a resource that does not exist.
      const grantOn = async (resource_id: string) =>
        request(d.url, 'POST', `${o}/grants`, {
          headers,
          body: { principal_id: a.member.principal_id, action: 'team.read', resource_type: 'team', resource_id },
        });
      const onB = await grantOn(b.team);
      const onNothing = await grantOn(randomUUID());
      t.equal(onB.status, 422);
      t.same(onB.body.error, onNothing.body.error, 'no difference between a foreign and a missing resource');
    }
  });

  t.test('permission checks about B answer as if B did not exist', async (t) => {
    for (const [who, headers] of foreigners) {
      const ask = async (resource_id: string) =>
        request(d.url, 'POST', '/v1/permissions/check', {
          headers,
          body: { action: 'organization.read', resource_type: 'organization', resource_id },
        });
      const onB = await ask(b.org.id);
      const onNothing = await ask(randomUUID());
      t.same(onB.body.data, { allowed: false, role: null, reason: 'resource not found' }, who);
      t.same(onB.body.data, onNothing.body.data, `${who}: same as a missing organization`);
      const batch = await request(d.url, 'POST', '/v1/permissions/check-batch', {
        headers,
        body: {
          checks: [
            { action: 'team.read', resource_type: 'team', resource_id: b.team },
            { action: 'organization.read', resource_type: 'organization', resource_id: a.org.id },
          ],
        },
      });
      t.same(
        batch.body.data.results.map((r: { allowed: boolean }) => r.allowed),
        [false, true],
        `${who}: batch`,
      );
      t.equal(batch.body.data.results[0].reason, 'resource not found');
    }
  });

  t.test('each caller lists only its own organizations', async (t) => {
    const slugs = async (headers: Record<string, string>) =>
      ((await request(d.url, 'GET', '/v1/organizations', { headers })).body.data as { slug: string }[]).map((o) => o.slug).sort();
    t.same(await slugs(asPrincipal(a.owner)), ['tenant-a']);
    t.same(await slugs(asPrincipal(b.owner)), ['tenant-b']);
    t.same(await slugs(bearer(a.key.raw)), ['tenant-a']);
    t.same(await slugs(bearer(b.key.raw)), ['tenant-b']);
    t.same(await slugs(asPrincipal(dual)), ['tenant-a', 'tenant-b']);
    t.same(await slugs(bearer(dualKeyOfA.body.data.raw_key)), ['tenant-a'], 'a key sees only its own organization');
    t.same(await slugs(asPrincipal(randomUUID())), []);
  });

  t.test("B is untouched, and B's own callers reach every one of those routes", async (t) => {
    const h = asPrincipal(b.owner);
    const o = `/v1/organizations/${b.org.id}`;
    t.equal((await request(d.url, 'GET', o, { headers: h })).body.data.display_name, 'tenant-b');
    const members = (await request(d.url, 'GET', `${o}/members`, { headers: h })).body.data as { id: string; role: string }[];
    t.equal(members.length, 4, 'owner, member, leaver, dual: nobody added or removed');
    t.equal(members.find((m) => m.id === b.member.id)?.role, 'member', 'role unchanged');
    t.same(
      ((await request(d.url, 'GET', `${o}/teams`, { headers: h })).body.data as { name: string }[]).map((x) => x.name),
      ['core'],
    );
    t.same(
      ((await request(d.url, 'GET', `${o}/grants`, { headers: h })).body.data as { id: string }[]).map((g) => g.id),
      [b.grant],
    );
    t.equal(
      (await request(d.url, 'GET', `/v1/api-keys/${b.key.id}`, { headers: h })).body.data.revoked_at,
      null,
      'key not revoked',
    );
    t.same(
      [
        ...new Set(
          ((await request(d.url, 'GET', `${o}/events`, { headers: h })).body.data as { kind: string }[]).map((e) => e.kind),
        ),
      ],
      ['organization.created', 'member.added'],
      "B's own set-up only: no member of B removed or changed",
    );

    // The dual admin reaches B through its own membership, not through its key of A.
    t.equal((await request(d.url, 'GET', `${o}/members`, { headers: asPrincipal(dual) })).status, 200);

    // The same requests from B's owner succeed, so the 404s above came from isolation, not bad requests.
    for (const c of resourceCases(b)) {
      const res = await request(d.url, c.method, c.path, { headers: h, body: c.body });
      t.ok(res.status >= 200 && res.status < 300, `${c.route} as B's owner: ${res.status}`);
    }
  });
});
