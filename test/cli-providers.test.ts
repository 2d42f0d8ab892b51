// `switchyard provider set|list|route|usage`, end to end: real CLI processes (dist/) against a real
// daemon child with a fake OpenAI server; --json shapes, plain output, exit codes; and the usage an
// organization's calls recorded (HTTP and CLI), with metrics moved by exactly those calls.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import t from 'tap';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, cliCleanEnv, createOrganizationAs, request, spawnDaemon, spawnSwitchyard, waitFor } from './helpers.js';

t.test('provider commands and usage', async (t) => {
  const openai = await FakeOpenAI.start(t);
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], {
    SERVICE_DATA_DIR: dataDir,
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_METRICS_ADDR: '127.0.0.1:0',
  });
  const sy = async (...args: string[]) => {
    const run = spawnSwitchyard(t, ['--socket', socket, ...args], cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  const json = async (...args: string[]) => {
    const r = await sy(...args, '--json');
    t.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  await waitFor(async () => (await json('provider', 'list')).every((p: any) => p.health.status !== 'unknown'), {
    what: 'probes',
  });
  const list = await json('provider', 'list');
  t.same(
    list.map((p: any) => p.name),
    ['openai', 'echo'],
  );
  t.match(list[0], { tier: 'premium', streaming: 'sse', health: { status: 'healthy' }, enabled: true, drained: false });
  t.ok(list[0].models.includes('gpt-4o-mini'), 'models from /v1/models');
  const plain = await sy('provider', 'list');
  t.match(plain.stdout, /openai\s+premium\s+text,image,embedding/);

  const route = await json('provider', 'route', '--modality', 'text');
  t.equal(route.winner, 'openai');
  t.equal(route.model, 'gpt-4o-mini');
  t.match(route.rejected, [{ provider: 'echo', reason: /fallback only/ }]);
  const routePlain = await sy('provider', 'route', '--modality', 'text', '--tier', 'basic');
  t.match(routePlain.stdout, /no provider can serve text/);
  t.match(routePlain.stdout, /openai\s+tier premium, basic asked/);

  const set = await json('provider', 'set', 'openai', '--cost', '0.01', '--tier', 'basic', '--models', 'ft-a,ft-b', '--drain');
  t.match(set, { name: 'openai', tier: 'basic', drained: true, capabilities: [{ estimated_cost_per_request: 0.01 }] });
  t.ok(set.models.includes('ft-a') && set.models.includes('ft-b'));
  t.match((await json('provider', 'route', '--modality', 'text', '--model', 'ft-a')).rejected, [
    { provider: 'openai', reason: /drained/ },
  ]);
  const undrained = await json('provider', 'set', 'openai', '--undrain', '--models', '');
  t.equal(undrained.drained, false);
  t.notOk(undrained.models.includes('ft-a'), '"" clears the extra models');
  const unknown = await sy('provider', 'set', 'nobody', '--cost', '1', '--json');
  t.equal(unknown.code, 1);
  t.match(JSON.parse(unknown.stderr), { error: { code: 'not_found' } });
  const badCost = await sy('provider', 'set', 'openai', '--cost', 'cheap');
  t.equal(badCost.code, 2, 'a usage error');
  t.match(badCost.stderr, /expected a cost in USD/);

  // Calls for an organization, through a key: usage by day, provider and model.
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `use-${randomUUID().slice(0, 8)}`);
  const key = (await request(d.url, 'POST', '/v1/api-keys', { headers: owner, body: { name: 'ai', organization_id: org.id } }))
    .body.data.raw_key;
  const call = (body: Record<string, unknown>) =>
    request(d.url, 'POST', '/v1/providers/execute', { headers: { authorization: `Bearer ${key}` }, body });
  t.equal((await call({ modality: 'text', input: { prompt: 'one two three' } })).status, 200);
  t.equal((await call({ modality: 'text', input: { prompt: 'four five' } })).status, 200);
  // A moment between the first two calls and the rest (each record is stamped before its answer).
  await new Promise((resolve) => setTimeout(resolve, 5));
  const between = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  t.equal((await call({ modality: 'embedding', input: { text: 'six' } })).status, 200);
  openai.enqueue({ kind: 'status', status: 400, message: 'bad request' });
  t.equal((await call({ modality: 'text', input: { prompt: 'seven' } })).status, 502);

  const usage = await json('provider', 'usage', '--org', org.slug);
  const today = new Date().toISOString().slice(0, 10);
  const chat = usage.find((r: any) => r.model === 'gpt-4o-mini');
  t.match(chat, { day: today, provider: 'openai', calls: 3, failures: 1, cost_usd: 0.02 });
  t.ok(chat.input_tokens > 0 && chat.output_tokens > 0, 'tokens from the provider');
  t.match(
    usage.find((r: any) => r.model === 'text-embedding-3-small'),
    { calls: 1, failures: 0 },
  );
  const http = await request(d.url, 'GET', `/v1/organizations/${org.id}/usage`, { headers: owner });
  t.same(http.body.data, usage, 'HTTP and CLI show the same rows');
  const member = randomUUID();
  await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: owner,
    body: { principal_id: member, role: 'member' },
  });
  t.equal(
    (await request(d.url, 'GET', `/v1/organizations/${org.id}/usage`, { headers: asPrincipal(member) })).status,
    403,
    'admin only',
  );
  const stranger = asPrincipal(randomUUID());
  t.equal((await request(d.url, 'GET', `/v1/organizations/${org.id}/usage`, { headers: stranger })).status, 404);
  const past = await json(
    'provider',
    'usage',
    '--org',
    org.slug,
    '--until',
    '2020-01-01T00:00:00.000Z',
    '--since',
    '2019-01-01T00:00:00.000Z',
  );
  t.same(past, [], 'an empty window');
  const later = await request(d.url, 'GET', `/v1/organizations/${org.id}/usage?since=${between}`, { headers: owner });
  t.same(
    (later.body.data as { model: string; calls: number; failures: number }[]).map((r) => [r.model, r.calls, r.failures]),
    [
      ['gpt-4o-mini', 1, 1],
      ['text-embedding-3-small', 1, 0],
    ],
    'a window counts only the calls inside it, within a stored batch too',
  );
  const other = await request(d.url, 'GET', `/v1/organizations/${org.id}/usage?provider=echo`, { headers: owner });
  t.same(other.body.data, [], 'only the provider asked');
  const backwards = await request(
    d.url,
    'GET',
    `/v1/organizations/${org.id}/usage?since=${between}&until=2020-01-01T00:00:00.000Z`,
    {
      headers: owner,
    },
  );
  t.equal(backwards.status, 422);

  // The metrics moved by exactly those calls.
  const metricsAddr = /"address":"([^"]+)","msg":"metrics listening"/.exec(d.output())?.[1];
  t.ok(metricsAddr, 'the metrics listener is named in the log');
  const scrape = await (await fetch(`http://${metricsAddr}/metrics`)).text();
  t.match(scrape, /switchyard_provider_calls_total\{provider="openai",modality="text",outcome="ok"\} 2/);
  t.match(scrape, /switchyard_provider_calls_total\{provider="openai",modality="text",outcome="failed"\} 1/);
  t.match(scrape, /switchyard_provider_calls_total\{provider="openai",modality="embedding",outcome="ok"\} 1/);
});
