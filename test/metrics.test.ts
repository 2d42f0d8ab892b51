import { randomUUID } from 'node:crypto';
import t from 'tap';
import { FakeOpenAI } from './fakes/openai.js';
import {
  asPrincipal,
  bearer,
  createOrganizationAs,
  request,
  spawnSwitchyard,
  startTestDaemon,
  untilStatus,
  waitFor,
} from './helpers.js';

// GET /metrics on its own listener, read with a parser of the Prometheus text format: after a known
// mix of requests, the counters moved by exactly what was done.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The text exposition format (0.0.4): `# HELP`/`# TYPE` lines, then `name{label="value",...} number`.
 * Strict: a line that is neither is an error, so a malformed exposition fails the test.
 */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  const line = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('# HELP ') || raw.startsWith('# TYPE ')) continue;
    const m = line.exec(raw);
    if (m === null) throw new Error(`not a sample line: ${raw}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(label))
      labels[k] = v.replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') throw new Error(`not a number: ${raw}`);
    samples.push({ name: m[1], labels, value });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

t.test('/metrics counts what was done, on its own listener only', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_METRICS_ADDR: '127.0.0.1:0' });
  t.ok(d.metricsAddress, 'a metrics listener');
  const scrape = async () => {
    const res = await fetch(`http://${d.metricsAddress!}/metrics`);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /text\/plain/);
    return parsePrometheus(await res.text());
  };
  t.equal((await request(d.url, 'GET', '/metrics')).status, 404, 'not on the public listener');
  t.equal((await fetch(`http://${d.metricsAddress!}/other`)).status, 404, 'only /metrics there');

  const owner = randomUUID();
  const stranger = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'measured');
  const orgPath = `/v1/organizations/${org.id}`;
  await request(d.url, 'POST', `${orgPath}/members`, { headers: asOwner, body: { principal_id: stranger, role: 'viewer' } });
  const before = await scrape();

  for (let i = 0; i < 3; i++) t.equal((await request(d.url, 'GET', orgPath, { headers: asOwner })).status, 200);
  t.equal((await request(d.url, 'GET', orgPath)).status, 401, 'no credentials');
  t.equal(
    (await request(d.url, 'GET', orgPath, { headers: bearer('svc_AAAAAAAA_forgedforgedforgedforgedforgedforgedforged') })).status,
    401,
  );
  t.equal((await request(d.url, 'PATCH', orgPath, { headers: asPrincipal(stranger), body: { display_name: 'x' } })).status, 403);
  t.equal((await request(d.url, 'GET', orgPath, { headers: asPrincipal(randomUUID()) })).status, 404, 'not visible');
  for (const email of ['a@example.com', 'b@example.com'])
    t.equal(
      (
        await request(d.url, 'POST', '/v1/invitations', {
          headers: asOwner,
          body: { organization_id: org.id, email, role: 'viewer' },
        })
      ).status,
      201,
    );
  const key = (
    await request(d.url, 'POST', '/v1/api-keys', { headers: asOwner, body: { name: 'gone', organization_id: org.id } })
  ).body.data;
  await request(d.url, 'DELETE', `/v1/api-keys/${key.id}`, { headers: asOwner });
  t.equal((await request(d.url, 'GET', orgPath, { headers: bearer(key.raw_key) })).status, 401, 'a revoked key');
  const status = await spawnSwitchyard(t, ['--socket', d.grpc.socketPath, 'status', '--json']).exited;
  t.equal(status, 0, 'one admin API call');

  const after = await scrape();
  const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
  const route = '/v1/organizations/:id';
  t.equal(delta('switchyard_http_request_duration_seconds_count', { route, method: 'GET', status: '200' }), 3, '3 reads');
  t.equal(delta('switchyard_http_request_duration_seconds_count', { route, method: 'GET', status: '401' }), 3, '3 refused');
  t.equal(delta('switchyard_http_request_duration_seconds_count', { route, method: 'PATCH', status: '403' }), 1);
  t.equal(delta('switchyard_http_request_duration_seconds_count', { route, method: 'GET', status: '404' }), 1);
  t.equal(
    delta('switchyard_http_request_duration_seconds_count', { route: '/v1/invitations', method: 'POST', status: '201' }),
    2,
  );
  t.equal(delta('switchyard_auth_failures_total', { reason: 'missing' }), 1, 'missing credentials');
  t.equal(delta('switchyard_auth_failures_total', { reason: 'invalid' }), 1, 'a forged key');
  t.equal(delta('switchyard_auth_failures_total', { reason: 'revoked' }), 1, 'a revoked key');
  t.equal(delta('switchyard_permission_denials_total', { denial: 'role' }), 1, 'one role denial');
  t.equal(delta('switchyard_permission_denials_total', { denial: 'not_visible' }), 1, 'one hidden resource');
  t.equal(delta('switchyard_events_appended_total', { kind: 'invitation.created' }), 2, 'two events appended');
  t.equal(delta('switchyard_grpc_calls_total', { method: 'DaemonService/GetStatus', code: 'OK' }), 1, 'the status call');
  t.equal(value(after, 'switchyard_outbox_entries', { status: 'held' }), 2, 'held mail (no transport)');
  t.equal(value(after, 'switchyard_invitations_pending'), 2);
  t.equal(value(after, 'switchyard_http_requests_in_flight'), 0);
  t.ok(value(after, 'switchyard_process_resident_memory_bytes') > 0, 'default process metrics');
  t.ok(
    after.some((s) => s.name === 'switchyard_loop_tick_duration_seconds_count'),
    'loop ticks are measured',
  );
});

