// Issue 33 item 6: what one organization's workflows may take. A template that repeats a large value
// stops expanding at the node input limit (the node and run fail with a clear error).
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
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
