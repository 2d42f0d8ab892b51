// Spec 2.4, 7 and 8, contract 6: the per-organization invitation limits hold under concurrent
// creates (one lock, one batch), and organization settings read, update and validate.

import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

interface Org {
  d: Daemon;
  id: string;
  slug: string;
  owner: string;
  admin: string;
}

async function organization(t: Test, d: Daemon): Promise<Org> {
  const owner = randomUUID();
  const admin = randomUUID();
  const slug = `limits-${randomUUID().slice(0, 8)}`;
  const org = await createOrganizationAs(d.url, asPrincipal(owner), slug);
  const added = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: asPrincipal(owner),
    body: { principal_id: admin, role: 'admin' },
  });
  t.equal(added.status, 201);
  return { d, id: org.id, slug, owner, admin };
}

async function putSettings(o: Org, body: Record<string, unknown>, as = o.owner) {
  return request(o.d.url, 'PUT', `/v1/organizations/${o.id}/settings`, { headers: asPrincipal(as), body });
}

function invite(o: Org, email: string) {
  return request(o.d.url, 'POST', '/v1/invitations', {
    headers: asPrincipal(o.admin),
    body: { organization_id: o.id, email, role: 'member' },
  });
}

async function countPending(o: Org): Promise<number> {
  const res = await request(o.d.url, 'GET', `/v1/invitations?organization_id=${o.id}&status=pending&limit=200`, {
    headers: asPrincipal(o.admin),
  });
  return res.body.data.length;
}

t.test('50 concurrent creates against max_pending_invitations = 10: exactly 10 pending, 40 x 429', async (t) => {
  const d = await startTestDaemon(t);
  const o = await organization(t, d);
  t.equal((await putSettings(o, { max_pending_invitations: 10, max_invitations_per_hour: 1000 })).status, 200);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => invite(o, `race${i}@example.com`)));
  const answered = Date.now();
  const created = answers.filter((r) => r.status === 201);
  const limited = answers.filter((r) => r.status === 429);
  t.equal(created.length, 10, 'exactly the limit was created');
  t.equal(limited.length, 40, 'every other request was refused');
  t.equal(await countPending(o), 10, 'and exactly that many are pending');
  for (const r of limited) {
    t.equal(r.body.error.code, 'rate_limited');
    t.equal(r.body.error.details.limit, 'max_pending_invitations');
  }
  // Retry-After for the pending limit: until the first pending invitation expires (7 days), counted
  // from the daemon's answer, which came between the first request and the last answer.
  const retryAfter = Number(limited[0].headers.get('retry-after'));
  const firstExpiry = Math.min(...created.map((r) => Date.parse(r.body.data.expires_at)));
  t.ok(
    retryAfter >= Math.ceil((firstExpiry - answered) / 1000) && retryAfter <= Math.ceil((firstExpiry - started) / 1000),
    `Retry-After ${retryAfter}s is the time to the first expiry`,
  );
  t.ok(retryAfter > 604_000 && retryAfter <= 604_800);

  // A slot frees when one is revoked: exactly one more fits.
  t.equal(
    (await request(d.url, 'POST', `/v1/invitations/${created[0].body.data.id}/revoke`, { headers: asPrincipal(o.admin) })).status,
    200,
  );
  const after = await Promise.all([invite(o, 'late1@example.com'), invite(o, 'late2@example.com')]);
  t.same(after.map((r) => r.status).sort(), [201, 429]);
});

