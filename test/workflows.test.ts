// Contract 12 and issue 16: workflow definitions (validated graphs, versions), runs through the
// provider layer (echo, and the OpenAI fake for slow, hanging or streamed calls), every stage's
// event in order, cancel, pause, resume, promote, wait nodes answered through /input, a failing node,
// the per-organization bound under 50 submissions, scopes and roles, another organization's run 404.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { FakeOpenAI } from './fakes/openai.js';
import {
  asPrincipal,
  bearer,
  createOrganizationAs,
  request,
  startTestDaemon,
  untilStatus,
  waitFor,
  type JsonResponse,
} from './helpers.js';

interface World {
  d: Daemon;
  openai: FakeOpenAI;
  owner: Record<string, string>;
  org: { id: string };
  post: (path: string, body?: unknown, headers?: Record<string, string>) => Promise<JsonResponse>;
  get: (path: string, headers?: Record<string, string>) => Promise<JsonResponse>;
  define: (name: string, nodes: unknown[]) => Promise<any>;
  submit: (name: string, body?: Record<string, unknown>) => Promise<any>;
  finished: (runId: string, status?: string) => Promise<any>;
  /** The organization's events, in commit order: one run's, or every one. */
  events: (runId?: string) => Promise<any[]>;
}

async function world(t: Test, env: Record<string, string> = {}, fake: { gapMs?: number; chunks?: number } = {}): Promise<World> {
  const openai = await FakeOpenAI.start(t, fake);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
    SERVICE_WORKFLOW_POLL_MS: '200',
    SERVICE_PUBLIC_URL: 'https://switchyard.example.test',
    ...env,
  });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `wf-${randomUUID().slice(0, 8)}`);
  const post = (path: string, body: unknown = {}, headers = owner) => request(d.url, 'POST', path, { headers, body });
  const get = (path: string, headers = owner) => request(d.url, 'GET', path, { headers });
  const define = async (name: string, nodes: unknown[]) => {
    const res = await post('/v1/workflows', { organization_id: org.id, name, nodes });
    if (res.status !== 201) throw new Error(`defining ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const submit = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await post(`/v1/workflows/run?name=${name}`, { organization_id: org.id, input: {}, ...body });
    if (res.status !== 202) throw new Error(`running ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const finished = (runId: string, status?: string) => untilStatus(d.url, `/v1/workflows/runs/${runId}`, owner, status);
  const events = async (runId?: string) => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/v1/organizations/${org.id}/events?limit=200${cursor === null ? '' : `&cursor=${cursor}`}`);
      all.push(...res.body.data);
      cursor = res.body.meta.next_cursor;
    } while (cursor !== null);
    return runId === undefined ? all : all.filter((e) => e.run_id === runId);
  };
  return { d, openai, owner, org, post, get, define, submit, finished, events };
}

const twoNodes = [
  { key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'A poster about {{input.topic}}' } },
  {
    key: 'poster',
    kind: 'provider',
    modality: 'image',
    model: 'echo',
    input: { prompt: '{{nodes.draft.output.text}}', size: '256x256' },
  },
];

t.test('a run of two nodes (text, then an image from the text): every event in order, output and state', async (t) => {
  const w = await world(t);
  const wf = await w.define('poster', twoNodes);
  t.match(wf, {
    name: 'poster',
    version: 1,
    nodes: [
      { key: 'draft', needs: [] },
      { key: 'poster', needs: ['draft'] },
    ],
  });
  const run = await w.submit('poster', { input: { topic: 'otters' }, state: { ticket: 42 }, priority: 7 });
  t.match(run, {
    workflow_id: wf.id,
    workflow_name: 'poster',
    version: 1,
    status: 'queued',
    input: { topic: 'otters' },
    state: { ticket: 42 },
    priority: 7,
  });
  const done = await w.finished(run.id, 'completed');
  t.equal(done.node_states.draft.status, 'completed');
  t.equal(done.node_states.draft.provider, 'echo', 'routed to the basic tier: echo');
  t.same(done.output.draft, { text: 'A poster about otters' }, 'the template filled from the run input');
  t.equal(done.node_states.poster.status, 'completed');
  t.match(done.output.poster, { images: [{ content_type: 'image/png' }] });
  t.same(done.state, { ticket: 42 }, 'the run keeps its state');
  t.ok(done.instance_id, 'the daemon instance that ran it');

  const kinds = (await w.events(run.id)).map((e) => [e.kind, e.node_key]);
  t.same(kinds, [
    ['workflow.run.created', null],
    ['workflow.run.queued', null],
    ['workflow.run.started', null],
    ['workflow.node.started', 'draft'],
    ['workflow.node.completed', 'draft'],
    ['workflow.node.started', 'poster'],
    ['workflow.node.completed', 'poster'],
    ['workflow.run.completed', null],
  ]);
  const all = await w.events(run.id);
  t.ok(
    all.every((e) => e.workflow_id === wf.id && e.run_id === run.id && e.job_id === null),
    'every event names the definition and the run',
  );
  t.same(all.at(-1).payload, {
    state: { ticket: 42 },
    output_url: `https://switchyard.example.test/v1/workflows/runs/${run.id}/output`,
    instance_id: done.instance_id,
  });
  t.match(all[4].payload, { provider: 'echo', output: { text: 'A poster about otters' } });

  // A new version: new runs use it; the earlier run keeps its own copy of the nodes.
  const v2 = await w.define('poster', [twoNodes[0]]);
  t.match(v2, { id: wf.id, version: 2 });
  const second = await w.finished((await w.submit('poster', { input: { topic: 'seals' } })).id, 'completed');
  t.equal(second.version, 2);
  t.same(Object.keys(second.node_states), ['draft']);
  t.equal((await w.get(`/v1/workflows/runs/${run.id}`)).body.data.nodes.length, 2);

  const listed = await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&workflow=poster`);
  t.same(
    listed.body.data.map((r: any) => r.id),
    [run.id, second.id],
    'runs of the workflow, oldest first',
  );
  const byStatus = await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&status=completed`);
  t.equal(byStatus.body.data.length, 2);
});

