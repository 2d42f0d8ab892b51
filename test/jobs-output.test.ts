// Contract 13 (job outputs): a completed job's record carries `output` and `artifacts` ({asset_id,
// media_type, bytes, download_url}, signed as contract 12 says), and GET /v1/jobs/{id}/output answers
// {job_id, status, output, artifacts} with fresh links (scope jobs:read); an image job's image
// downloads through its link, anonymously.
import { createHash, randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon, untilStatus } from './helpers.js';

async function world(t: Test) {
  const openai = await FakeOpenAI.start(t);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_WORKFLOW_POLL_MS: '200',
  });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `out-${randomUUID().slice(0, 8)}`);
  const key = async (scopes: string[], headers = owner, organizationId = org.id) => {
    const res = await request(d.url, 'POST', '/v1/api-keys', {
      headers,
      body: { name: `k-${randomUUID().slice(0, 6)}`, organization_id: organizationId, scopes },
    });
    return bearer(res.body.data.raw_key);
  };
  return { d, owner, org, key };
}

t.test("an image job: its record and its output route carry the image's signed link; the link downloads it", async (t) => {
  const w = await world(t);
  const writer = await w.key(['jobs:write', 'jobs:read']);
  const submitted = await request(w.d.url, 'POST', '/v1/jobs', {
    headers: writer,
    body: { modality: 'image', model: 'echo', input: { prompt: 'a lighthouse' } },
  });
  t.same(submitted.body.data.artifacts, [], 'queued: no artifacts yet');
  const job = await untilStatus(w.d.url, `/v1/jobs/${submitted.body.data.id}`, writer);
  t.equal(job.status, 'completed');
  const assetId = job.output.images[0].asset_id;
  t.equal(job.artifacts.length, 1, 'the record carries the artifact');
  const [artifact] = job.artifacts;
  t.match(artifact, { asset_id: assetId, media_type: 'image/png', bytes: Number, download_url: String });
  t.ok(artifact.bytes > 0);

  const out = await request(w.d.url, 'GET', `/v1/jobs/${job.id}/output?expires_in=120`, { headers: writer });
  t.equal(out.status, 200);
  t.same(Object.keys(out.body.data).sort(), ['artifacts', 'job_id', 'output', 'status']);
  t.match(out.body.data, { job_id: job.id, status: 'completed', output: job.output });
  const link = new URL(out.body.data.artifacts[0].download_url);
  t.equal(link.pathname, `/v1/assets/${assetId}`);
  const expires = Number(link.searchParams.get('expires'));
  t.ok(Math.abs(expires - (Date.now() / 1000 + 120)) < 30, 'valid for expires_in seconds');

  // The link needs no credentials; the bytes are the asset's.
  const download = await fetch(out.body.data.artifacts[0].download_url);
  t.equal(download.status, 200);
  t.equal(download.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await download.arrayBuffer());
  t.equal(bytes.length, artifact.bytes, 'bytes: the size of what downloads');
  const [stored] = await w.d.services.assets.listFor({ job_id: job.id });
  t.equal(createHash('sha256').update(bytes).digest('hex'), stored.sha256, 'the image itself');
  const forged = new URL(link);
  forged.searchParams.set('expires', String(expires + 1));
  t.equal((await fetch(forged)).status, 403, 'a changed link is refused');

  t.equal(
    (await request(w.d.url, 'GET', `/v1/jobs/${job.id}/output?expires_in=0`, { headers: writer })).status,
    422,
    'a bad expires_in is 422',
  );
});

t.test('the output route: a text job, a queued one; jobs:read, and other organizations see 404', async (t) => {
  const w = await world(t);
  const writer = await w.key(['jobs:write', 'jobs:read']);
  const text = await request(w.d.url, 'POST', '/v1/jobs', {
    headers: writer,
    body: { modality: 'text', model: 'echo', input: { prompt: 'words only' } },
  });
  const done = await untilStatus(w.d.url, `/v1/jobs/${text.body.data.id}`, writer);
  t.same(done.artifacts, []);
  const out = await request(w.d.url, 'GET', `/v1/jobs/${done.id}/output`, { headers: writer });
  t.same(out.body.data, { job_id: done.id, status: 'completed', output: { text: 'words only' }, artifacts: [] });

  const writeOnly = await w.key(['jobs:write']);
  t.equal((await request(w.d.url, 'GET', `/v1/jobs/${done.id}/output`, { headers: writeOnly })).status, 403, 'jobs:read needed');
  const reader = await w.key(['jobs:read']);
  t.equal((await request(w.d.url, 'GET', `/v1/jobs/${done.id}/output`, { headers: reader })).status, 200, 'jobs:read is enough');
  t.equal((await request(w.d.url, 'GET', `/v1/jobs/${done.id}/output`, { headers: w.owner })).status, 200, 'a member too');

  const stranger = asPrincipal(randomUUID());
  const other = await createOrganizationAs(w.d.url, stranger, `other-${randomUUID().slice(0, 8)}`);
  const foreignKey = await w.key(['jobs:read'], stranger, other.id);
  t.equal(
    (await request(w.d.url, 'GET', `/v1/jobs/${done.id}/output`, { headers: foreignKey })).status,
    404,
    "another organization's job",
  );
  t.equal((await request(w.d.url, 'GET', `/v1/jobs/${randomUUID()}/output`, { headers: reader })).status, 404);
});
