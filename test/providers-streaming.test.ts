// Contract 8's streams: SSE or NDJSON as negotiated (default: the provider's own), deltas then a
// `done` with usage from whichever piece carried it; fallback only before the first byte; a stream
// that breaks or ends without its terminator ends with an error frame, never a silent success; a
// client that goes away cancels the upstream request at once.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import t, { type Test } from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import type { Daemon } from '../src/main.js';
import { FakeAnthropic } from './fakes/anthropic.js';
import { FakeOllama } from './fakes/ollama.js';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

interface Frame {
  type: string;
  data: any;
}

interface StreamAnswer {
  status: number;
  contentType: string;
  frames: Frame[];
  body: string;
}

/** Reads a whole SSE or NDJSON answer into frames. */
function parseFrames(body: string, contentType: string): Frame[] {
  if (contentType.startsWith('application/x-ndjson'))
    return body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const { type, ...data } = JSON.parse(l);
        return { type, data };
      });
  if (!contentType.startsWith('text/event-stream')) return [];
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return { type: event, data: JSON.parse(data) };
    });
}

interface World {
  d: Daemon;
  openai: FakeOpenAI;
  anthropic: FakeAnthropic;
  ollama: FakeOllama;
  stream: (body: Record<string, unknown>, accept?: string) => Promise<StreamAnswer>;
}

async function world(t: Test, env: Record<string, string> = {}): Promise<World> {
  const [openai, anthropic, ollama] = await Promise.all([
    FakeOpenAI.start(t, { chunks: 5 }),
    FakeAnthropic.start(t, { chunks: 5 }),
    FakeOllama.start(t, { chunks: 5 }),
  ]);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-fake',
    ANTHROPIC_BASE_URL: anthropic.baseUrl,
    OLLAMA_HOST: ollama.url,
    SERVICE_PROVIDER_TIMEOUT_MS: '2000',
    SERVICE_PROVIDER_BREAKER_COOLDOWN_MS: '60000',
    // One failed call opens the breaker here (the rate over a window has its own tests).
    SERVICE_PROVIDER_BREAKER_MIN_CALLS: '1',
    ...env,
  });
  await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `st-${randomUUID().slice(0, 8)}`);
  const stream = async (body: Record<string, unknown>, accept?: string): Promise<StreamAnswer> => {
    const res = await fetch(`${d.url}/v1/providers/execute/stream`, {
      method: 'POST',
      headers: { ...owner, 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
      body: JSON.stringify({ organization_id: org.id, params: { stream: true }, ...body }),
    });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    return { status: res.status, contentType, body: text, frames: parseFrames(text, contentType) };
  };
  return { d, openai, anthropic, ollama, stream };
}

const prompt = { modality: 'text', input: { prompt: 'stream me something' } };

function textOf(frames: Frame[]): string {
  return frames
    .filter((f) => f.type === 'delta')
    .map((f) => f.data.text)
    .join('');
}

t.test('openai streams SSE by default; deltas join to the answer; usage from its last chunk', async (t) => {
  const w = await world(t);
  const a = await w.stream({ ...prompt, tier: 'premium' });
  t.equal(a.status, 200);
  t.match(a.contentType, /^text\/event-stream/);
  t.equal(a.frames.filter((f) => f.type === 'delta').length, 5, 'one delta per upstream chunk');
  t.equal(textOf(a.frames), 'Hello from the fake OpenAI.');
  const done = a.frames.at(-1)!;
  t.equal(done.type, 'done');
  t.match(done.data, { provider: 'openai', model: 'gpt-4o-mini' });
  t.ok(done.data.usage.input_tokens > 0 && done.data.usage.output_tokens > 0, 'usage from the include_usage chunk');
  const sent = w.openai.calls('/v1/chat/completions')[0].body as any;
  t.equal(sent.stream, true);
  t.same(sent.stream_options, { include_usage: true });
});

