// Issue 33 item 6: what one organization's workflows may take. A template that repeats a large value
// stops expanding at the node input limit (the node and run fail with a clear error); definitions,
// schedules, queued and waiting runs are capped per organization (settings under server maximums).
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, untilStatus, type JsonResponse } from './helpers.js';

interface World {
  d: Daemon;
  owner: Record<string, string>;
  org: { id: string };
  post: (path: string, body?: unknown) => Promise<JsonResponse>;
  get: (path: string) => Promise<JsonResponse>;
}

async function world(t: Test, env: Record<string, string> = {}): Promise<World> {
  const d = await startTestDaemon(t, { SERVICE_WORKFLOW_POLL_MS: '100', ...env });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `lim-${randomUUID().slice(0, 8)}`);
  return {
    d,
    owner,
    org,
    post: (path, body = {}) => request(d.url, 'POST', path, { headers: owner, body }),
    get: (path) => request(d.url, 'GET', path, { headers: owner }),
  };
}

t.test('a template repeating a large input stops at the input limit: the node and run fail cleanly', async (t) => {
  const w = await world(t);
  // The review's case: 2,040 copies of one placeholder in a 27 KB definition, and a 250 KB input
  // (512 MB of text once filled in).
  const prompt = Array.from({ length: 2040 }, () => '{{input.big}}').join(' ');
  const defined = await w.post('/v1/workflows', {
    organization_id: w.org.id,
    name: 'amplify',
    nodes: [{ key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt } }],
  });
  t.equal(defined.status, 201);
  const run = await w.post('/v1/workflows/run?name=amplify', { organization_id: w.org.id, input: { big: 'x'.repeat(250_000) } });
  t.equal(run.status, 202);
  const failed = await untilStatus(w.d.url, `/v1/workflows/runs/${run.body.data.id}`, w.owner, 'failed');
  t.match(failed.error, {
    code: 'validation_failed',
    message: /^node ask: input: the input, its templates filled in, is over 1048576 characters/,
  });
  t.equal(failed.node_states.ask.status, 'failed');

  // Whole-value placeholders count too: one object repeated in an array.
  const many = await w.post('/v1/workflows', {
    organization_id: w.org.id,
    name: 'many',
    nodes: [
      {
        key: 'ask',
        kind: 'provider',
        modality: 'embedding',
        model: 'echo',
        input: { texts: Array.from({ length: 200 }, () => '{{input.big}}') },
      },
    ],
  });
  t.equal(many.status, 201);
  const second = await w.post('/v1/workflows/run?name=many', { organization_id: w.org.id, input: { big: 'y'.repeat(10_000) } });
  const failedToo = await untilStatus(w.d.url, `/v1/workflows/runs/${second.body.data.id}`, w.owner, 'failed');
  t.match(failedToo.error.message, /is over 1048576 characters/);

  // Under the limit, the same template runs.
  const small = await w.post('/v1/workflows/run?name=amplify', { organization_id: w.org.id, input: { big: 'ok' } });
  const done = await untilStatus(w.d.url, `/v1/workflows/runs/${small.body.data.id}`, w.owner, 'completed');
  t.equal(done.status, 'completed');
});

