// Issue 16's first "must show": a run of two nodes (text, then an image from the text) whose events
// reach webhooks with the state echo (and resource_filter on the run and on the definition), whose
// output_url answers with an artifact that downloads through its signed link (not after expiry, not
// with one changed character), and whose live event stream replays, follows and resumes.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon, untilStatus, waitFor } from './helpers.js';

interface World {
  d: Daemon;
  owner: Record<string, string>;
  org: { id: string };
  key: Record<string, string>;
}

async function world(t: Test): Promise<World> {
  const d = await startTestDaemon(t, {
    SERVICE_WORKFLOW_POLL_MS: '200',
    SERVICE_WEBHOOK_ALLOW_PRIVATE: '1',
    SERVICE_WEBHOOK_RETRY_BASE_MS: '100',
  });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `out-${randomUUID().slice(0, 8)}`);
  const created = await request(d.url, 'POST', '/v1/api-keys', {
    headers: owner,
    body: { name: 'runner', organization_id: org.id, scopes: ['workflows:read', 'workflows:write'] },
  });
  return { d, owner, org, key: bearer(created.body.data.raw_key) };
}

const posterNodes = [
  { key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'A poster about {{input.topic}}' } },
  { key: 'poster', kind: 'provider', modality: 'image', model: 'echo', input: { prompt: '{{nodes.draft.output.text}}' } },
];

async function runToEnd(w: World, name: string, body: Record<string, unknown>): Promise<any> {
  const submitted = await request(w.d.url, 'POST', `/v1/workflows/run?name=${name}`, { headers: w.key, body });
  if (submitted.status !== 202) throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  return untilStatus(w.d.url, `/v1/workflows/runs/${submitted.body.data.id}`, w.key);
}

