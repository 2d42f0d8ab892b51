// Contract 12 and issue 16 (item 4): workflow schedules. Created, listed and deleted through
// /v1/workflows/{name}/schedules (and with a registration), validated (cron, time zone, overlap: 422
// naming the field), another organization's 404; fired by the schedule loop every second: overlap
// `skip` skips while the previous run goes on and triggers again once it ended, `allow` overlaps, the
// organization's max_concurrent_runs skips, a deleted definition fails and removes its schedules;
// a fire that throws backs off (src/backoff.ts) and keeps its fire time; on PostgreSQL two daemons
// fire each scheduled second once between them.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { createScheduleBody } from '../src/domain/workflows/schemas.js';
import { SCHEDULES_TOPIC, scheduleLock } from '../src/domain/workflows/store.js';
import type { WorkflowSchedule } from '../src/domain/workflows/types.js';
import type { Daemon } from '../src/main.js';
import { FakeOpenAI } from './fakes/openai.js';
import {
  asPrincipal,
  bearer,
  createOrganizationAs,
  request,
  startTestDaemon,
  testPostgres,
  waitFor,
  type JsonResponse,
} from './helpers.js';

interface World {
  d: Daemon;
  openai: FakeOpenAI;
  owner: Record<string, string>;
  ownerId: string;
  org: { id: string };
  post: (path: string, body?: unknown, headers?: Record<string, string>) => Promise<JsonResponse>;
  get: (path: string, headers?: Record<string, string>) => Promise<JsonResponse>;
  del: (path: string, headers?: Record<string, string>) => Promise<JsonResponse>;
  define: (name: string, nodes?: unknown[]) => Promise<any>;
  schedule: (name: string, body: Record<string, unknown>) => Promise<any>;
  /** The organization's schedule events (all kinds), in commit order. */
  fires: () => Promise<any[]>;
  run: (id: string) => Promise<any>;
}

const everySecond = '* * * * * *';
const slowNode = [{ key: 'ask', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } }];
const echoNode = [{ key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'hi {{input.who}}' } }];