t.test('registration is validated: every failing node is named (422)', async (t) => {
  const w = await world(t);
  const refuse = async (nodes: unknown[], name = 'bad') => {
    const res = await w.post('/v1/workflows', { organization_id: w.org.id, name, nodes });
    t.equal(res.status, 422, JSON.stringify(nodes).slice(0, 80));
    return res.body.error;
  };
  t.match((await refuse([{ key: 'a', kind: 'provider', modality: 'text', needs: ['ghost'] }])).details.fields, {
    'nodes[0].needs': /needs ghost, which is not a node/,
  });
  t.match(
    (
      await refuse([
        { key: 'a', kind: 'provider', modality: 'text', needs: ['b'] },
        { key: 'b', kind: 'provider', modality: 'text', needs: ['a'] },
      ])
    ).message,
    /form a cycle/,
  );
  t.match((await refuse([{ key: 'a', kind: 'provider', modality: 'video' }])).details.fields, { 'nodes.0.modality': String });
  t.match((await refuse([{ key: 'a', kind: 'provider' }])).details.fields, { 'nodes[0].modality': /needs a modality/ });
  t.match(
    (await refuse([{ key: 'a', kind: 'provider', modality: 'text', input: { prompt: '{{nodes.ghost.output.text}}' } }])).details
      .fields,
    { 'nodes[0].input.prompt': /reads node ghost, which is not a node/ },
  );
  t.match(
    (
      await refuse([
        { key: 'a', kind: 'provider', modality: 'text', input: { prompt: 'x' } },
        { key: 'b', kind: 'provider', modality: 'text', needs: [], input: { prompt: '{{nodes.a.output.text}}' } },
      ])
    ).details.fields,
    { 'nodes[1].input.prompt': /without needing it/ },
  );
  t.match(
    (await refuse([{ key: 'a', kind: 'provider', modality: 'text', input: { prompt: '{{env.SECRET}}' } }])).details.fields,
    {
      'nodes[0].input.prompt': /not a reference/,
    },
  );
  t.match(
    (
      await refuse([
        { key: 'a', kind: 'wait' },
        { key: 'a', kind: 'wait' },
      ])
    ).details.fields,
    { 'nodes[1].key': /defined twice/ },
  );
  t.match((await refuse([{ key: 'a', kind: 'wait' }], 'runs')).details.fields, { name: /reserved/ });
  t.equal((await w.get(`/v1/workflows?organization_id=${w.org.id}`)).body.data.length, 0, 'nothing was registered');
  t.equal((await w.get(`/v1/workflows/nope?organization_id=${w.org.id}`)).status, 404);
  t.equal((await w.post(`/v1/workflows/run?name=nope`, { organization_id: w.org.id, input: {} })).status, 404);
});