t.test('webhooks receive every event with the state echo; resource_filter on the run and the definition', async (t) => {
  const w = await world(t);
  const defined = await request(w.d.url, 'POST', '/v1/workflows', {
    headers: w.key,
    body: { name: 'poster', nodes: posterNodes },
  });
  t.equal(defined.status, 201);
  const other = await request(w.d.url, 'POST', '/v1/workflows', {
    headers: w.key,
    body: { name: 'other', nodes: [posterNodes[0]] },
  });
  const [all, byDefinition, byOther] = await Promise.all([
    WebhookReceiver.start(t),
    WebhookReceiver.start(t),
    WebhookReceiver.start(t),
  ]);
  const hook = async (url: string, body: Record<string, unknown>) => {
    const res = await request(w.d.url, 'POST', `/v1/organizations/${w.org.id}/webhooks`, {
      headers: w.owner,
      body: { url, ...body },
    });
    t.equal(res.status, 201);
  };
  await hook(all.url, { state: { consumer: 'all' } });
  await hook(byDefinition.url, { resource_filter: { workflow_definition_id: defined.body.data.id } });
  await hook(byOther.url, { resource_filter: { workflow_definition_id: other.body.data.id } });

  const run = await runToEnd(w, 'poster', { input: { topic: 'otters' }, state: { order: 'A-1' } });
  t.equal(run.status, 'completed');
  const expected = [
    'workflow.run.created',
    'workflow.run.queued',
    'workflow.run.started',
    'workflow.node.started',
    'workflow.node.completed',
    'workflow.node.started',
    'workflow.node.completed',
    'workflow.run.completed',
  ];
  // Deliveries run side by side (at least once, no order promised): read them in commit order (event ids).
  const bodies = (receiver: WebhookReceiver) =>
    receiver.received.map((r) => JSON.parse(r.body)).sort((a, b) => ((a.event ?? a).id < (b.event ?? b).id ? -1 : 1));
  await waitFor(() => all.received.length >= expected.length && byDefinition.received.length >= expected.length, {
    what: 'every event delivered',
  });
  const received = bodies(all);
  t.same(
    received.map((b) => b.event.kind),
    expected,
    'every event, once each, with the webhook state around it',
  );
  t.ok(
    received.every((b) => b.state.consumer === 'all'),
    'the webhook state',
  );
  const completed = received.at(-1).event;
  t.same(completed.payload.state, { order: 'A-1' }, 'the run state echoed in the terminal event');
  t.equal(completed.payload.output_url, `${w.d.url}/v1/workflows/runs/${run.id}/output`);
  t.same(
    bodies(byDefinition).map((e) => e.kind),
    expected,
    'the definition filter matches its runs',
  );

  // A filter on the run: a run held at a wait node gets a webhook of its own; another run's events do not reach it.
  await request(w.d.url, 'POST', '/v1/workflows', {
    headers: w.key,
    body: { name: 'gate', nodes: [{ key: 'approve', kind: 'wait' }] },
  });
  const gated = (await request(w.d.url, 'POST', '/v1/workflows/run?name=gate', { headers: w.key, body: {} })).body.data;
  await waitFor(
    async () =>
      (await request(w.d.url, 'GET', `/v1/workflows/runs/${gated.id}`, { headers: w.key })).body.data.status === 'waiting',
    { what: 'the gated run to wait' },
  );
  // The fan-out runs just behind commits, and a webhook made before it reached an event still gets
  // it (docs/webhooks.md): wait until it has passed the gated run's events so far (the catch-all
  // webhook has them), so that the run's webhook owes exactly the events after it.
  await waitFor(
    () =>
      all.received.some(
        (r) => JSON.parse(r.body).event.run_id === gated.id && JSON.parse(r.body).event.kind === 'workflow.run.waiting',
      ),
    { what: "the gated run's waiting event fanned out" },
  );
  const byRun = await WebhookReceiver.start(t);
  await hook(byRun.url, { resource_filter: { workflow_run_id: gated.id } });
  const unrelated = await runToEnd(w, 'other', { input: { topic: 'seals' } });
  await request(w.d.url, 'POST', `/v1/workflows/runs/${gated.id}/input`, {
    headers: w.key,
    body: { node_key: 'approve', input: {} },
  });
  // Deliveries run side by side: wait for the four events the run commits after the webhook, not the last one alone.
  await waitFor(() => byRun.received.length >= 4, { what: "the gated run's events after the webhook, delivered" });
  await waitFor(
    () =>
      byOther.received.some(
        (r) => JSON.parse(r.body).run_id === unrelated.id && JSON.parse(r.body).kind === 'workflow.run.completed',
      ),
    {
      what: "the other definition's run delivered",
    },
  );
  t.same(
    bodies(byRun).map((e) => e.kind),
    ['workflow.node.completed', 'workflow.run.queued', 'workflow.run.started', 'workflow.run.completed'],
    "the run filter: that run's events after the webhook was made, and no other run's",
  );
  t.ok(
    bodies(byOther).every((e) => e.workflow_id === other.body.data.id),
    'the other definition filter saw only its own runs',
  );
});