async function world(t: Test, env: Record<string, string> = {}, fake: { gapMs?: number; chunks?: number } = {}): Promise<World> {
  const openai = await FakeOpenAI.start(t, fake);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
    SERVICE_WORKFLOW_POLL_MS: '200',
    SERVICE_WORKFLOW_SCHEDULE_TICK_MS: '200',
    ...env,
  });
  const ownerId = randomUUID();
  const owner = asPrincipal(ownerId);
  const org = await createOrganizationAs(d.url, owner, `ws-${randomUUID().slice(0, 8)}`);
  const post = (path: string, body: unknown = {}, headers = owner) => request(d.url, 'POST', path, { headers, body });
  const get = (path: string, headers = owner) => request(d.url, 'GET', path, { headers });
  const del = (path: string, headers = owner) => request(d.url, 'DELETE', path, { headers });
  const define = async (name: string, nodes: unknown[] = echoNode) => {
    const res = await post('/v1/workflows', { organization_id: org.id, name, nodes });
    if (res.status !== 201) throw new Error(`defining ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const schedule = async (name: string, body: Record<string, unknown>) => {
    const res = await post(`/v1/workflows/${name}/schedules`, { organization_id: org.id, ...body });
    if (res.status !== 201) throw new Error(`scheduling ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const fires = async () => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/v1/organizations/${org.id}/events?limit=200${cursor === null ? '' : `&cursor=${cursor}`}`);
      all.push(...res.body.data);
      cursor = res.body.meta.next_cursor;
    } while (cursor !== null);
    return all.filter((e) => e.kind.startsWith('workflow.schedule.'));
  };
  const run = async (id: string) => (await get(`/v1/workflows/runs/${id}`)).body.data;
  return { d, openai, owner, ownerId, org, post, get, del, define, schedule, fires, run };
}

/** Waits (bounded) for a schedule event matching `match`, and answers it. */
async function fireMatching(w: World, what: string, match: (e: any) => boolean): Promise<any> {
  let found: any;
  await waitFor(async () => (found = (await w.fires()).find(match)) !== undefined, { what, intervalMs: 100 });
  return found;
}

t.test('create, list and delete; every field validated (422 naming it); another organization sees 404', async (t) => {
  const w = await world(t);
  const wf = await w.define('report');
  const created = await w.post('/v1/workflows/report/schedules', {
    organization_id: w.org.id,
    cron: '0 30 9 * * MON-FRI',
    timezone: 'Europe/Paris',
    input: { who: 'ops' },
    state: { ticket: 7 },
  });
  t.equal(created.status, 201);
  const s = created.body.data;
  t.match(s, {
    id: String,
    organization_id: w.org.id,
    workflow_id: wf.id,
    workflow_name: 'report',
    cron: '0 30 9 * * MON-FRI',
    timezone: 'Europe/Paris',
    input: { who: 'ops' },
    state: { ticket: 7 },
    overlap: 'skip',
    created_by: { principal_id: w.ownerId, api_key_id: null },
    last_run_id: null,
    last_triggered_at: null,
  });
  t.notOk('lease_until' in s || 'lease_owner' in s || 'deleted_at' in s, 'the lease and deletion are the daemons’ business');
  // 09:30 in Paris is 07:30 or 08:30 UTC, on a weekday.
  const next = new Date(s.next_run_at);
  t.ok(next.getTime() > Date.now(), 'next_run_at is ahead');
  t.ok([7, 8].includes(next.getUTCHours()) && next.getUTCMinutes() === 30 && next.getUTCSeconds() === 0, s.next_run_at);
  t.ok(next.getUTCDay() >= 1 && next.getUTCDay() <= 5, 'on a weekday');

  const minimal = await w.schedule('report', { cron: '*/15 * * * *' });
  t.match(minimal, { timezone: 'UTC', input: {}, state: null, overlap: 'skip' });
  t.equal(new Date(minimal.next_run_at).getUTCMinutes() % 15, 0, 'five fields: minute first');

  const refuse = async (body: Record<string, unknown>, field: string, reason?: RegExp) => {
    const res = await w.post('/v1/workflows/report/schedules', { organization_id: w.org.id, ...body });
    t.equal(res.status, 422, JSON.stringify(body));
    t.equal(res.body.error.code, 'validation_failed');
    t.ok(field in res.body.error.details.fields, `names ${field}: ${JSON.stringify(res.body.error.details.fields)}`);
    if (reason !== undefined) t.match(res.body.error.details.fields[field], reason);
  };
  await refuse({ cron: 'every monday' }, 'cron', /not a cron expression/);
  await refuse({ cron: '* * * * * * *' }, 'cron', /not a cron expression/);
  await refuse({ cron: '61 * * * *' }, 'cron');
  await refuse({ cron: '' }, 'cron');
  await refuse({}, 'cron');
  await refuse({ cron: '0 0 30 2 *' }, 'cron', /never fires/);
  await refuse({ cron: everySecond, timezone: 'Mars/Olympus_Mons' }, 'timezone', /not a time zone/);
  await refuse({ cron: everySecond, timezone: '' }, 'timezone');
  await refuse({ cron: everySecond, overlap: 'queue' }, 'overlap');
  await refuse({ cron: everySecond, input: 'x' }, 'input');
  await refuse({ cron: everySecond, priority: 3 }, '(body)');

  const listed = await w.get(`/v1/workflows/report/schedules?organization_id=${w.org.id}`);
  t.equal(listed.status, 200);
  t.same(
    listed.body.data.map((x: any) => x.id),
    [s.id, minimal.id],
    'in creation order; nothing refused was stored',
  );
  t.equal(listed.body.meta.next_cursor, null);
  const page = await w.get(`/v1/workflows/report/schedules?organization_id=${w.org.id}&limit=1`);
  t.equal(page.body.data.length, 1);
  t.ok(page.body.meta.next_cursor, 'paged');

  // Scopes: a read key lists, a write key creates in its own organization; a viewer only reads.
  const key = async (scopes: string[]) =>
    (await w.post('/v1/api-keys', { name: `k-${randomUUID().slice(0, 6)}`, organization_id: w.org.id, scopes })).body.data;
  const reader = bearer((await key(['workflows:read'])).raw_key);
  const writerKey = await key(['workflows:write']);
  const writer = bearer(writerKey.raw_key);
  t.equal((await w.get('/v1/workflows/report/schedules', reader)).status, 200);
  t.equal((await w.post('/v1/workflows/report/schedules', { cron: everySecond }, reader)).body.error.code, 'insufficient_scope');
  const byKey = await w.post('/v1/workflows/report/schedules', { cron: '0 0 * * *' }, writer);
  t.equal(byKey.status, 201, 'a key schedules in its own organization without naming it');
  t.match(byKey.body.data.created_by, { api_key_id: writerKey.id });
  t.equal((await w.get('/v1/workflows/report/schedules', writer)).status, 403, 'listing needs workflows:read');
  const viewer = randomUUID();
  await w.post(`/v1/organizations/${w.org.id}/members`, { principal_id: viewer, role: 'viewer' });
  t.equal((await w.get(`/v1/workflows/report/schedules?organization_id=${w.org.id}`, asPrincipal(viewer))).status, 200);
  t.equal(
    (await w.post('/v1/workflows/report/schedules', { organization_id: w.org.id, cron: everySecond }, asPrincipal(viewer)))
      .status,
    403,
    'a viewer cannot schedule',
  );

  const stranger = asPrincipal(randomUUID());
  await createOrganizationAs(w.d.url, stranger, `other-${randomUUID().slice(0, 8)}`);
  t.equal((await w.get(`/v1/workflows/report/schedules?organization_id=${w.org.id}`, stranger)).status, 404);
  t.equal(
    (await w.post('/v1/workflows/report/schedules', { organization_id: w.org.id, cron: everySecond }, stranger)).status,
    404,
  );
  t.equal((await w.del(`/v1/workflows/report/schedules/${s.id}?organization_id=${w.org.id}`, stranger)).status, 404);
  await w.define('other');
  t.equal(
    (await w.del(`/v1/workflows/other/schedules/${s.id}?organization_id=${w.org.id}`)).status,
    404,
    "another workflow's schedule is 404",
  );
  t.equal((await w.get(`/v1/workflows/nope/schedules?organization_id=${w.org.id}`)).status, 404);
  t.equal((await w.del(`/v1/workflows/report/schedules/not-a-uuid?organization_id=${w.org.id}`)).status, 400);

  const deleted = await w.del(`/v1/workflows/report/schedules/${s.id}?organization_id=${w.org.id}`);
  t.equal(deleted.status, 200);
  t.equal(deleted.body.data.id, s.id);
  t.equal((await w.del(`/v1/workflows/report/schedules/${s.id}?organization_id=${w.org.id}`)).status, 404, 'once');
  t.same(
    (await w.get(`/v1/workflows/report/schedules?organization_id=${w.org.id}`)).body.data.map((x: any) => x.id),
    [minimal.id, byKey.body.data.id],
  );
});

t.test('a registration carries schedules: created with it, replaced by the next one; a bad one refuses it all', async (t) => {
  const w = await world(t);
  const register = (schedules: unknown) =>
    w.post('/v1/workflows', { organization_id: w.org.id, name: 'nightly', nodes: echoNode, schedules });
  const first = await register([
    { cron: '0 0 2 * * *', timezone: 'America/New_York' },
    { cron: '@hourly', overlap: 'allow' },
  ]);
  t.equal(first.status, 201);
  const list = async () => (await w.get(`/v1/workflows/nightly/schedules?organization_id=${w.org.id}`)).body.data as any[];
  const before = await list();
  t.match(before, [
    { cron: '0 0 2 * * *', timezone: 'America/New_York', overlap: 'skip', workflow_id: first.body.data.id },
    { cron: '@hourly', timezone: 'UTC', overlap: 'allow' },
  ]);

  const bad = await register([{ cron: '0 0 * * *' }, { cron: 'nope' }]);
  t.equal(bad.status, 422);
  t.ok('schedules.1.cron' in bad.body.error.details.fields, JSON.stringify(bad.body.error.details.fields));
  const never = await register([{ cron: '0 0 31 4 *' }]);
  t.equal(never.status, 422);
  t.match(never.body.error.details.fields, { 'schedules.0.cron': /never fires/ });
  t.equal((await w.get(`/v1/workflows/nightly?organization_id=${w.org.id}`)).body.data.version, 1, 'no version was made');
  t.same(await list(), before, 'the schedules are as they were');

  const second = await register([{ cron: '0 0 3 * * *' }]);
  t.equal(second.body.data.version, 2);
  t.match(await list(), [{ cron: '0 0 3 * * *' }], 'the registration’s schedules replace the earlier ones');
  t.equal((await list()).length, 1);
  await w.post('/v1/workflows', { organization_id: w.org.id, name: 'nightly', nodes: echoNode });
  t.equal((await list()).length, 1, 'a registration without schedules keeps them');
  t.equal((await register([])).status, 201);
  t.same(await list(), [], 'an empty list removes them');
});

t.test('every second: runs submitted for the creator; a deleted definition fails its schedule and removes it', async (t) => {
  const w = await world(t);
  const wf = await w.define('tick');
  const s = await w.schedule('tick', { cron: everySecond, input: { who: 'cron' }, state: { from: 'schedule' } });
  const triggered = await fireMatching(w, 'a trigger', (e) => e.kind === 'workflow.schedule.triggered');
  t.match(triggered, {
    organization_id: w.org.id,
    workflow_id: wf.id,
    run_id: String,
    payload: { schedule_id: s.id, run_id: triggered.run_id, scheduled_for: String },
  });
  t.equal(new Date(triggered.payload.scheduled_for).getUTCMilliseconds(), 0, 'a whole second');
  let run: any;
  await waitFor(async () => (run = await w.run(triggered.run_id)).status === 'completed', { what: 'the scheduled run' });
  t.match(run, {
    workflow_id: wf.id,
    schedule_id: s.id,
    input: { who: 'cron' },
    state: { from: 'schedule' },
    submitted_by: { principal_id: w.ownerId, api_key_id: null },
    output: { ask: { text: 'hi cron' } },
  });
  const listed = (await w.get(`/v1/workflows/tick/schedules?organization_id=${w.org.id}`)).body.data[0];
  t.ok(listed.last_run_id, 'the schedule names its last run');
  t.ok(Date.parse(listed.next_run_at) > Date.parse(triggered.payload.scheduled_for), 'and its next fire');

  t.equal((await w.del(`/v1/workflows/tick?organization_id=${w.org.id}`)).status, 200);
  const failed = await fireMatching(w, 'the failed fire', (e) => e.kind === 'workflow.schedule.failed');
  t.match(failed, { workflow_id: wf.id, run_id: null, payload: { schedule_id: s.id, error: { code: 'not_found' } } });
  t.match(failed.payload.error.message, /was deleted/);
  const firesOf = async (id: string) => (await w.fires()).filter((e) => e.payload.schedule_id === id);
  const count = (await firesOf(s.id)).length;
  // Re-registered, the name is a new definition with no schedules; the old schedule never fires again.
  await w.define('tick');
  t.same((await w.get(`/v1/workflows/tick/schedules?organization_id=${w.org.id}`)).body.data, []);
  const more = await w.schedule('tick', { cron: everySecond });
  await waitFor(async () => (await firesOf(more.id)).length >= 2, { what: 'the new schedule fires twice', intervalMs: 100 });
  const old = await firesOf(s.id);
  t.equal(old.length, count, 'the removed schedule fired no more');
  t.equal(old.at(-1).kind, 'workflow.schedule.failed');
});

t.test(
  "a schedule fires with its creator's authority: a removed member's and a revoked key's fail, the operator's fire",
  async (t) => {
    const w = await world(t);
    await w.define('tick');
    // A member schedules; so does an API key of the owner's with the workflows:write scope.
    const memberId = randomUUID();
    const added = await w.post(`/v1/organizations/${w.org.id}/members`, { principal_id: memberId, role: 'member' });
    t.equal(added.status, 201);
    const member = asPrincipal(memberId);
    const byMember = await w.post('/v1/workflows/tick/schedules', { organization_id: w.org.id, cron: everySecond }, member);
    t.equal(byMember.status, 201, JSON.stringify(byMember.body));
    const key = (await w.post('/v1/api-keys', { name: 'sched', organization_id: w.org.id, scopes: ['workflows:write'] })).body
      .data;
    const byKey = await w.post('/v1/workflows/tick/schedules', { cron: everySecond }, bearer(key.raw_key));
    t.equal(byKey.status, 201, JSON.stringify(byKey.body));
    const firesOf = async (id: string) => (await w.fires()).filter((e) => e.payload.schedule_id === id);
    await waitFor(
      async () =>
        (await firesOf(byMember.body.data.id)).some((e) => e.kind === 'workflow.schedule.triggered') &&
        (await firesOf(byKey.body.data.id)).some((e) => e.kind === 'workflow.schedule.triggered'),
      { what: 'both schedules to trigger while their creators may run the workflow', intervalMs: 100 },
    );

    // The member leaves and the key is revoked: their schedules' next fires fail, and submit nothing.
    t.equal((await w.del(`/v1/organizations/${w.org.id}/members/${added.body.data.id}`)).status, 200);
    t.equal((await w.del(`/v1/api-keys/${key.id}`)).status, 200);
    const refused = async (id: string) => {
      const failed = await fireMatching(
        w,
        `a refused fire of ${id}`,
        (e) => e.payload.schedule_id === id && e.kind === 'workflow.schedule.failed',
      );
      t.match(failed, { run_id: null, payload: { error: { code: 'forbidden' } } });
      t.match(failed.payload.error.message, /creator may no longer run workflow tick/);
      return failed;
    };
    const memberFailed = await refused(byMember.body.data.id);
    const keyFailed = await refused(byKey.body.data.id);
    t.match(keyFailed.payload.error.message, /revoked/);
    const runsAfter = async (id: string, after: string) =>
      (await firesOf(id)).filter((e) => e.id > after && e.kind === 'workflow.schedule.triggered');
    // Another second or two: still refused, never triggered again.
    await waitFor(async () => (await firesOf(byMember.body.data.id)).filter((e) => e.id > memberFailed.id).length >= 2, {
      what: "two more fires of the removed member's schedule",
      intervalMs: 100,
    });
    t.same(await runsAfter(byMember.body.data.id, memberFailed.id), [], "the removed member's schedule submits no run");
    t.same(await runsAfter(byKey.body.data.id, keyFailed.id), [], "the revoked key's schedule submits no run");

    // The operator's schedule (gRPC or CLI) always fires.
    const byOperator = await w.d.services.schedules.createSchedule(
      operator,
      'tick',
      createScheduleBody.parse({ organization_id: w.org.id, cron: everySecond }),
    );
    await fireMatching(
      w,
      "the operator's trigger",
      (e) => e.payload.schedule_id === byOperator.id && e.kind === 'workflow.schedule.triggered',
    );
  },
);

t.test('overlap skip: skipped while the previous run goes on, triggered again once it ended', async (t) => {
  // Each provider call streams 8 pieces 400 ms apart: a run lasts over 3 s.
  const w = await world(t, {}, { gapMs: 400, chunks: 6 });
  await w.define('slow', slowNode);
  const s = await w.schedule('slow', { cron: everySecond });
  const first = await fireMatching(w, 'the first trigger', (e) => e.kind === 'workflow.schedule.triggered');
  const skipped = await fireMatching(w, 'a skip', (e) => e.kind === 'workflow.schedule.skipped');
  t.match(skipped, {
    run_id: null,
    payload: { schedule_id: s.id, reason: 'previous_run_active', previous_run_id: first.run_id, scheduled_for: String },
  });
  t.ok(skipped.payload.scheduled_for > first.payload.scheduled_for);
  let ended: any;
  await waitFor(async () => (ended = await w.run(first.run_id)).status === 'completed', { what: 'the first run' });
  const second = await fireMatching(
    w,
    'a trigger after the first run ended',
    (e) => e.kind === 'workflow.schedule.triggered' && e.run_id !== first.run_id,
  );
  t.ok(Date.parse(second.payload.scheduled_for) >= Date.parse(ended.finished_at) - 1000, 'after the first run ended');
  const events = (await w.fires()).filter((e) => Date.parse(e.payload.scheduled_for) < Date.parse(second.payload.scheduled_for));
  t.same(
    [...new Set(events.map((e) => e.kind))].sort(),
    ['workflow.schedule.skipped', 'workflow.schedule.triggered'],
    'until then: the first trigger and skips',
  );
  t.ok(
    events.filter((e) => e.kind === 'workflow.schedule.triggered').length === 1,
    'one run at a time: the first was the only trigger before it ended',
  );
  const runs = (await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&workflow=slow`)).body.data;
  t.ok(runs.length >= 2);
  t.ok(
    runs.every((r: any) => r.schedule_id === s.id),
    'every run names its schedule',
  );
  t.equal((await w.del(`/v1/workflows/slow/schedules/${s.id}?organization_id=${w.org.id}`)).status, 200);
});

