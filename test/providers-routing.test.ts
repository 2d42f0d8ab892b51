// Spec 4.4's routing rules and contract 8's fallback, against local fakes that speak each provider's
// real protocol: tier, cost, health, modality, model, registration order; fallback on a retriable
// failure (5xx, 429, timeout, connection refused) with the attempts listed; none on a 401; the
// breaker and the health probe; `no_provider` naming every reason; routing settings that persist.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import type { Daemon } from '../src/main.js';
import { FakeAnthropic } from './fakes/anthropic.js';
import { FakeOllama } from './fakes/ollama.js';
import { FakeOpenAI } from './fakes/openai.js';
import {
  asPrincipal,
  createOrganizationAs,
  request,
  privateDir,
  startTestDaemon,
  testPostgres,
  waitFor,
  withTestEngine,
  type JsonResponse,
} from './helpers.js';

interface World {
  d: Daemon;
  openai: FakeOpenAI;
  anthropic: FakeAnthropic;
  ollama: FakeOllama;
  owner: Record<string, string>;
  org: { id: string };
  execute: (body: Record<string, unknown>, path?: string) => Promise<JsonResponse>;
}

async function world(t: Test, env: Record<string, string> = {}): Promise<World> {
  const [openai, anthropic, ollama] = await Promise.all([FakeOpenAI.start(t), FakeAnthropic.start(t), FakeOllama.start(t)]);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-fake',
    ANTHROPIC_BASE_URL: anthropic.baseUrl,
    OLLAMA_HOST: ollama.url,
    SERVICE_PROVIDER_TIMEOUT_MS: '1000',
    SERVICE_PROVIDER_BREAKER_COOLDOWN_MS: '60000',
    // One failed call opens the breaker here (the rate over a window has its own tests).
    SERVICE_PROVIDER_BREAKER_MIN_CALLS: '1',
    ...env,
  });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `ai-${randomUUID().slice(0, 8)}`);
  // The first probes (at start) have read every model list.
  await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
  // On a loaded machine a first probe can run out of its 1 s (SERVICE_PROVIDER_TIMEOUT_MS) while the
  // daemon still starts: the fakes are up, so one more round with room to answer gives every test
  // the model lists it starts from (the next probes come an interval later, as usual).
  const providers = d.services.providers;
  if (providers.listProviders().some((p) => p.health.status !== 'healthy'))
    await providers.probeDue(d.config.providerHealthIntervalMs, 10_000, Number.MAX_SAFE_INTEGER);
  const execute = (body: Record<string, unknown>, path = '/v1/providers/execute') =>
    request(d.url, 'POST', path, { headers: owner, body: { organization_id: org.id, ...body } });
  return { d, openai, anthropic, ollama, owner, org, execute };
}

const text = { modality: 'text', input: { prompt: 'say hello' } };

t.test('the list shows each registered provider with capabilities, models and health', async (t) => {
  const w = await world(t);
  const res = await request(w.d.url, 'GET', '/v1/providers', { headers: w.owner });
  t.equal(res.status, 200);
  const byName = Object.fromEntries((res.body.data as any[]).map((p) => [p.name, p]));
  t.same(Object.keys(byName), ['openai', 'anthropic', 'ollama', 'echo'], 'registration order, echo last');
  t.match(byName.openai, {
    kind: 'hosted OpenAI-compatible API',
    tier: 'premium',
    modalities: ['text', 'image', 'embedding'],
    streaming: 'sse',
    models: ['gpt-4o-mini', 'text-embedding-3-small', 'dall-e-3'],
    health: { status: 'healthy' },
    enabled: true,
    drained: false,
  });
  t.same(byName.openai.capabilities[0], { modality: 'text', estimated_cost_per_request: 0.002 });
  t.match(byName.anthropic, {
    tier: 'premium',
    modalities: ['text'],
    streaming: 'sse',
    models: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
  });
  t.match(byName.ollama, { tier: 'basic', streaming: 'ndjson', models: ['llama3.2:latest', 'nomic-embed-text:latest'] });
  t.match(byName.echo, { tier: 'basic', streaming: null, modalities: ['text', 'image', 'embedding', 'audio'] });
  t.equal((await request(w.d.url, 'GET', '/v1/providers')).status, 401, 'anonymous callers are refused');
});