t.test('without SERVICE_METRICS_ADDR there is no metrics listener', async (t) => {
  const d = await startTestDaemon(t);
  t.equal(d.metricsAddress, null);
});

t.test('workflow metrics: runs and jobs by outcome, queue depth, queue wait, node duration', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_METRICS_ADDR: '127.0.0.1:0', SERVICE_WORKFLOW_POLL_MS: '100' });
  const scrape = async () => parsePrometheus(await (await fetch(`http://${d.metricsAddress!}/metrics`)).text());
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, 'measured-runs');
  const post = (path: string, body: unknown) => request(d.url, 'POST', path, { headers: owner, body });
  await post('/v1/workflows', {
    organization_id: org.id,
    name: 'two',
    nodes: [
      { key: 'a', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'x' } },
      { key: 'b', kind: 'provider', modality: 'image', model: 'echo', input: { prompt: 'y' } },
    ],
  });
  await post('/v1/workflows', {
    organization_id: org.id,
    name: 'held',
    nodes: [{ key: 'gate', kind: 'wait' }],
  });
  const ended = async (path: string) => (await untilStatus(d.url, path, owner)).status as string;
  for (let i = 0; i < 2; i++) {
    const run = (await post('/v1/workflows/run?name=two', { organization_id: org.id })).body.data;
    t.equal(await ended(`/v1/workflows/runs/${run.id}`), 'completed');
  }
  const held = (await post('/v1/workflows/run?name=held', { organization_id: org.id })).body.data;
  await post(`/v1/workflows/runs/${held.id}/cancel`, {});
  const job = (
    await post('/v1/jobs', { organization_id: org.id, modality: 'text', model: 'no-such-model', input: { prompt: 'x' } })
  ).body.data;
  t.equal(await ended(`/v1/jobs/${job.id}`), 'failed');
  const after = await scrape();
  t.equal(value(after, 'switchyard_workflow_outcomes_total', { kind: 'run', outcome: 'completed' }), 2, 'two runs completed');
  t.equal(value(after, 'switchyard_workflow_outcomes_total', { kind: 'run', outcome: 'cancelled' }), 1, 'one cancelled');
  t.equal(value(after, 'switchyard_workflow_outcomes_total', { kind: 'job', outcome: 'failed' }), 1, 'one job failed');
  t.equal(value(after, 'switchyard_workflow_node_duration_seconds_count', { modality: 'text', outcome: 'completed' }), 2);
  t.equal(value(after, 'switchyard_workflow_node_duration_seconds_count', { modality: 'image', outcome: 'completed' }), 2);
  t.ok(value(after, 'switchyard_workflow_queue_wait_seconds_count') >= 2, 'queue waits measured at each start');
  const depth = (samples: Sample[], kind: string, state: string) => {
    const found = samples.filter(
      (s) => s.name === 'switchyard_workflow_queue_depth' && s.labels.kind === kind && s.labels.state === state,
    );
    t.equal(found.length, 1, `queue depth of ${kind}s ${state} is exposed`);
    return found[0]?.value;
  };
  t.equal(depth(after, 'run', 'queued'), 0);
  t.equal(depth(after, 'run', 'running'), 0);
  t.equal(depth(after, 'job', 'queued'), 0);

  // One run at a time, the first held upstream: one running, one queued behind it.
  const openai = await FakeOpenAI.start(t);
  const d2 = await startTestDaemon(t, {
    SERVICE_METRICS_ADDR: '127.0.0.1:0',
    SERVICE_WORKFLOW_POLL_MS: '100',
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
  });
  const org2 = await createOrganizationAs(d2.url, owner, 'measured-queue');
  const post2 = (path: string, body: unknown) => request(d2.url, 'POST', path, { headers: owner, body });
  await request(d2.url, 'PUT', `/v1/organizations/${org2.id}/settings`, { headers: owner, body: { max_concurrent_runs: 1 } });
  await post2('/v1/workflows', {
    organization_id: org2.id,
    name: 'slow',
    nodes: [{ key: 'a', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'x' } }],
  });
  openai.enqueue({ kind: 'hang' });
  const first = (await post2('/v1/workflows/run?name=slow', { organization_id: org2.id })).body.data;
  await waitFor(() => openai.calls('/v1/chat/completions').length > 0, { what: 'the first run to call its provider' });
  const second = (await post2('/v1/workflows/run?name=slow', { organization_id: org2.id })).body.data;
  const busy = parsePrometheus(await (await fetch(`http://${d2.metricsAddress!}/metrics`)).text());
  t.equal(depth(busy, 'run', 'running'), 1, 'one run in progress');
  t.equal(depth(busy, 'run', 'queued'), 1, 'one waiting behind it');
  await post2(`/v1/workflows/runs/${second.id}/cancel`, {});
  await post2(`/v1/workflows/runs/${first.id}/cancel`, {});
});