t.test('overlap allow: runs overlap; at max_concurrent_runs the schedule skips', async (t) => {
  const w = await world(t);
  await w.define('hang', slowNode);
  t.equal(
    (
      await request(w.d.url, 'PUT', `/v1/organizations/${w.org.id}/settings`, {
        headers: w.owner,
        body: { max_concurrent_runs: 2 },
      })
    ).status,
    200,
  );
  // Every upstream call hangs: a run is in progress until it is cancelled.
  w.openai.enqueue(...Array.from({ length: 20 }, () => ({ kind: 'hang' as const })));
  const s = await w.schedule('hang', { cron: everySecond, overlap: 'allow' });
  let triggers: any[] = [];
  await waitFor(async () => (triggers = (await w.fires()).filter((e) => e.kind === 'workflow.schedule.triggered')).length >= 2, {
    what: 'two triggers',
    intervalMs: 100,
  });
  const [a, b] = triggers;
  const runA = await w.run(a.run_id);
  t.notOk(
    ['completed', 'failed', 'cancelled'].includes(runA.status),
    'the first run is still going when the second is triggered',
  );
  t.not(a.run_id, b.run_id);

  const limited = await fireMatching(
    w,
    'a skip at the bound',
    (e) => e.kind === 'workflow.schedule.skipped' && e.payload.reason === 'concurrency_limit',
  );
  t.match(limited.payload, { schedule_id: s.id, running: 2, max_concurrent_runs: 2 });
  t.equal(
    (await w.fires()).filter((e) => e.kind === 'workflow.schedule.skipped' && e.payload.reason !== 'concurrency_limit').length,
    0,
    'allow never skips for the previous run',
  );
  const running = (await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&status=running`)).body.data;
  t.ok(running.length <= 2, 'never more runs in progress than the bound');

  // A run cancelled frees a slot: the schedule triggers again.
  const before = (await w.fires()).filter((e) => e.kind === 'workflow.schedule.triggered').length;
  for (const r of running) await w.post(`/v1/workflows/runs/${r.id}/cancel`);
  await waitFor(async () => (await w.fires()).filter((e) => e.kind === 'workflow.schedule.triggered').length > before, {
    what: 'a trigger once a slot is free',
    intervalMs: 100,
  });
  t.equal((await w.del(`/v1/workflows/hang/schedules/${s.id}?organization_id=${w.org.id}`)).status, 200);
  for (const r of (await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&status=running`)).body.data)
    await w.post(`/v1/workflows/runs/${r.id}/cancel`);
});