t.test('routing rules: tier, cost, modality, model, registration order', async (t) => {
  const w = await world(t);
  const who = async (body: Record<string, unknown>) => {
    const res = await w.execute(body);
    t.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.provider as string;
  };
  t.equal(await who(text), 'ollama', 'no tier: the cheapest (local, 0)');
  t.equal(await who({ ...text, tier: 'basic' }), 'ollama', 'rule 1: basic');
  t.equal(await who({ ...text, tier: 'premium' }), 'openai', 'rule 2: the cheapest premium (0.002 < 0.003)');
  t.equal(await who({ ...text, model: 'claude-haiku-4-5' }), 'anthropic', 'rule 6: the provider advertising the model');
  t.equal(await who({ modality: 'embedding', input: { text: 'x' }, tier: 'premium' }), 'openai', 'rule 4: modality');
  t.equal(
    await who({ modality: 'audio', input: { audio_base64: 'AAAA', format: 'wav' } }),
    'echo',
    'echo: only when no other serves',
  );
  t.equal(await who({ ...text, model: 'echo' }), 'echo', 'echo when its model is asked');

  // Rule 7: equal costs go by registration order (openai before anthropic).
  await w.d.services.providers.setProvider(operator, 'anthropic', { cost_usd: 0.001 });
  t.equal(await who({ ...text, tier: 'premium' }), 'anthropic', 'cheaper after a cost change');
  await w.d.services.providers.setProvider(operator, 'openai', { cost_usd: 0.001 });
  t.equal(await who({ ...text, tier: 'premium' }), 'openai', 'equal cost: registration order');

  const answer = (await w.execute({ ...text, tier: 'premium' })).body.data;
  t.match(answer, {
    provider: 'openai',
    model: 'gpt-4o-mini',
    modality: 'text',
    output: { text: 'Hello from the fake OpenAI.' },
    cost_usd: 0.001,
    attempts: [{ provider: 'openai' }],
  });
  t.ok(answer.usage.input_tokens > 0 && answer.usage.output_tokens > 0, 'usage from the provider');
  t.type(answer.latency_ms, 'number');

  const none = await w.execute({ ...text, model: 'gpt-9' });
  t.equal(none.status, 503);
  t.equal(none.body.error.code, 'no_provider');
  t.match(none.body.error.message, /openai: does not advertise model gpt-9/);
  t.match(none.body.error.message, /echo: fallback only/);
});

t.test('explain: the winner, and for every other provider why it lost', async (t) => {
  const w = await world(t);
  await w.d.services.providers.setProvider(operator, 'anthropic', { enabled: false });
  const r = w.d.services.providers.explainRoute({ modality: 'text' });
  t.equal(r.winner, 'ollama');
  t.equal(r.model, 'llama3.2');
  t.same(
    r.candidates.map((c) => c.provider),
    ['ollama', 'openai'],
  );
  const why = Object.fromEntries(r.rejected.map((x) => [x.provider, x.reason]));
  t.match(why.openai, /costs more \(0\.002 USD > 0 USD\)/);
  t.equal(why.anthropic, 'disabled');
  t.match(why.echo, /fallback only/);
  t.ok(
    w.d.services.providers
      .explainRoute({ modality: 'text', tier: 'premium' })
      .rejected.some((r) => r.provider === 'ollama' && r.reason === 'tier basic, premium asked'),
    'another tier',
  );
});

t.test('a retriable failure falls back to the next candidate, with the attempts listed', async (t) => {
  for (const [label, fault] of [
    ['500', { kind: 'status', status: 500 }],
    ['429', { kind: 'status', status: 429, retryAfter: '1' }],
    ['hang past the timeout', { kind: 'hang' }],
    ['reset', { kind: 'reset' }],
  ] as const) {
    await t.test(label, async (t) => {
      const w = await world(t);
      w.ollama.enqueue(fault);
      const res = await w.execute(text);
      t.equal(res.status, 200, JSON.stringify(res.body));
      t.equal(res.body.data.provider, 'openai', 'the next cheapest');
      t.equal(res.body.data.attempts.length, 2);
      t.equal(res.body.data.attempts[0].provider, 'ollama');
      t.type(res.body.data.attempts[0].error, 'string');
      t.same(res.body.data.attempts[1], { provider: 'openai' });
      // The breaker: the failed provider is unhealthy until a probe succeeds, and is skipped.
      const ollama = w.d.services.providers.listProviders().find((p) => p.name === 'ollama')!;
      t.equal(ollama.health.status, 'unhealthy');
      t.match(ollama.health.reason, /call failed/);
      const next = await w.execute(text);
      t.equal(next.body.data.provider, 'openai', 'skipped while unhealthy');
      t.equal(next.body.data.attempts.length, 1, 'not tried again');
    });
  }
});