t.test('output_url answers with an API key; the artifact downloads with its signed link, not altered or expired', async (t) => {
  const w = await world(t);
  await request(w.d.url, 'POST', '/v1/workflows', { headers: w.key, body: { name: 'poster', nodes: posterNodes } });
  const run = await runToEnd(w, 'poster', { input: { topic: 'otters' } });
  t.match(run.output.poster, { images: [{ asset_id: String, content_type: 'image/png' }] }, 'the image became an asset');
  t.notMatch(JSON.stringify(run.output), /iVBOR/, 'no base64 left in the output');
  const output = await request(w.d.url, 'GET', `/v1/workflows/runs/${run.id}/output`, { headers: w.key });
  t.equal(output.status, 200);
  t.match(output.body.data, { run_id: run.id, status: 'completed', output: { draft: { text: 'A poster about otters' } } });
  const [artifact] = output.body.data.artifacts;
  t.match(artifact, {
    asset_id: run.output.poster.images[0].asset_id,
    filename: 'poster-1.png',
    content_type: 'image/png',
    download_url: /\/v1\/assets\/.+\?expires=\d+&signature=[0-9a-f]{64}$/,
  });
  t.ok(Math.abs(Date.parse(artifact.download_url_expires_at) - Date.now() - 3600_000) < 60_000, 'an hour by default');

  const download = await fetch(artifact.download_url);
  t.equal(download.status, 200);
  t.equal(download.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await download.arrayBuffer());
  t.equal(bytes.subarray(1, 4).toString(), 'PNG');
  t.equal(Number(download.headers.get('content-length')), bytes.length);

  const url = new URL(artifact.download_url);
  const signature = url.searchParams.get('signature')!;
  url.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
  t.equal((await fetch(url)).status, 403, 'one changed character: 403');
  const short = await request(w.d.url, 'GET', `/v1/workflows/runs/${run.id}/output?expires_in=1`, { headers: w.key });
  const expiring = short.body.data.artifacts[0].download_url as string;
  await waitFor(async () => (await fetch(expiring)).status === 403, { what: 'the one-second link to expire', intervalMs: 200 });
  t.pass('after expiry: 403');
  t.equal(
    (await request(w.d.url, 'GET', `/v1/workflows/runs/${run.id}/output?expires_in=86401`, { headers: w.key })).status,
    422,
    'more than 24 hours: 422',
  );
  const asPerson = await request(w.d.url, 'GET', `/v1/workflows/runs/${run.id}/output`, { headers: w.owner });
  t.equal(asPerson.status, 401, 'the output route takes an API key');
  const stranger = asPrincipal(randomUUID());
  const elsewhere = await createOrganizationAs(w.d.url, stranger, `else-${randomUUID().slice(0, 8)}`);
  const strangerKey = await request(w.d.url, 'POST', '/v1/api-keys', {
    headers: stranger,
    body: { name: 'k', organization_id: elsewhere.id },
  });
  t.equal(
    (await request(w.d.url, 'GET', `/v1/workflows/runs/${run.id}/output`, { headers: bearer(strangerKey.body.data.raw_key) }))
      .status,
    404,
    "another organization's run output is 404",
  );
});

/** Reads an SSE response until it ends (the server ends it after the terminal event) or `max` frames. */
async function frames(res: Response, max = 100): Promise<{ id: string; event: string; data: any }[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('id: '))
    .slice(0, max)
    .map((block) => {
      const lines = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      return { id: lines.id, event: lines.event, data: JSON.parse(lines.data) };
    });
}

t.test('the live event stream: history, then live, ends after the terminal event; Last-Event-ID resumes', async (t) => {
  const w = await world(t);
  await request(w.d.url, 'POST', '/v1/workflows', {
    headers: w.key,
    body: {
      name: 'gate',
      nodes: [
        { key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'hello' } },
        { key: 'approve', kind: 'wait' },
      ],
    },
  });
  const run = (await request(w.d.url, 'POST', '/v1/workflows/run?name=gate', { headers: w.key, body: {} })).body.data;
  await waitFor(
    async () =>
      (await request(w.d.url, 'GET', `/v1/workflows/runs/${run.id}`, { headers: w.key })).body.data.status === 'waiting',
    { what: 'the run to wait' },
  );
  // Opened while the run waits: the history comes at once, the rest when the input is given.
  const stream = fetch(`${w.d.url}/v1/workflows/runs/${run.id}/events`, { headers: w.key });
  const res = await stream;
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/event-stream/);
  const reading = frames(res);
  const answered = await request(w.d.url, 'POST', `/v1/workflows/runs/${run.id}/input`, {
    headers: w.key,
    body: { node_key: 'approve', input: { ok: true } },
  });
  t.equal(answered.status, 200);
  const seen = await reading;
  t.same(
    seen.map((f) => f.event),
    [
      'workflow.run.created',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.node.started',
      'workflow.node.completed',
      'workflow.run.waiting',
      'workflow.node.completed',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.run.completed',
    ],
    'history, then live, to the terminal event; then the stream ends',
  );
  t.ok(
    seen.every((f) => f.data.id === f.id && f.data.run_id === run.id),
    'id: the event id; data: the event',
  );
  const resumed = await frames(
    await fetch(`${w.d.url}/v1/workflows/runs/${run.id}/events`, { headers: { ...w.key, 'last-event-id': seen[6].id } }),
  );
  t.same(
    resumed.map((f) => f.id),
    seen.slice(7).map((f) => f.id),
    'Last-Event-ID: what came after it',
  );
  t.equal((await fetch(`${w.d.url}/v1/workflows/runs/${randomUUID()}/events`, { headers: w.key })).status, 404);
});