t.test('a fire that throws backs off 1 s, 2 s, 4 s, keeps its fire time, and fires once it can', async (t) => {
  const w = await world(t);
  await w.define('tz');
  const s = await w.schedule('tz', { cron: '0 0 1 1 *' });
  const store = w.d.services.schedules.store;
  const edit = (change: (row: WorkflowSchedule) => void) =>
    w.d.storage.transaction({ locks: [scheduleLock(s.id)] }, async (tx) => {
      const row = await store.editable(tx, s.id);
      if (row === undefined) throw new Error('schedule gone');
      change(row);
      await tx.put(store.schedules, row);
      tx.wake(SCHEDULES_TOPIC);
    });
  // Due now, in a time zone this daemon cannot read (as after an ICU update): every fire throws.
  const dueAt = new Date(Date.now() - 1000).toISOString();
  await edit((row) => {
    row.timezone = 'Mars/Olympus';
    row.next_run_at = dueAt;
  });
  // The wait each failure chose, as stored (retry time less the write's time).
  const waits = new Map<number, number>();
  await waitFor(
    async () => {
      const row = await store.schedules.get(s.id);
      if (row?.fire_failures !== undefined && row.lease_owner === null && row.lease_until !== null)
        waits.set(row.fire_failures, Date.parse(row.lease_until) - Date.parse(row.updated_at));
      return waits.has(3);
    },
    { what: 'three failed fires', intervalMs: 50 },
  );
  t.same([...waits.keys()], [1, 2, 3], 'each failure counted, one at a time');
  for (const [n, wait] of waits) {
    const full = 1000 * 2 ** (n - 1);
    t.ok(wait >= full * 0.8 - 5 && wait <= full, `failure ${n}: retried after ${wait} ms (${full * 0.8} to ${full})`);
  }
  t.same(
    (await w.fires()).filter((e) => e.payload.schedule_id === s.id),
    [],
    'a failed fire is rolled back: no event',
  );

  // The time zone readable again: the retry fires the same fire time, and the count is cleared.
  await edit((row) => {
    row.timezone = 'UTC';
  });
  const fired = await fireMatching(w, 'the retried fire', (e) => e.payload.schedule_id === s.id);
  t.match(fired, { kind: 'workflow.schedule.triggered', payload: { scheduled_for: dueAt } });
  const after = await store.schedules.get(s.id);
  t.equal(after?.fire_failures, undefined);
  t.equal(after?.lease_until, null);
  t.match(after?.next_run_at, /^\d{4}-01-01T00:00:00/);
});