t.test('50 concurrent creates against max_invitations_per_hour = 10: exactly 10, 40 x 429; resends count', async (t) => {
  const d = await startTestDaemon(t);
  const o = await organization(t, d);
  t.equal((await putSettings(o, { max_pending_invitations: 10_000, max_invitations_per_hour: 10 })).status, 200);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => invite(o, `hour${i}@example.com`)));
  const answered = Date.now();
  const created = answers.filter((r) => r.status === 201);
  const limited = answers.filter((r) => r.status === 429);
  t.equal(created.length, 10);
  t.equal(limited.length, 40);
  t.equal(await countPending(o), 10);
  const oldest = Math.min(...created.map((r) => Date.parse(r.body.data.created_at)));
  for (const r of limited) {
    t.equal(r.body.error.details.limit, 'max_invitations_per_hour');
    const retryAfter = Number(r.headers.get('retry-after'));
    // When the oldest counted invitation leaves the hour, counted from the daemon's answer.
    const leaves = oldest + 3_600_000;
    t.ok(
      retryAfter >= Math.ceil((leaves - answered) / 1000) && retryAfter <= Math.ceil((leaves - started) / 1000),
      `Retry-After ${retryAfter}s`,
    );
    t.ok(retryAfter <= 3600);
  }
  const resend = await request(d.url, 'POST', `/v1/invitations/${created[0].body.data.id}/resend`, {
    headers: asPrincipal(o.admin),
  });
  t.equal(resend.status, 429, 'a resend is refused when the hour is full');

  // Resends are counted: with room for 3, two creates and a resend fill the hour.
  const o2 = await organization(t, d);
  t.equal((await putSettings(o2, { max_invitations_per_hour: 3 })).status, 200);
  const first = await invite(o2, 'one@example.com');
  t.equal((await invite(o2, 'two@example.com')).status, 201);
  t.equal(
    (await request(d.url, 'POST', `/v1/invitations/${first.body.data.id}/resend`, { headers: asPrincipal(o2.admin) })).status,
    200,
  );
  const fourth = await invite(o2, 'three@example.com');
  t.equal(fourth.status, 429);
  t.equal(fourth.body.error.details.limit, 'max_invitations_per_hour');
  t.equal(
    (await invite(o, 'other-org-unaffected@example.com')).status,
    429,
    'limits are per organization (the first is still full)',
  );
  const o3 = await organization(t, d);
  t.equal((await invite(o3, 'fresh@example.com')).status, 201, 'a third organization has its own window');
});

t.test('settings: defaults, partial PUT, reset with null, owner only, tenant isolation', async (t) => {
  const d = await startTestDaemon(t);
  const o = await organization(t, d);
  const member = randomUUID();
  const viewer = randomUUID();
  for (const [p, role] of [
    [member, 'member'],
    [viewer, 'viewer'],
  ] as const) {
    await request(d.url, 'POST', `/v1/organizations/${o.id}/members`, {
      headers: asPrincipal(o.owner),
      body: { principal_id: p, role },
    });
  }
  const defaults = await request(d.url, 'GET', `/v1/organizations/${o.id}/settings`, { headers: asPrincipal(member) });
  t.equal(defaults.status, 200);
  t.same(defaults.body.data, {
    organization_id: o.id,
    display_name: o.slug,
    logo_url: null,
    email_from_name: null,
    max_pending_invitations: 100,
    max_invitations_per_hour: 20,
    max_concurrent_runs: 4,
    max_workflows: 100,
    max_schedules: 50,
    max_queued_runs: 200,
    max_waiting_runs: 200,
    max_webhooks: 100,
    max_active_jobs: 200,
    run_wait_timeout_seconds: 604800,
    updated_at: null,
  });
  t.equal(
    (await request(d.url, 'GET', `/v1/organizations/${o.id}/settings`, { headers: asPrincipal(viewer) })).status,
    403,
    'viewers may not read settings',
  );

  const first = await putSettings(o, { email_from_name: '  Acme Team ', logo_url: 'https://cdn.example.com/logo.png' });
  t.equal(first.status, 200);
  t.equal(first.body.data.email_from_name, 'Acme Team', 'trimmed');
  t.equal(first.body.data.logo_url, 'https://cdn.example.com/logo.png');
  t.equal(first.body.data.display_name, o.slug, 'untouched fields keep their value');
  const second = await putSettings(o, { max_pending_invitations: 5, display_name: 'Acme, Inc.' });
  t.same(
    { ...second.body.data, updated_at: null },
    {
      organization_id: o.id,
      display_name: 'Acme, Inc.',
      logo_url: 'https://cdn.example.com/logo.png',
      email_from_name: 'Acme Team',
      max_pending_invitations: 5,
      max_invitations_per_hour: 20,
      max_concurrent_runs: 4,
      max_workflows: 100,
      max_schedules: 50,
      max_queued_runs: 200,
      max_waiting_runs: 200,
      max_webhooks: 100,
      max_active_jobs: 200,
      run_wait_timeout_seconds: 604800,
      updated_at: null,
    },
    'a partial update keeps the earlier one',
  );
  t.ok(second.body.data.updated_at);
  const reset = await putSettings(o, { display_name: null, logo_url: null });
  t.equal(reset.body.data.display_name, o.slug, 'null resets the display name to the slug');
  t.equal(reset.body.data.logo_url, null);
  t.equal(reset.body.data.email_from_name, 'Acme Team');
  const read = await request(d.url, 'GET', `/v1/organizations/${o.id}/settings`, { headers: asPrincipal(o.admin) });
  t.same(read.body.data, reset.body.data, 'a read shows what was written');

  const byAdmin = await putSettings(o, { email_from_name: 'Admins' }, o.admin);
  t.equal(byAdmin.status, 403, 'admins may not change settings');
  t.equal(byAdmin.body.error.code, 'forbidden');
  const stranger = randomUUID();
  t.equal((await request(d.url, 'GET', `/v1/organizations/${o.id}/settings`, { headers: asPrincipal(stranger) })).status, 404);
  t.equal((await putSettings(o, { email_from_name: 'x' }, stranger)).status, 404);
  t.equal((await request(d.url, 'GET', `/v1/organizations/${o.id}/settings`)).status, 401);
});