t.test("a provider's own timeout applies to it alone (SERVICE_PROVIDER_TIMEOUTS_MS)", async (t) => {
  const w = await world(t, { SERVICE_PROVIDER_TIMEOUT_MS: '20000', SERVICE_PROVIDER_TIMEOUTS_MS: 'ollama=300' });
  w.ollama.enqueue({ kind: 'hang' });
  const res = await w.execute(text);
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body.data.attempts, [{ provider: 'ollama', error: /timed out after 300 ms/ }, { provider: 'openai' }]);
});

t.test('a connection refused falls back too', async (t) => {
  const w = await world(t);
  await w.ollama.close();
  const res = await w.execute(text);
  t.equal(res.body.data.provider, 'openai');
  t.match(res.body.data.attempts[0], { provider: 'ollama', error: /connection refused/ });
});

t.test('a 401 does not fall back: 502 upstream_error with the message scrubbed of the key', async (t) => {
  const w = await world(t, { OPENAI_API_KEY: 'sk-wrong-key-abcdefghijkl' });
  // The probe with the wrong key failed: openai is unhealthy and not chosen.
  t.equal(w.d.services.providers.listProviders().find((p) => p.name === 'openai')!.health.status, 'unhealthy');
  t.match(w.d.services.providers.explainRoute({ modality: 'text', tier: 'premium' }).rejected, [
    { provider: 'openai', reason: /unhealthy: 401/ },
  ]);
  w.anthropic.enqueue({ kind: 'status', status: 400, message: 'messages: field required (key sk-ant-test-fake)' });
  const res = await w.execute({ ...text, tier: 'premium' });
  t.equal(res.status, 502);
  t.equal(res.body.error.code, 'upstream_error');
  t.match(res.body.error.message, /^anthropic: 400 /);
  t.notMatch(JSON.stringify(res.body), /sk-ant-test-fake/, 'the provider key never comes back');
  t.same(res.body.error.details.attempts.length, 1, 'no fallback');
});

t.test('every candidate failing is 502 naming each; every one timing out is 504', async (t) => {
  const w = await world(t);
  w.ollama.enqueue({ kind: 'status', status: 503 });
  w.openai.enqueue({ kind: 'status', status: 500 });
  w.anthropic.enqueue({ kind: 'status', status: 529 });
  const res = await w.execute(text);
  t.equal(res.status, 502);
  t.same(
    res.body.error.details.attempts.map((a: any) => a.provider),
    ['ollama', 'openai', 'anthropic'],
  );
  t.match(res.body.error.message, /every provider failed: ollama: 503/);
  // Now all three are unhealthy: the next call is 503 no_provider at once, naming each reason.
  const next = await w.execute(text);
  t.equal(next.status, 503);
  t.equal(next.body.error.code, 'no_provider');
  t.match(next.body.error.message, /ollama: unhealthy: call failed: 503/);

  const w2 = await world(t);
  w2.ollama.enqueue({ kind: 'hang' });
  w2.openai.enqueue({ kind: 'hang' });
  w2.anthropic.enqueue({ kind: 'hang' });
  const timedOut = await w2.execute(text);
  t.equal(timedOut.status, 504);
  t.equal(timedOut.body.error.code, 'upstream_timeout');
});

t.test('a probe brings a failed provider back after the cooldown', async (t) => {
  const w = await world(t, { SERVICE_PROVIDER_BREAKER_COOLDOWN_MS: '100' });
  w.ollama.enqueue({ kind: 'status', status: 500 });
  t.equal((await w.execute(text)).body.data.provider, 'openai');
  await waitFor(() => w.d.services.providers.listProviders().find((p) => p.name === 'ollama')!.health.status === 'healthy', {
    what: 'ollama healthy again',
  });
  t.equal((await w.execute(text)).body.data.provider, 'ollama');
});