t.test('a failing node fails the run with its error; a template without a value too', async (t) => {
  const w = await world(t);
  await w.define('unroutable', [
    { key: 'ask', kind: 'provider', modality: 'text', model: 'no-such-model', input: { prompt: 'hi' } },
  ]);
  const run = await w.submit('unroutable', { state: { n: 1 } });
  const failed = await w.finished(run.id, 'failed');
  t.match(failed.error, { code: 'no_provider', message: /^node ask: no provider can serve/ });
  t.equal(failed.node_states.ask.status, 'failed');
  const events = await w.events(run.id);
  t.same(
    events.map((e) => e.kind),
    [
      'workflow.run.created',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.node.started',
      'workflow.node.failed',
      'workflow.run.failed',
    ],
  );
  t.match(events.at(-1).payload, { state: { n: 1 }, output_url: String, instance_id: String, error: { code: 'no_provider' } });

  await w.define('missing', [
    { key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: '{{input.topic}}' } },
  ]);
  const bad = await w.finished((await w.submit('missing', { input: {} })).id, 'failed');
  t.match(bad.error, { code: 'validation_failed', message: /\{\{input\.topic\}\} has no value/ });
});

t.test('cancel mid-run stops the provider call; pause and resume; a wait node answered through /input', async (t) => {
  const w = await world(t);
  await w.define('slow', [{ key: 'ask', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } }]);
  w.openai.enqueue({ kind: 'hang' });
  const run = await w.submit('slow', { state: { s: 'x' } });
  await waitFor(() => w.openai.calls('/v1/chat/completions').length === 1, { what: 'the call upstream' });
  const cancelled = await w.post(`/v1/workflows/runs/${run.id}/cancel`);
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.data.status, 'cancelled');
  await waitFor(() => w.openai.calls('/v1/chat/completions')[0].aborted, { what: 'the upstream call aborted' });
  const events = await w.events(run.id);
  t.match(events.at(-1), { kind: 'workflow.run.cancelled', payload: { state: { s: 'x' }, output_url: String } });
  t.equal((await w.post(`/v1/workflows/runs/${run.id}/cancel`)).body.error.code, 'invalid_state', 'once ended, 409');
  t.equal((await w.post(`/v1/workflows/runs/${run.id}/cancel`)).status, 409);

  await w.define('approve', [
    { key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'draft for {{input.who}}' } },
    { key: 'review', kind: 'wait' },
    {
      key: 'final',
      kind: 'provider',
      modality: 'text',
      model: 'echo',
      input: { prompt: '{{nodes.review.output.verdict}}: {{nodes.draft.output.text}}' },
    },
  ]);
  const waiting = await w.submit('approve', { input: { who: 'ada' } });
  const atWait = await w.finished(waiting.id, 'waiting');
  t.equal(atWait.node_states.review.status, 'waiting');
  t.equal(
    (await w.post(`/v1/workflows/runs/${waiting.id}/input`, { node_key: 'final', input: {} })).body.error.code,
    'invalid_state',
    'only a waiting wait node takes input',
  );
  // Paused while waiting: the input is kept, and nothing starts until it is resumed.
  t.equal((await w.post(`/v1/workflows/runs/${waiting.id}/pause`)).body.data.status, 'paused');
  const answered = await w.post(`/v1/workflows/runs/${waiting.id}/input`, { node_key: 'review', input: { verdict: 'approved' } });
  t.equal(answered.status, 200);
  t.equal(answered.body.data.node_states.review.status, 'completed');
  t.equal(answered.body.data.status, 'paused');
  t.equal((await w.get(`/v1/workflows/runs/${waiting.id}`)).body.data.node_states.final.status, 'pending');
  t.equal((await w.post(`/v1/workflows/runs/${waiting.id}/resume`)).body.data.status, 'queued');
  const done = await w.finished(waiting.id, 'completed');
  t.same(done.output.final, { text: 'approved: draft for ada' });
  t.same(
    (await w.events(waiting.id)).map((e) => e.kind + (e.node_key === null ? '' : `:${e.node_key}`)),
    [
      'workflow.run.created',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.node.started:draft',
      'workflow.node.completed:draft',
      'workflow.run.waiting',
      'workflow.run.paused',
      'workflow.node.completed:review',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.node.started:final',
      'workflow.node.completed:final',
      'workflow.run.completed',
    ],
  );
});

