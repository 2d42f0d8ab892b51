// Contract 12 and issue 16 item 3: a job is one provider call in the background: 202 queued, then
// job.created, started, completed (or failed) with job_id set; an image job's output is an asset;
// cancel stops the call upstream; validation as /v1/providers/execute; scopes, roles and tenancy.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { countId, Counters } from '../src/storage/counters.js';
import { FakeOpenAI } from './fakes/openai.js';
import { FakeWhisper } from './fakes/whisper.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon, untilStatus, waitFor } from './helpers.js';

interface World {
  d: Daemon;
  openai: FakeOpenAI;
  owner: Record<string, string>;
  org: { id: string };
  key: (scopes: string[]) => Promise<Record<string, string>>;
  ended: (id: string, headers?: Record<string, string>) => Promise<any>;
  events: (jobId: string) => Promise<any[]>;
}

async function world(t: Test): Promise<World> {
  const openai = await FakeOpenAI.start(t);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
    SERVICE_WORKFLOW_POLL_MS: '200',
  });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `jobs-${randomUUID().slice(0, 8)}`);
  const key = async (scopes: string[]) => {
    const res = await request(d.url, 'POST', '/v1/api-keys', {
      headers: owner,
      body: { name: `k-${randomUUID().slice(0, 6)}`, organization_id: org.id, scopes },
    });
    return bearer(res.body.data.raw_key);
  };
  const ended = (id: string, headers = owner) => untilStatus(d.url, `/v1/jobs/${id}`, headers);
  const events = async (jobId: string) =>
    ((await request(d.url, 'GET', `/v1/organizations/${org.id}/events?limit=200`, { headers: owner })).body.data as any[]).filter(
      (e) => e.job_id === jobId,
    );
  return { d, openai, owner, org, key, ended, events };
}

t.test('a text job and an image job: 202, then every event with job_id, output kept (images as assets)', async (t) => {
  const w = await world(t);
  const writer = await w.key(['jobs:write', 'jobs:read']);
  const created = await request(w.d.url, 'POST', '/v1/jobs', {
    headers: writer,
    body: { modality: 'text', model: 'echo', input: { prompt: 'one job' }, state: { ref: 7 } },
  });
  t.equal(created.status, 202);
  t.match(created.body.data, { status: 'queued', modality: 'text', model: 'echo', state: { ref: 7 }, organization_id: w.org.id });
  const done = await w.ended(created.body.data.id, writer);
  t.match(done, { status: 'completed', provider: 'echo', output: { text: 'one job' }, error: null, instance_id: String });
  const events = await w.events(done.id);
  t.same(
    events.map((e) => e.kind),
    ['job.created', 'job.started', 'job.completed'],
  );
  t.ok(
    events.every((e) => e.job_id === done.id && e.run_id === null && e.workflow_id === null && e.node_key === null),
    'job events name the job only',
  );
  t.match(events[2].payload, { state: { ref: 7 }, provider: 'echo', output: { text: 'one job' } });

  const image = await request(w.d.url, 'POST', '/v1/jobs', {
    headers: writer,
    body: { modality: 'image', model: 'echo', input: { prompt: 'a lighthouse' } },
  });
  const drawn = await w.ended(image.body.data.id, writer);
  t.match(drawn.output, { images: [{ asset_id: String, content_type: 'image/png' }] });
  const assets = await w.d.services.assets.listFor({ job_id: drawn.id });
  t.same(
    assets.map((a) => a.id),
    [drawn.output.images[0].asset_id],
    'the image is an asset of the job',
  );

  const listed = await request(w.d.url, 'GET', '/v1/jobs?status=completed', { headers: writer });
  t.same(
    listed.body.data.map((j: any) => j.id),
    [done.id, drawn.id],
    'completed jobs, oldest first',
  );
  t.ok(
    listed.body.data.every((j: any) => !('output' in j) && !('input' in j)),
    'list items carry no output (nor input)',
  );
  t.same(
    (await request(w.d.url, 'GET', `/v1/jobs/${done.id}`, { headers: writer })).body.data.output,
    { text: 'one job' },
    'GET one job keeps it',
  );
});