t.test(
  'PostgreSQL: two daemons fire each scheduled second once between them',
  { skip: testPostgres === undefined ? 'PostgreSQL only (test/on-postgres-*.test.ts runs it)' : false },
  async (t) => {
    const w = await world(t, { SERVICE_WORKFLOW_SCHEDULE_TICK_MS: '100' });
    const other = await startTestDaemon(t, {
      SERVICE_DATABASE_URL: w.d.config.databaseUrl!,
      SERVICE_WORKFLOW_SCHEDULE_TICK_MS: '100',
      SERVICE_WORKFLOW_POLL_MS: '200',
    });
    t.ok(other.url !== w.d.url);
    // A wait node: every run waits for input, outside the concurrency bound; `allow` triggers each second.
    await w.define('both', [{ key: 'hold', kind: 'wait' }]);
    const s = await w.schedule('both', { cron: everySecond, overlap: 'allow' });
    const seconds = 6;
    const firesOf = async () => (await w.fires()).filter((e) => e.payload.schedule_id === s.id);
    await waitFor(async () => (await firesOf()).length >= seconds, { what: `${seconds} fires`, intervalMs: 200 });
    t.equal((await w.del(`/v1/workflows/both/schedules/${s.id}?organization_id=${w.org.id}`)).status, 200);
    const fires = await firesOf();
    const byDaemon = new Map<string, number>();
    for (const e of fires) byDaemon.set(e.payload.instance_id, (byDaemon.get(e.payload.instance_id) ?? 0) + 1);
    t.comment(`fires by daemon: ${[...byDaemon.values()].join(' and ')}`);
    const times = fires.map((e) => e.payload.scheduled_for as string);
    t.equal(new Set(times).size, times.length, `each scheduled second fired once (${times.join(', ')})`);
    t.same([...times].sort(), times, 'in order');
    const triggered = fires.filter((e) => e.kind === 'workflow.schedule.triggered');
    t.equal(triggered.length, fires.length, 'every fire triggered a run');
    const runs = (await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&workflow=both&limit=200`)).body.data;
    t.equal(runs.length, triggered.length, 'one run per fire');
    t.same(new Set(runs.map((r: any) => r.id)), new Set(triggered.map((e) => e.run_id)));
  },
);