t.test('the breaker opens on a failure rate over its window, not on one failed call', async (t) => {
  // The default rule: at least 5 calls in the last 30 s, at least 50 % of them failed.
  const w = await world(t, { SERVICE_PROVIDER_BREAKER_MIN_CALLS: '5' });
  // openai is the only premium provider: a premium-only call has nowhere to fall back.
  await w.d.services.providers.setProvider(operator, 'anthropic', { enabled: false });
  const premium = { ...text, tier: 'premium' };
  const openaiHealth = async () => {
    const listed = await request(w.d.url, 'GET', '/v1/providers', { headers: w.owner });
    return (listed.body.data as any[]).find((p) => p.name === 'openai').health;
  };
  for (let i = 0; i < 3; i++) t.equal((await w.execute(premium)).body.data?.provider, 'openai', `success ${i + 1}`);

  w.openai.enqueue({ kind: 'status', status: 500 });
  const failed = await w.execute(premium);
  t.equal(failed.status, 502, 'the call that failed has no other premium provider');
  t.equal((await openaiHealth()).status, 'healthy', 'one 500 among successes leaves the provider healthy');
  const retried = await w.execute(premium);
  t.equal(retried.status, 200, `the next premium call succeeds (${JSON.stringify(retried.body)})`);
  t.same(retried.body.data.attempts, [{ provider: 'openai' }], 'openai was tried, not skipped');

  // 5 calls so far, 1 failed. Failures 2 and 3 (3 of 7: 43 %) leave it closed; 4 of 8 (50 %) opens it.
  for (const n of [2, 3]) {
    w.openai.enqueue({ kind: 'status', status: 500 });
    t.equal((await w.execute(premium)).status, 502);
    t.equal((await openaiHealth()).status, 'healthy', `${n} failures of ${n + 4} calls: still closed`);
  }
  w.openai.enqueue({ kind: 'status', status: 500 });
  t.equal((await w.execute(premium)).status, 502);
  const health = await openaiHealth();
  t.equal(health.status, 'unhealthy', 'the failure rate reached 50 %: the breaker opened');
  t.equal(health.reason, 'call failed: 500 (4 of 8 calls in 30000 ms)', 'a generic reason: the status and the rate');
  const calls = w.openai.calls('/v1/chat/completions').length;
  const skipped = await w.execute(premium);
  t.equal(skipped.status, 503, 'while open, a premium call finds no provider');
  t.equal(skipped.body.error.code, 'no_provider');
  t.match(skipped.body.error.message, /openai: unhealthy: call failed: 500/);
  t.equal(w.openai.calls('/v1/chat/completions').length, calls, 'the open provider is not called');
});

t.test('estimate: the winner and its cost; local providers estimate 0', async (t) => {
  const w = await world(t);
  const premium = await w.execute({ ...text, tier: 'premium' }, '/v1/providers/estimate');
  t.same(premium.body.data, { provider: 'openai', model: 'gpt-4o-mini', estimated_cost_usd: 0.002 });
  const local = await w.execute(text, '/v1/providers/estimate');
  t.same(local.body.data, { provider: 'ollama', model: 'llama3.2', estimated_cost_usd: 0 });
  t.equal(w.openai.calls('/v1/chat/completions').length, 0, 'an estimate calls no provider');
});

t.test('who may execute: member+ with providers:execute, for an organization it belongs to', async (t) => {
  const w = await world(t);
  const orgPath = `/v1/organizations/${w.org.id}`;
  const add = async (role: string) => {
    const id = randomUUID();
    await request(w.d.url, 'POST', `${orgPath}/members`, { headers: w.owner, body: { principal_id: id, role } });
    return asPrincipal(id);
  };
  const as = (headers: Record<string, string>, body: Record<string, unknown>) =>
    request(w.d.url, 'POST', '/v1/providers/execute', { headers, body });
  const viewer = await add('viewer');
  const member = await add('member');
  t.equal((await as(viewer, { ...text, organization_id: w.org.id })).status, 403, 'viewer');
  t.equal((await as(member, { ...text, organization_id: w.org.id })).status, 200, 'member');
  const noOrg = await as(member, text);
  t.equal(noOrg.status, 422, 'a principal names the organization');
  t.match(noOrg.body.error.details.fields, { organization_id: /required/ });
  const other = await createOrganizationAs(w.d.url, asPrincipal(randomUUID()), `other-${randomUUID().slice(0, 8)}`);
  t.equal((await as(member, { ...text, organization_id: other.id })).status, 404, "another organization's is not found");

  const key = async (scopes: string[]) =>
    (
      await request(w.d.url, 'POST', '/v1/api-keys', {
        headers: w.owner,
        body: { name: `k-${scopes.join()}`, organization_id: w.org.id, scopes },
      })
    ).body.data.raw_key as string;
  const scoped = { authorization: `Bearer ${await key(['providers:execute'])}` };
  const wrong = { authorization: `Bearer ${await key(['jobs:read'])}` };
  const viaKey = await as(scoped, text);
  t.equal(viaKey.status, 200, 'a key with the scope, for its own organization');
  const refused = await as(wrong, text);
  t.equal(refused.status, 403);
  t.equal(refused.body.error.code, 'insufficient_scope');
  t.equal((await request(w.d.url, 'GET', '/v1/providers', { headers: wrong })).status, 200, 'any key lists providers');
});