t.test('a failing job ends failed with its error; cancel stops the upstream call', async (t) => {
  const w = await world(t);
  const post = (body: unknown) =>
    request(w.d.url, 'POST', '/v1/jobs', { headers: w.owner, body: { organization_id: w.org.id, ...(body as object) } });
  const failing = await post({ modality: 'text', model: 'no-such-model', input: { prompt: 'x' }, state: { s: 1 } });
  const failed = await w.ended(failing.body.data.id);
  t.match(failed, { status: 'failed', error: { code: 'no_provider', message: /no provider can serve/ }, output: null });
  const events = await w.events(failed.id);
  t.same(
    events.map((e) => e.kind),
    ['job.created', 'job.started', 'job.failed'],
  );
  t.match(events[2].payload, { state: { s: 1 }, error: { code: 'no_provider' } });

  w.openai.enqueue({ kind: 'hang' });
  const slow = await post({ modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'wait' } });
  await waitFor(() => w.openai.calls('/v1/chat/completions').length === 1, { what: 'the call upstream' });
  const cancelled = await request(w.d.url, 'POST', `/v1/jobs/${slow.body.data.id}/cancel`, { headers: w.owner });
  t.equal(cancelled.status, 200);
  t.equal(cancelled.body.data.status, 'cancelled');
  await waitFor(() => w.openai.calls('/v1/chat/completions')[0].aborted, { what: 'the upstream call aborted' });
  t.equal((await w.ended(slow.body.data.id)).status, 'cancelled', 'it stays cancelled');
  const again = await request(w.d.url, 'POST', `/v1/jobs/${slow.body.data.id}/cancel`, { headers: w.owner });
  t.equal(again.status, 409);
  t.equal(again.body.error.code, 'invalid_state');

  const bad = await post({ modality: 'text', input: { prompt: '' } });
  t.equal(bad.status, 422);
  t.match(bad.body.error.details.fields, { 'input.prompt': String });
  t.equal((await post({ modality: 'video', input: {} })).status, 422);
});

t.test('scopes, roles and tenancy', async (t) => {
  const w = await world(t);
  const reader = await w.key(['jobs:read']);
  const runner = await w.key(['workflows:write']);
  const body = { modality: 'text', model: 'echo', input: { prompt: 'hi' } };
  const refused = await request(w.d.url, 'POST', '/v1/jobs', { headers: reader, body });
  t.equal(refused.status, 403);
  t.equal(refused.body.error.code, 'insufficient_scope');
  t.equal(
    (await request(w.d.url, 'POST', '/v1/jobs', { headers: runner, body })).status,
    403,
    'workflows:write is not jobs:write',
  );
  const job = (await request(w.d.url, 'POST', '/v1/jobs', { headers: w.owner, body: { ...body, organization_id: w.org.id } }))
    .body.data;
  t.equal((await request(w.d.url, 'GET', `/v1/jobs/${job.id}`, { headers: reader })).status, 200);
  const viewer = randomUUID();
  await request(w.d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.owner,
    body: { principal_id: viewer, role: 'viewer' },
  });
  t.equal(
    (await request(w.d.url, 'POST', '/v1/jobs', { headers: asPrincipal(viewer), body: { ...body, organization_id: w.org.id } }))
      .status,
    403,
    'a viewer cannot submit',
  );
  t.equal((await request(w.d.url, 'GET', `/v1/jobs/${job.id}`, { headers: asPrincipal(viewer) })).status, 200, 'but reads');
  const stranger = asPrincipal(randomUUID());
  await createOrganizationAs(w.d.url, stranger, `x-${randomUUID().slice(0, 8)}`);
  t.equal(
    (await request(w.d.url, 'GET', `/v1/jobs/${job.id}`, { headers: stranger })).status,
    404,
    "another organization's job is 404",
  );
  t.equal((await request(w.d.url, 'POST', `/v1/jobs/${job.id}/cancel`, { headers: stranger })).status, 404);
  t.equal(
    (await request(w.d.url, 'GET', '/v1/jobs', { headers: w.owner })).status,
    422,
    'a person names the organization of a list',
  );
  await w.ended(job.id);
});

