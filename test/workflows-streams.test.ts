// Issue 33 item 6: live run event streams. A stream reads the log only for commits of its own run
// (another organization's work never wakes it), open streams are capped per principal and per
// organization (429 with Retry-After), and a stream ends once its key is revoked or its member removed.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon, untilStatus, waitFor } from './helpers.js';

interface Frame {
  id: string;
  event: string;
  data: any;
}

/** A live SSE stream read as it comes: its frames so far, and whether the daemon ended it. */
class Stream {
  readonly frames: Frame[] = [];
  ended = false;
  private readonly abort = new AbortController();
  status = 0;
  headers = new Headers();
  body: any;

  static async open(url: string, headers: Record<string, string>): Promise<Stream> {
    const stream = new Stream();
    const res = await fetch(url, { headers, signal: stream.abort.signal });
    stream.status = res.status;
    stream.headers = res.headers;
    if (res.status !== 200) {
      stream.body = await res.json();
      stream.ended = true;
      return stream;
    }
    void stream.read(res);
    return stream;
  }

  private async read(res: Response): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of res.body!) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (!block.startsWith('id: ')) continue;
          const lines = Object.fromEntries(
            block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
          );
          this.frames.push({ id: lines.id, event: lines.event, data: JSON.parse(lines.data) });
        }
      }
    } catch {
      // closed by the test
    }
    this.ended = true;
  }

  close(): void {
    this.abort.abort();
  }
}

interface World {
  d: Daemon;
  owner: Record<string, string>;
  org: { id: string };
  key: Record<string, string>;
}

async function world(d: Daemon, slug: string): Promise<World> {
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `${slug}-${randomUUID().slice(0, 8)}`);
  const created = await request(d.url, 'POST', '/v1/api-keys', {
    headers: owner,
    body: { name: 'runner', organization_id: org.id, scopes: ['workflows:read', 'workflows:write', 'jobs:write', 'jobs:read'] },
  });
  const w = { d, owner, org, key: bearer(created.body.data.raw_key) };
  const defined = await request(d.url, 'POST', '/v1/workflows', {
    headers: w.key,
    body: {
      name: 'gate',
      nodes: [
        { key: 'ask', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'hello' } },
        { key: 'approve', kind: 'wait' },
      ],
    },
  });
  if (defined.status !== 201) throw new Error(`define: ${defined.status} ${JSON.stringify(defined.body)}`);
  return w;
}

/** A run of `gate` that has reached its wait node. */
async function waitingRun(w: World): Promise<string> {
  const run = (await request(w.d.url, 'POST', '/v1/workflows/run?name=gate', { headers: w.key, body: {} })).body.data;
  await untilStatus(w.d.url, `/v1/workflows/runs/${run.id}`, w.key, 'waiting');
  return run.id as string;
}

const eventsUrl = (w: World, runId: string) => `${w.d.url}/v1/workflows/runs/${runId}/events`;