t.test('the bound: 50 submissions, never more than max_concurrent_runs at once; promote jumps the queue', async (t) => {
  const w = await world(t, {}, { gapMs: 30, chunks: 3 });
  t.equal(
    (
      await request(w.d.url, 'PUT', `/v1/organizations/${w.org.id}/settings`, {
        headers: w.owner,
        body: { max_concurrent_runs: 2 },
      })
    ).status,
    200,
  );
  await w.define('stream', [
    { key: 'ask', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: '{{input.n}}' } },
  ]);
  // 49 at once, then the 50th on its own, so it is the last in the queue whatever order the 49 commit in.
  const runs = await Promise.all(Array.from({ length: 49 }, (_, n) => w.submit('stream', { input: { n: String(n) } })));
  runs.push(await w.submit('stream', { input: { n: '49' } }));
  // The last one submitted is promoted: no run still queued at that moment starts before it.
  const last = runs.at(-1);
  const promoted = await w.post(`/v1/workflows/runs/${last.id}/promote`);
  t.equal(promoted.status, 200);
  t.ok(promoted.body.data.promoted_at, 'promoted');
  // Runs in progress, sampled while the queue drains: the bound holds across all 50.
  let most = 0;
  const sampler = setInterval(() => {
    void w.get(`/v1/workflows/runs?organization_id=${w.org.id}&status=running&limit=200`).then((res) => {
      most = Math.max(most, res.body.data?.length ?? 0);
    });
  }, 20);
  t.teardown(() => clearInterval(sampler));
  const list = async (status: string) =>
    (await w.get(`/v1/workflows/runs?organization_id=${w.org.id}&status=${status}&limit=200`)).body.data as any[];
  let ended: any[] = [];
  await waitFor(async () => (ended = await list('completed')).length === 50, { what: 'all 50 runs completed', intervalMs: 50 });
  clearInterval(sampler);
  t.equal(ended.length, 50, 'all 50 completed');
  t.ok(most <= 2, `at most 2 running at once (saw ${most})`);
  t.ok(most >= 1, 'the sampler saw runs running');
  // In commit order (event ids): every run that started after the promotion started after the promoted run.
  const events = await w.events();
  const idOf = (kind: string, runId: string) => events.find((e) => e.kind === kind && e.run_id === runId)?.id as string;
  const promotion = idOf('workflow.run.promoted', last.id);
  const promotedStart = idOf('workflow.run.started', last.id);
  t.ok(promotion && promotedStart, 'workflow.run.promoted and its start');
  const jumped = runs
    .filter((r) => r.id !== last.id)
    .map((r) => idOf('workflow.run.started', r.id))
    .filter((started) => started > promotion && started < promotedStart);
  t.same(jumped, [], 'no run queued at the promotion started before the promoted run');
});

t.test('scopes and roles: a read-only key cannot submit; a viewer cannot; another organization sees 404', async (t) => {
  const w = await world(t);
  await w.define('hello', [{ key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'hi' } }]);
  const key = async (scopes: string[]) =>
    (await w.post('/v1/api-keys', { name: `k-${randomUUID().slice(0, 6)}`, organization_id: w.org.id, scopes })).body.data
      .raw_key;
  const reader = bearer(await key(['workflows:read']));
  const writer = bearer(await key(['workflows:write']));
  const run = (await w.post('/v1/workflows/run?name=hello', { input: {} }, writer)).body.data;
  t.equal(run.status, 'queued', 'a key submits in its own organization without naming it');
  t.equal((await w.get(`/v1/workflows/runs/${run.id}`, reader)).status, 200);
  const refused = await w.post('/v1/workflows/run?name=hello', { input: {} }, reader);
  t.equal(refused.status, 403);
  t.equal(refused.body.error.code, 'insufficient_scope');
  t.equal((await w.get('/v1/workflows', writer)).status, 403, 'reading needs workflows:read');

  const viewer = randomUUID();
  t.equal(
    (await w.post(`/v1/organizations/${w.org.id}/members`, { principal_id: viewer, role: 'viewer' })).status,
    201,
    'a viewer joins',
  );
  t.equal((await w.get(`/v1/workflows/runs/${run.id}`, asPrincipal(viewer))).status, 200, 'a viewer reads runs');
  t.equal(
    (await w.post('/v1/workflows/run?name=hello', { organization_id: w.org.id, input: {} }, asPrincipal(viewer))).status,
    403,
    'a viewer cannot submit',
  );
  t.equal((await w.post(`/v1/workflows/runs/${run.id}/cancel`, {}, asPrincipal(viewer))).status, 403);

  const stranger = asPrincipal(randomUUID());
  await createOrganizationAs(w.d.url, stranger, `other-${randomUUID().slice(0, 8)}`);
  t.equal((await w.get(`/v1/workflows/runs/${run.id}`, stranger)).status, 404, "another organization's run is 404");
  t.equal((await w.post(`/v1/workflows/runs/${run.id}/cancel`, {}, stranger)).status, 404);
  t.equal((await w.get(`/v1/workflows/hello?organization_id=${w.org.id}`, stranger)).status, 404);
  await w.finished(run.id, 'completed');
});