t.test('Accept chooses NDJSON; ollama streams NDJSON by default', async (t) => {
  const w = await world(t);
  const nd = await w.stream({ ...prompt, tier: 'premium' }, 'application/x-ndjson');
  t.match(nd.contentType, /^application\/x-ndjson/);
  t.equal(textOf(nd.frames), 'Hello from the fake OpenAI.');
  t.equal(nd.frames.at(-1)!.type, 'done');
  const local = await w.stream(prompt);
  t.match(local.contentType, /^application\/x-ndjson/, "the provider's own format");
  t.equal(textOf(local.frames), 'Hello from the fake Ollama.');
  t.match(local.frames.at(-1)!.data, { provider: 'ollama', usage: { input_tokens: Number, output_tokens: Number } });
  t.ok(local.frames.at(-1)!.data.usage.output_tokens > 0, 'eval_count of the done line');
  const sse = await w.stream(prompt, 'text/event-stream');
  t.match(sse.contentType, /^text\/event-stream/);
});

t.test('anthropic streams its SSE events; usage from message_start and message_delta', async (t) => {
  const w = await world(t);
  const a = await w.stream({ ...prompt, model: 'claude-haiku-4-5' });
  t.equal(textOf(a.frames), 'Hello from the fake Claude.');
  const done = a.frames.at(-1)!;
  t.equal(done.type, 'done');
  t.equal(done.data.provider, 'anthropic');
  t.ok(done.data.usage.input_tokens > 0, 'input tokens from message_start');
  t.ok(done.data.usage.output_tokens > 1, "output tokens from message_delta (not message_start's 1)");
  const sent = w.anthropic.calls('/v1/messages')[0];
  t.equal(sent.headers['x-api-key'], 'sk-ant-test-fake');
  t.equal(sent.headers['anthropic-version'], '2023-06-01');
});

t.test('a non-streaming provider sends its whole answer as one delta', async (t) => {
  const w = await world(t);
  const a = await w.stream({ ...prompt, model: 'echo' });
  t.same(
    a.frames.map((f) => f.type),
    ['delta', 'done'],
  );
  t.equal(a.frames[0].data.text, 'stream me something');
  t.match(a.contentType, /^text\/event-stream/, 'SSE when the provider has no format of its own');
});

t.test('fallback happens before the first byte only', async (t) => {
  const w = await world(t);
  w.ollama.enqueue({ kind: 'status', status: 500 });
  const fell = await w.stream(prompt);
  t.equal(fell.status, 200);
  t.equal(fell.frames.at(-1)!.data.provider, 'openai', 'the next candidate answered');
  t.same(
    fell.frames.at(-1)!.data.attempts.map((a: any) => a.provider),
    ['ollama', 'openai'],
  );
  t.match(fell.contentType, /^text\/event-stream/, 'the format of the provider that answered');

  // After two deltas went out, a break is an error frame: nothing else is tried.
  const w2 = await world(t);
  w2.ollama.enqueue({ kind: 'break', after: 3 });
  const broke = await w2.stream(prompt);
  t.equal(broke.status, 200);
  const last = broke.frames.at(-1)!;
  t.equal(last.type, 'error');
  t.equal(last.data.code, 'upstream_error');
  t.match(last.data.message, /^ollama: /);
  t.ok(textOf(broke.frames).length > 0, 'the deltas before the break were sent');
  t.equal(w2.openai.calls('/v1/chat/completions').length, 0, 'no fallback after the first byte');
});

t.test('a stream without its terminator ends with an error frame, never a silent done', async (t) => {
  for (const [name, select] of [
    ['openai ([DONE])', { tier: 'premium' }],
    ['anthropic (message_stop)', { model: 'claude-haiku-4-5' }],
    ['ollama (done: true)', {}],
  ] as const) {
    await t.test(name, async (t) => {
      const w = await world(t);
      for (const fake of [w.openai, w.anthropic, w.ollama]) fake.enqueue({ kind: 'truncate' });
      const a = await w.stream({ ...prompt, ...select });
      t.equal(a.frames.at(-1)!.type, 'error');
      t.match(a.frames.at(-1)!.data.message, /without/);
      t.notOk(
        a.frames.some((f) => f.type === 'done'),
        'no done frame',
      );
    });
  }
});