async function metric(d: Daemon, name: string): Promise<number> {
  const text = await (await fetch(`http://${d.metricsAddress!}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

async function daemon(t: Test, env: Record<string, string> = {}): Promise<Daemon> {
  return startTestDaemon(t, { SERVICE_WORKFLOW_POLL_MS: '100', SERVICE_METRICS_ADDR: '127.0.0.1:0', ...env });
}

t.test("another organization's commits never make a stream read the log; its own run's do", async (t) => {
  // The poll is an hour: every read the stream makes here follows a wake-up.
  const d = await daemon(t, { SERVICE_RUN_STREAM_POLL_MS: '3600000' });
  const [a, b] = [await world(d, 'viewer'), await world(d, 'busy')];
  const runId = await waitingRun(a);
  const streams = await Promise.all([0, 1, 2].map(() => Stream.open(eventsUrl(a, runId), a.key)));
  await waitFor(() => streams.every((s) => s.frames.some((f) => f.event === 'workflow.run.waiting')), {
    what: 'the history of the waiting run on every stream',
  });
  const readsBefore = await metric(d, 'switchyard_run_stream_reads_total');
  t.equal(readsBefore, 3, 'one read each: the history');
  t.equal(await metric(d, 'switchyard_run_streams_open'), 3);

  // Another organization works: runs to their end (several event commits each) and jobs.
  for (let i = 0; i < 5; i++) {
    const run = (await request(d.url, 'POST', '/v1/workflows/run?name=gate', { headers: b.key, body: {} })).body.data;
    await untilStatus(d.url, `/v1/workflows/runs/${run.id}`, b.key, 'waiting');
    await request(d.url, 'POST', `/v1/workflows/runs/${run.id}/input`, {
      headers: b.key,
      body: { node_key: 'approve', input: { ok: i } },
    });
    await untilStatus(d.url, `/v1/workflows/runs/${run.id}`, b.key, 'completed');
    const job = await request(d.url, 'POST', '/v1/jobs', {
      headers: b.key,
      body: { modality: 'text', model: 'echo', input: { prompt: `job ${i}` } },
    });
    t.equal(job.status, 202);
  }
  // And another run of the viewer's own organization: not this stream's run either.
  const sibling = await waitingRun(a);
  await request(d.url, 'POST', `/v1/workflows/runs/${sibling}/cancel`, { headers: a.key });
  await untilStatus(d.url, `/v1/workflows/runs/${sibling}`, a.key, 'cancelled');
  t.equal(await metric(d, 'switchyard_run_stream_reads_total'), readsBefore, 'no read for commits of other runs');

  // Its own run moves: each stream reads, and follows it to the end.
  const answered = await request(d.url, 'POST', `/v1/workflows/runs/${runId}/input`, {
    headers: a.key,
    body: { node_key: 'approve', input: { ok: true } },
  });
  t.equal(answered.status, 200);
  await waitFor(() => streams.every((s) => s.ended), { what: 'every stream to end after the terminal event' });
  for (const s of streams) t.equal(s.frames.at(-1)?.event, 'workflow.run.completed');
  t.ok((await metric(d, 'switchyard_run_stream_reads_total')) > readsBefore, 'its own run woke it');
  await waitFor(async () => (await metric(d, 'switchyard_run_streams_open')) === 0, { what: 'no stream open' });
});

t.test('open streams are capped per principal and per organization: 429 with Retry-After', async (t) => {
  const d = await daemon(t, { SERVICE_RUN_STREAMS_PER_PRINCIPAL: '2', SERVICE_RUN_STREAMS_PER_ORG: '3' });
  const w = await world(d, 'caps');
  const runId = await waitingRun(w);
  const viewer = randomUUID();
  await request(d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.owner,
    body: { principal_id: viewer, role: 'viewer' },
  });
  const asViewer = asPrincipal(viewer);
  const url = eventsUrl(w, runId);
  const first = [await Stream.open(url, asViewer), await Stream.open(url, asViewer)];
  t.same(
    first.map((s) => s.status),
    [200, 200],
  );
  const third = await Stream.open(url, asViewer);
  t.equal(third.status, 429, 'a third stream of one principal');
  t.equal(third.body.error.code, 'rate_limited');
  t.ok(Number(third.headers.get('retry-after')) >= 1, 'Retry-After');
  t.match(third.body.error.details, { limit: 'run_streams_per_principal', max: 2 });

  // The owner's key: a principal of its own, but the organization's third and last place.
  const ownerStream = await Stream.open(eventsUrl(w, runId), w.key);
  t.equal(ownerStream.status, 200);
  const fourth = await Stream.open(eventsUrl(w, runId), w.key);
  t.equal(fourth.status, 429, "past the organization's cap");
  t.match(fourth.body.error.details, { limit: 'run_streams_per_organization', max: 3 });

  // Another organization's streams are not counted against this one.
  const other = await world(d, 'other');
  const otherRun = await waitingRun(other);
  const elsewhere = await Stream.open(eventsUrl(other, otherRun), other.key);
  t.equal(elsewhere.status, 200, 'another organization has places of its own');

  // A closed stream gives its place back.
  first[0].close();
  await waitFor(async () => (await metric(d, 'switchyard_run_streams_open')) === 3, { what: 'the closed stream to end' });
  const again = await Stream.open(url, asViewer);
  t.equal(again.status, 200, 'a place again once one closed');
  for (const s of [first[1], ownerStream, elsewhere, again]) s.close();
  await waitFor(async () => (await metric(d, 'switchyard_run_streams_open')) === 0, { what: 'every stream to end' });
});

t.test('a stream ends once its key is revoked, or its member removed, and receives nothing after', async (t) => {
  const d = await daemon(t, { SERVICE_RUN_STREAM_RECHECK_MS: '100' });
  const w = await world(d, 'revoke');
  const member = randomUUID();
  const added = await request(d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.owner,
    body: { principal_id: member, role: 'member' },
  });
  t.equal(added.status, 201);
  const memberKey = await request(d.url, 'POST', '/v1/api-keys', {
    headers: asPrincipal(member),
    body: { name: 'watch', organization_id: w.org.id, scopes: ['workflows:read'] },
  });
  t.equal(memberKey.status, 201);
  const runId = await waitingRun(w);
  const byKey = await Stream.open(eventsUrl(w, runId), bearer(memberKey.body.data.raw_key));
  const byPerson = await Stream.open(eventsUrl(w, runId), asPrincipal(member));
  const owners = await Stream.open(eventsUrl(w, runId), w.key);
  t.same([byKey.status, byPerson.status, owners.status], [200, 200, 200]);
  await waitFor(() => [byKey, byPerson, owners].every((s) => s.frames.length === 6), { what: 'the history on each' });

  const revoked = await request(d.url, 'DELETE', `/v1/api-keys/${memberKey.body.data.id}`, { headers: asPrincipal(member) });
  t.equal(revoked.status, 200);
  await waitFor(() => byKey.ended, { what: 'the revoked key’s stream to end' });
  t.notOk(byPerson.ended, 'the member’s own stream goes on');

  const removed = await request(d.url, 'DELETE', `/v1/organizations/${w.org.id}/members/${added.body.data.id}`, {
    headers: w.owner,
  });
  t.equal(removed.status, 200);
  await waitFor(() => byPerson.ended, { what: 'the removed member’s stream to end' });
  t.notOk(owners.ended, "the owner's stream goes on");

  await request(d.url, 'POST', `/v1/workflows/runs/${runId}/input`, { headers: w.key, body: { node_key: 'approve', input: {} } });
  await waitFor(() => owners.ended, { what: "the owner's stream to reach the end" });
  t.equal(owners.frames.at(-1)?.event, 'workflow.run.completed');
  t.equal(byKey.frames.length, 6, 'nothing reached the revoked key');
  t.equal(byPerson.frames.length, 6, 'nothing reached the removed member');
});