t.test('settings validation: 422 naming every failing field', async (t) => {
  const d = await startTestDaemon(t);
  const o = await organization(t, d);
  const bad = await putSettings(o, {
    display_name: 'Acme\r\nBcc: victim@example.com',
    logo_url: 'javascript:alert(1)',
    email_from_name: '   ',
    max_pending_invitations: 0,
    max_invitations_per_hour: 1001,
    colour: 'red',
  });
  t.equal(bad.status, 422);
  t.equal(bad.body.error.code, 'validation_failed');
  t.same(Object.keys(bad.body.error.details.fields).sort(), [
    'colour',
    'display_name',
    'email_from_name',
    'logo_url',
    'max_invitations_per_hour',
    'max_pending_invitations',
  ]);

  const cases: [Record<string, unknown>, string][] = [
    [{ display_name: 'x'.repeat(201) }, 'display_name'],
    [{ display_name: 'tab\there' }, 'display_name'],
    [{ email_from_name: 'Name\nInjected: yes' }, 'email_from_name'],
    [{ email_from_name: 'x'.repeat(101) }, 'email_from_name'],
    [{ logo_url: 'ftp://example.com/logo.png' }, 'logo_url'],
    [{ logo_url: 'not a url' }, 'logo_url'],
    [{ logo_url: `https://example.com/${'a'.repeat(2100)}` }, 'logo_url'],
    [{ max_pending_invitations: 1.5 }, 'max_pending_invitations'],
    [{ max_pending_invitations: '5' }, 'max_pending_invitations'],
    [{ max_pending_invitations: 10_001 }, 'max_pending_invitations'],
    [{ max_invitations_per_hour: -1 }, 'max_invitations_per_hour'],
    [{ max_invitations_per_hour: null }, 'max_invitations_per_hour'],
  ];
  for (const [body, field] of cases) {
    const res = await putSettings(o, body);
    t.equal(res.status, 422, `${JSON.stringify(body).slice(0, 60)} is refused`);
    t.same(Object.keys(res.body.error.details.fields), [field]);
  }
  const unchanged = await request(d.url, 'GET', `/v1/organizations/${o.id}/settings`, { headers: asPrincipal(o.owner) });
  t.equal(unchanged.body.data.updated_at, null, 'nothing was written');
  const edges = await putSettings(o, {
    max_pending_invitations: 10_000,
    max_invitations_per_hour: 1,
    display_name: 'Ünïcode — Ltd',
  });
  t.equal(edges.status, 200, 'the bounds themselves are allowed');
});