t.test('a streamed node reports progress at most once a second; pausing a running run keeps its node in flight', async (t) => {
  const w = await world(t, {}, { gapMs: 300, chunks: 12 });
  await w.define('long', [
    { key: 'write', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'a long answer' } },
    { key: 'after', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'then {{nodes.write.output.text}}' } },
  ]);
  const run = await w.submit('long');
  await waitFor(() => w.openai.calls('/v1/chat/completions').length === 1, { what: 'the streamed call upstream' });
  // Paused while its first node streams: that node finishes and is kept, the next one does not start.
  const paused = await w.post(`/v1/workflows/runs/${run.id}/pause`);
  t.equal(paused.body.data.status, 'paused');
  await waitFor(async () => (await w.get(`/v1/workflows/runs/${run.id}`)).body.data.node_states.write.status === 'completed', {
    what: 'the node in flight to finish while paused',
  });
  const held = (await w.get(`/v1/workflows/runs/${run.id}`)).body.data;
  t.equal(held.status, 'paused');
  t.same(held.output.write, { text: 'Hello from the fake OpenAI.' }, 'its output is kept');
  t.equal(held.node_states.after.status, 'pending', 'no node starts while paused');
  t.equal((await w.post(`/v1/workflows/runs/${run.id}/resume`)).body.data.status, 'queued');
  const done = await w.finished(run.id, 'completed');
  t.same(done.output.after, { text: 'then Hello from the fake OpenAI.' });

  const progress = (await w.events(run.id)).filter((e) => e.kind === 'workflow.node.progress');
  t.ok(progress.length >= 2, `progress while the stream advanced (${progress.length})`);
  t.ok(
    progress.every((e) => e.node_key === 'write' && e.workflow_id !== null && e.run_id === run.id),
    'progress events name the node',
  );
  const characters = progress.map((e) => e.payload.characters as number);
  t.same(
    characters,
    [...characters].sort((a, b) => a - b),
    'characters only grow',
  );
  const times = progress.map((e) => Date.parse(e.timestamp));
  t.ok(
    times.every((at, i) => i === 0 || at - times[i - 1] >= 900),
    'at most one a second',
  );
});

t.test('nodes whose needs are done run in parallel; a node that needs two waits for both', async (t) => {
  const w = await world(t, {}, { gapMs: 100, chunks: 3 });
  await w.define('fan', [
    { key: 'topic', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'tides' } },
    {
      key: 'left',
      kind: 'provider',
      modality: 'text',
      model: 'gpt-4o-mini',
      input: { prompt: 'left {{nodes.topic.output.text}}' },
    },
    {
      key: 'right',
      kind: 'provider',
      modality: 'text',
      model: 'gpt-4o-mini',
      needs: ['topic'],
      input: { prompt: 'right {{nodes.topic.output.text}}' },
    },
    {
      key: 'join',
      kind: 'provider',
      modality: 'text',
      model: 'echo',
      needs: ['left', 'right'],
      input: { prompt: '{{nodes.left.output.text}} + {{nodes.right.output.text}}' },
    },
  ]);
  const run = await w.submit('fan');
  const done = await w.finished(run.id, 'completed');
  t.same(done.output.join, { text: 'Hello from the fake OpenAI. + Hello from the fake OpenAI.' });
  const order = (await w.events(run.id))
    .filter((e) => e.node_key !== null && e.kind !== 'workflow.node.progress')
    .map((e) => `${e.kind.slice('workflow.node.'.length)}:${e.node_key}`);
  const at = (entry: string) => order.indexOf(entry);
  t.ok(
    at('started:right') < at('completed:left') && at('started:left') < at('completed:right'),
    `left and right overlap: ${order.join(' ')}`,
  );
  t.ok(at('started:join') > at('completed:left') && at('started:join') > at('completed:right'), 'join starts after both');
  const prompts = w.openai.calls('/v1/chat/completions').map((r) => JSON.stringify(r.body));
  t.ok(prompts.some((p) => p.includes('left tides')) && prompts.some((p) => p.includes('right tides')), 'each read the topic');
});