t.test('bad input is 422 naming the field, and the body limit holds', async (t) => {
  const w = await world(t);
  const bad = await w.execute({ modality: 'text', input: { text: 'wrong field' } });
  t.equal(bad.status, 422);
  t.match(bad.body.error.details.fields, { input: /text input must be \{prompt\} or \{messages/ });
  const badParams = await w.execute({ ...text, params: { temperature: 9, nonsense: 1 } });
  t.equal(badParams.status, 422);
  t.match(Object.keys(badParams.body.error.details.fields).join(), /params/);
  const size = await w.execute({ modality: 'image', input: { prompt: 'x', size: '10x10' } });
  t.equal(size.status, 422);
  t.equal((await w.execute({ modality: 'video', input: {} })).status, 422);
  const huge = await request(w.d.url, 'POST', '/v1/providers/execute', {
    headers: { ...w.owner, 'content-type': 'application/json' },
    raw: JSON.stringify({ ...text, organization_id: w.org.id, input: { prompt: 'x'.repeat(40 * 1024 * 1024) } }),
  });
  t.equal(huge.status, 413, 'past the execute body limit');
  // Audio is bounded by its decoded size (25 MiB): a body under the route's limit, its audio over it.
  const audio = await w.execute({
    modality: 'audio',
    input: { audio_base64: 'A'.repeat(Math.ceil((25 * 1024 * 1024 * 4) / 3) + 4), format: 'wav' },
  });
  t.equal(audio.status, 422);
  t.match(audio.body.error.details.fields, { 'input.audio_base64': /decoded audio must be at most 26214400 bytes/ });
});

t.test('routing settings persist, and reach a daemon started later on the same data', async (t) => {
  // The same data: one data dir, and on PostgreSQL one database.
  const shared = await withTestEngine({ SERVICE_DATA_DIR: privateDir() });
  const w = await world(t, shared);
  const changed = await w.d.services.providers.setProvider(operator, 'openai', {
    tier: 'basic',
    cost_usd: 0,
    models: ['my-finetune'],
    drained: false,
  });
  t.match(changed, { name: 'openai', tier: 'basic', capabilities: [{ estimated_cost_per_request: 0 }] });
  t.ok(changed.models.includes('my-finetune'), 'an extra model is advertised');
  // The server serves a model its list (read at the first probe) did not show: only `set` advertises it.
  w.openai.models.push('my-finetune');
  const finetuned = await w.execute({ ...text, model: 'my-finetune' });
  t.equal(finetuned.body.data?.provider, 'openai', JSON.stringify(finetuned.body));
  await w.d.stop();
  const again = await world(t, shared);
  const openai = again.d.services.providers.listProviders().find((p) => p.name === 'openai')!;
  t.equal(openai.tier, 'basic', 'after a restart');
  t.ok(openai.models.includes('my-finetune'));
  await again.d.services.providers.setProvider(operator, 'ollama', { drained: true });
  t.equal((await again.execute(text)).body.data.provider, 'openai', 'a drained provider takes no new work');
});

t.test('a re-read of the settings that began before a change never takes it back', async (t) => {
  const w = await world(t);
  const providers = w.d.services.providers;
  const openaiCost = () => providers.listProviders().find((p) => p.name === 'openai')!.capabilities[0].estimated_cost_per_request;
  // Every change wakes a re-read (storage's notification, on PostgreSQL from the database), and the
  // health round re-reads too: here six re-reads begin before each change commits.
  const rereads = () => [1, 2, 3].map(() => providers.refreshSettings());
  let held = 0;
  for (let i = 1; i <= 40; i++) {
    const cost = i / 1000;
    const before = rereads();
    const change = providers.setProvider(operator, 'openai', { cost_usd: cost });
    const during = rereads();
    await change;
    const atOnce = openaiCost();
    await Promise.all([...before, ...during]);
    if (atOnce !== cost || openaiCost() !== cost) {
      t.fail(`change ${i} to ${cost}: read ${atOnce} at once and ${openaiCost()} once the re-reads ended`);
      return;
    }
    held++;
  }
  t.equal(held, 40, 'each of 40 changes held, at once and after the re-reads begun before it');
});

t.test(
  'on PostgreSQL, a settings change applies on every daemon at once',
  { skip: testPostgres === undefined ? 'runs on PostgreSQL (test/on-postgres-*.test.ts)' : false },
  async (t) => {
    const shared = await withTestEngine({});
    const a = await world(t, shared);
    const b = await world(t, shared);
    await a.d.services.providers.setProvider(operator, 'ollama', { enabled: false });
    // B's health round is 30 s away: only the storage's notification can tell it this soon.
    await waitFor(() => b.d.services.providers.listProviders().find((p) => p.name === 'ollama')!.enabled === false, {
      what: 'daemon B to see the change',
      timeoutMs: 10_000,
    });
    t.equal((await b.execute(text)).body.data.provider, 'openai', 'B routes around the disabled provider');
  },
);