t.test('an error the provider sends mid-stream ends the stream with an error frame', async (t) => {
  const w = await world(t);
  w.anthropic.streamErrorAfter(2);
  const a = await w.stream({ ...prompt, model: 'claude-haiku-4-5' });
  t.equal(a.frames.at(-1)!.type, 'error');
  t.match(a.frames.at(-1)!.data.message, /overloaded_error/);
  w.ollama.streamErrorAfter(2);
  const b = await w.stream(prompt);
  t.equal(b.frames.at(-1)!.type, 'error');
  t.match(b.frames.at(-1)!.data.message, /unexpected EOF/);
  w.openai.streamErrorAfter(2);
  const c = await w.stream({ ...prompt, tier: 'premium' });
  t.equal(c.frames.at(-1)!.type, 'error');
  t.match(c.frames.at(-1)!.data.message, /^openai: The server had an error/);
  t.equal(textOf(c.frames), 'Hello from the fake OpenAI.'.slice(0, textOf(c.frames).length), 'the deltas before it');
});

t.test('a client that disconnects cancels the upstream request at once', async (t) => {
  const w = await world(t);
  w.ollama.gapMs = 200;
  w.ollama.chunks = 50;
  const url = new URL(`${w.d.url}/v1/providers/execute/stream`);
  const org = await createOrganizationAs(
    w.d.url,
    asPrincipal('00000000-0000-4000-8000-00000000000a'),
    `dc-${randomUUID().slice(0, 8)}`,
  );
  await new Promise<void>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { ...asPrincipal('00000000-0000-4000-8000-00000000000a'), 'content-type': 'application/json' } },
      (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      },
    );
    req.on('error', () => undefined);
    req.once('error', reject);
    req.end(JSON.stringify({ ...prompt, organization_id: org.id }));
  });
  await waitFor(() => w.ollama.calls('/api/chat').at(-1)?.aborted === true, {
    what: 'the upstream request to be aborted',
    timeoutMs: 5000,
  });
  t.pass('upstream aborted');
  // Its usage is recorded as cancelled.
  const rows = await w.d.services.providers.usageOf(operator, org.id, {});
  t.match(rows, [{ provider: 'ollama', calls: 1, failures: 1 }]);
});

t.test('streams serve text and audio; other modalities are 422', async (t) => {
  const w = await world(t);
  const a = await w.stream({ modality: 'embedding', input: { text: 'x' } });
  t.equal(a.status, 422);
  t.match(a.body, /streams carry text/);
});

t.test('params.stream on /v1/providers/execute is 400 naming the stream route, and calls no provider', async (t) => {
  const w = await world(t);
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(w.d.url, owner, `ns-${randomUUID().slice(0, 8)}`);
  const execute = (params: Record<string, unknown>) =>
    request(w.d.url, 'POST', '/v1/providers/execute', {
      headers: owner,
      body: { ...prompt, tier: 'premium', organization_id: org.id, params },
    });
  const refused = await execute({ stream: true });
  t.equal(refused.status, 400);
  t.equal(refused.body.error.code, 'invalid_request');
  t.match(refused.body.error.message, '/v1/providers/execute/stream');
  t.same(refused.body.error.details, { stream_route: '/v1/providers/execute/stream' });
  t.equal(w.openai.calls('/v1/chat/completions').length, 0, 'no upstream call');
  const whole = await execute({ stream: false });
  t.equal(whole.status, 200, 'stream: false is an ordinary call');
  t.equal(whole.body.data.provider, 'openai');
});