t.test('job inputs: audio kept as an asset (not in the record), lists carry no input, large inputs refused', async (t) => {
  const whisper = await FakeWhisper.start(t);
  const d = await startTestDaemon(t, { SERVICE_WHISPER_URL: whisper.url, SERVICE_WORKFLOW_POLL_MS: '200' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `inputs-${randomUUID().slice(0, 8)}`);
  const audio = Buffer.alloc(2 * 1024 * 1024, 7); // 2 MiB each: the review sent 24 MiB
  const submit = (body: Record<string, unknown>) =>
    request(d.url, 'POST', '/v1/jobs', { headers: owner, body: { organization_id: org.id, ...body } });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await submit({ modality: 'audio', input: { audio_base64: audio.toString('base64'), format: 'wav' } });
    t.equal(res.status, 202, JSON.stringify(res.body).slice(0, 200));
    t.notOk('audio_base64' in res.body.data.input, 'the answer holds no audio');
    ids.push(res.body.data.id);
  }
  const done = await untilStatus(d.url, `/v1/jobs/${ids[0]}`, owner);
  t.equal(done.status, 'completed', JSON.stringify(done.error));
  t.same(done.output, { text: 'hello from the fake whisper' });
  t.equal(whisper.uploads[0].fileBytes, audio.length, 'the provider got the whole audio, read back from its asset');
  t.match(done.input, { format: 'wav', audio_asset_id: String, audio_bytes: audio.length }, 'show carries a reference');
  t.same(done.artifacts, [], 'the input is not an artifact of the job');

  const stored = await d.services.jobs.store.jobs.get(ids[1]);
  t.ok(Buffer.byteLength(JSON.stringify(stored)) < 4096, 'the stored record is small');
  const list = await fetch(`${d.url}/v1/jobs?organization_id=${org.id}&limit=200`, { headers: owner });
  const text = await list.text();
  t.equal(list.status, 200);
  const items = (JSON.parse(text) as { data: Record<string, unknown>[] }).data;
  t.equal(items.length, 4);
  t.ok(
    items.every((job) => !('input' in job)),
    'no list item carries an input',
  );
  t.ok(text.length < 32 * 1024, `the list is ${text.length} bytes for 8 MiB of audio`);

  const big = await submit({ modality: 'text', model: 'echo', input: { prompt: 'x'.repeat(1024 * 1024 + 1) } });
  t.equal(big.status, 422, 'a prompt past its own limit');
  const many = await submit({
    modality: 'text',
    model: 'echo',
    input: { messages: Array.from({ length: 3 }, () => ({ role: 'user', content: 'y'.repeat(500 * 1024) })) },
  });
  t.equal(many.status, 413, 'a text input past 1 MiB in all');
  t.match(many.body.error, { code: 'payload_too_large', details: { limit: 'job_input_bytes', max: 1024 * 1024 } });
});