t.test('caps on definitions, schedules, queued and waiting runs (organization settings, server maximums)', async (t) => {
  const openai = await FakeOpenAI.start(t);
  const w = await world(t, { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: openai.baseUrl });
  const put = (body: Record<string, unknown>) =>
    request(w.d.url, 'PUT', `/v1/organizations/${w.org.id}/settings`, { headers: w.owner, body });
  const settings = await put({
    max_workflows: 2,
    max_schedules: 2,
    max_queued_runs: 3,
    max_waiting_runs: 1,
    max_concurrent_runs: 1,
  });
  t.equal(settings.status, 200);
  t.match(settings.body.data, { max_workflows: 2, max_schedules: 2, max_queued_runs: 3, max_waiting_runs: 1 });
  const tooHigh = await put({ max_queued_runs: 10_001 });
  t.equal(tooHigh.status, 422, 'a cap past the server maximum');
  t.match(tooHigh.body.error.details.fields, { max_queued_runs: /at most 10000/ });

  const gate = [
    { key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'hi' } },
    { key: 'approve', kind: 'wait' },
  ];
  const slow = [{ key: 'ask', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } }];
  const define = (name: string, nodes: unknown[], extra: Record<string, unknown> = {}) =>
    w.post('/v1/workflows', { organization_id: w.org.id, name, nodes, ...extra });
  t.equal((await define('gate', gate)).status, 201);
  t.equal((await define('slow', slow)).status, 201);
  const third = await define('third', gate);
  t.equal(third.status, 422, 'a third workflow name');
  t.match(third.body.error, { code: 'validation_failed', details: { limit: 'max_workflows', max: 2, fields: { name: String } } });
  t.equal((await define('gate', gate)).status, 201, 'a new version of an existing name is not another workflow');

  // Schedules: two over the organization, whichever workflow holds them (a far-future cron: never fires here).
  const schedule = (name: string) => w.post(`/v1/workflows/${name}/schedules`, { organization_id: w.org.id, cron: '0 0 1 1 *' });
  t.equal((await schedule('gate')).status, 201);
  t.equal((await schedule('slow')).status, 201);
  const over = await schedule('gate');
  t.equal(over.status, 422, 'a third schedule');
  t.match(over.body.error.details, { limit: 'max_schedules', max: 2 });
  const withSchedules = await define('slow', slow, { schedules: [{ cron: '0 0 1 1 *' }, { cron: '0 0 2 1 *' }] });
  t.equal(withSchedules.status, 422, 'a registration whose schedules would pass the cap');
  t.match(withSchedules.body.error.details, { limit: 'max_schedules' });
  t.equal((await define('slow', slow, { schedules: [{ cron: '0 0 3 1 *' }] })).status, 201, 'replacing its own one: room');

  // Waiting runs: one may wait; while it does, a submission is 429.
  const submit = (name: string) => w.post(`/v1/workflows/run?name=${name}`, { organization_id: w.org.id, input: {} });
  const waiting = await submit('gate');
  t.equal(waiting.status, 202);
  await untilStatus(w.d.url, `/v1/workflows/runs/${waiting.body.data.id}`, w.owner, 'waiting');
  const refused = await submit('gate');
  t.equal(refused.status, 429, 'past max_waiting_runs');
  t.match(refused.body.error, { code: 'rate_limited', details: { limit: 'max_waiting_runs', max: 1 } });
  t.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After');

  // Queued runs: a hanging call holds the only slot, so runs queue behind it; three may, the fourth is 429.
  t.equal((await put({ max_waiting_runs: 100 })).status, 200);
  openai.enqueue({ kind: 'hang' });
  const holder = await submit('slow');
  await untilStatus(w.d.url, `/v1/workflows/runs/${holder.body.data.id}`, w.owner, 'running');
  const queued = [await submit('gate'), await submit('gate'), await submit('gate')];
  t.same(
    queued.map((r) => r.status),
    [202, 202, 202],
  );
  const fourth = await submit('gate');
  t.equal(fourth.status, 429, 'past max_queued_runs');
  t.match(fourth.body.error, { code: 'rate_limited', details: { limit: 'max_queued_runs', max: 3 } });
  t.ok(Number(fourth.headers.get('retry-after')) >= 1, 'Retry-After');
  // Another organization is not counted.
  const other = await world(t);
  await other.post('/v1/workflows', { organization_id: other.org.id, name: 'gate', nodes: gate });
  t.equal((await other.post('/v1/workflows/run?name=gate', { organization_id: other.org.id, input: {} })).status, 202);

  t.equal((await w.post(`/v1/workflows/runs/${holder.body.data.id}/cancel`, { organization_id: w.org.id })).status, 200);
  for (const r of queued) await w.post(`/v1/workflows/runs/${r.body.data.id}/cancel`, { organization_id: w.org.id });
  t.equal((await submit('gate')).status, 202, 'room again once the queue drained');
});