t.test('max_active_jobs: a submission past the queued and running jobs it allows is 429; one ending frees a place', async (t) => {
  const w = await world(t);
  const settings = await request(w.d.url, 'PUT', `/v1/organizations/${w.org.id}/settings`, {
    headers: w.owner,
    body: { max_active_jobs: 2 },
  });
  t.equal(settings.status, 200, JSON.stringify(settings.body));
  t.equal(settings.body.data.max_active_jobs, 2);
  const tooMany = await request(w.d.url, 'PUT', `/v1/organizations/${w.org.id}/settings`, {
    headers: w.owner,
    body: { max_active_jobs: 10_001 },
  });
  t.equal(tooMany.status, 422, 'past the server maximum');
  t.match(tooMany.body.error.details.fields, { max_active_jobs: 'must be at most 10000' });

  const post = () =>
    request(w.d.url, 'POST', '/v1/jobs', {
      headers: w.owner,
      body: { organization_id: w.org.id, modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'wait' } },
    });
  w.openai.enqueue({ kind: 'hang' });
  w.openai.enqueue({ kind: 'hang' });
  const first = await post();
  const second = await post();
  t.equal(first.status, 202);
  t.equal(second.status, 202);
  const refused = await post();
  t.equal(refused.status, 429, JSON.stringify(refused.body));
  t.match(refused.body.error, { code: 'rate_limited', details: { limit: 'max_active_jobs', max: 2 } });
  t.equal(refused.headers.get('retry-after'), '10');
  // Another organization has its own quota.
  const otherOwner = asPrincipal(randomUUID());
  const other = await createOrganizationAs(w.d.url, otherOwner, `other-${randomUUID().slice(0, 8)}`);
  const elsewhere = await request(w.d.url, 'POST', '/v1/jobs', {
    headers: otherOwner,
    body: { organization_id: other.id, modality: 'text', model: 'echo', input: { prompt: 'x' } },
  });
  t.equal(elsewhere.status, 202, "another organization's jobs do not count");

  t.equal((await request(w.d.url, 'POST', `/v1/jobs/${first.body.data.id}/cancel`, { headers: w.owner })).status, 200);
  const after = await post();
  t.equal(after.status, 202, 'a cancelled job frees its place');
  for (const id of [second.body.data.id, after.body.data.id])
    await request(w.d.url, 'POST', `/v1/jobs/${id}/cancel`, { headers: w.owner });
});

t.test('max_active_jobs reads a count kept with every change; data from before it is counted once', async (t) => {
  const w = await world(t);
  const counts = new Counters(w.d.storage, 'active_jobs');
  const stored = async () => (await counts.records.get(countId('active_jobs', w.org.id)))?.count;
  const post = (model: string) =>
    request(w.d.url, 'POST', '/v1/jobs', {
      headers: w.owner,
      body: { organization_id: w.org.id, modality: 'text', model, input: { prompt: 'x' } },
    });
  const cancel = async (id: string) =>
    t.equal((await request(w.d.url, 'POST', `/v1/jobs/${id}/cancel`, { headers: w.owner })).status, 200);

  t.equal(await stored(), undefined, 'no count before the first job');
  for (let i = 0; i < 3; i++) w.openai.enqueue({ kind: 'hang' });
  const hanging: string[] = [];
  for (let i = 0; i < 3; i++) hanging.push((await post('gpt-4o-mini')).body.data.id);
  t.equal(await stored(), 3, 'each submission adds one');
  for (const id of hanging) await untilStatus(w.d.url, `/v1/jobs/${id}`, w.owner, 'running');
  t.equal(await stored(), 3, 'a job that starts still counts');
  t.equal((await w.ended((await post('echo')).body.data.id)).status, 'completed');
  t.equal((await w.ended((await post('no-such-model')).body.data.id)).status, 'failed');
  t.equal(await stored(), 3, 'a completed and a failed job count no more');
  await cancel(hanging[0]);
  t.equal(await stored(), 2, 'a cancelled one neither');

  // As a daemon from before the count left it: no record. The next change counts the jobs once.
  await w.d.storage.transaction({}, async (tx) => {
    await tx.delete(counts.records, countId('active_jobs', w.org.id));
  });
  const settings = await request(w.d.url, 'PUT', `/v1/organizations/${w.org.id}/settings`, {
    headers: w.owner,
    body: { max_active_jobs: 2 },
  });
  t.equal(settings.status, 200);
  const refused = await post('echo');
  t.equal(refused.status, 429, 'the recount finds the two jobs still running');
  t.match(refused.body.error, { details: { limit: 'max_active_jobs', max: 2 } });
  await cancel(hanging[1]);
  t.equal(await stored(), 1, 'counted afresh, less the cancelled one');
  const accepted = await post('echo');
  t.equal(accepted.status, 202, 'a place is free');
  await w.ended(accepted.body.data.id);
  t.equal(await stored(), 1);
  await cancel(hanging[2]);
  t.equal(await stored(), 0);
});
