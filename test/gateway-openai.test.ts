// Contract 13's gateway, with the clients users already have: the official `openai` and
// `@anthropic-ai/sdk` packages pointed at the daemon (baseURL), the local fakes upstream. Streamed
// and unstreamed answers, a fallback, 401 and 403 as each SDK reports them, OpenAI's error shape,
// and the usage ledger moving as it does for /v1/providers/execute.
import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { SignJWT } from 'jose';
import OpenAI, { toFile } from 'openai';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { FakeAnthropic } from './fakes/anthropic.js';
import { FakeComfyUI } from './fakes/comfyui.js';
import { FakeOllama } from './fakes/ollama.js';
import { FakeOpenAI, PNG_BASE64, vectorOf } from './fakes/openai.js';
import { FakeWhisper } from './fakes/whisper.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

const JWT_SECRET = 'gateway-test-secret-that-is-long-enough-0123456789';

interface World {
  d: Daemon;
  openai: FakeOpenAI;
  anthropic: FakeAnthropic;
  ollama: FakeOllama;
  whisper: FakeWhisper;
  ownerId: string;
  owner: Record<string, string>;
  org: { id: string };
  /** A new API key of the organization with these scopes. */
  key: (scopes: string[]) => Promise<string>;
  /** The official OpenAI client with this key (no retries: a test sees each answer). */
  client: (apiKey: string, options?: { organization?: string }) => OpenAI;
  claude: (apiKey: string) => Anthropic;
  /** Calls recorded in the organization's usage ledger, by provider. */
  ledger: () => Promise<Record<string, number>>;
}

async function world(t: Test): Promise<World> {
  const [openai, anthropic, ollama, whisper, comfyui] = await Promise.all([
    FakeOpenAI.start(t, { chunks: 4 }),
    FakeAnthropic.start(t, { chunks: 4 }),
    FakeOllama.start(t, { chunks: 3 }),
    FakeWhisper.start(t),
    FakeComfyUI.start(t),
  ]);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-fake',
    ANTHROPIC_BASE_URL: anthropic.baseUrl,
    OLLAMA_HOST: ollama.url,
    SERVICE_WHISPER_URL: whisper.url,
    SERVICE_COMFYUI_URL: comfyui.url,
    SERVICE_PROVIDER_TIMEOUT_MS: '2000',
    SERVICE_PROVIDER_BREAKER_COOLDOWN_MS: '60000',
    // One failed call opens the breaker here (the rate over a window has its own tests).
    SERVICE_PROVIDER_BREAKER_MIN_CALLS: '1',
    JWT_SECRET,
  });
  await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
  const ownerId = randomUUID();
  const owner = asPrincipal(ownerId);
  const org = await createOrganizationAs(d.url, owner, `gw-${randomUUID().slice(0, 8)}`);
  const key = async (scopes: string[]) => {
    const res = await request(d.url, 'POST', '/v1/api-keys', {
      headers: owner,
      body: { name: `gw-${randomUUID().slice(0, 6)}`, organization_id: org.id, scopes },
    });
    return res.body.data.raw_key as string;
  };
  const client = (apiKey: string, options: { organization?: string } = {}) =>
    new OpenAI({ apiKey, baseURL: `${d.url}/v1`, maxRetries: 0, ...options });
  const claude = (apiKey: string) => new Anthropic({ apiKey, baseURL: d.url, maxRetries: 0 });
  const ledger = async () => {
    const res = await request(d.url, 'GET', `/v1/organizations/${org.id}/usage`, { headers: owner });
    const calls: Record<string, number> = {};
    for (const row of res.body.data as { provider: string; calls: number }[])
      calls[row.provider] = (calls[row.provider] ?? 0) + row.calls;
    return calls;
  };
  return { d, openai, anthropic, ollama, whisper, ownerId, owner, org, key, client, claude, ledger };
}

t.test('chat completions, unstreamed: OpenAI shape, routed by model, usage recorded', async (t) => {
  const w = await world(t);
  const ai = w.client(await w.key(['providers:execute']));
  const before = await w.ledger();
  const answer = await ai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'say hello' },
    ],
    temperature: 0.2,
    max_tokens: 50,
  });
  t.equal(answer.object, 'chat.completion');
  t.match(answer.id, /^chatcmpl-/);
  t.equal(answer.model, 'gpt-4o-mini');
  t.equal(answer.choices[0].message.role, 'assistant');
  t.equal(answer.choices[0].message.content, 'Hello from the fake OpenAI.');
  t.equal(answer.choices[0].finish_reason, 'stop');
  t.ok(answer.usage!.prompt_tokens > 0 && answer.usage!.completion_tokens > 0);
  t.equal(answer.usage!.total_tokens, answer.usage!.prompt_tokens + answer.usage!.completion_tokens);
  const sent = w.openai.calls('/v1/chat/completions')[0].body as any;
  t.same(
    sent.messages.map((m: any) => m.role),
    ['system', 'user'],
    'the messages went upstream as given',
  );
  t.equal(sent.temperature, 0.2);
  t.equal(sent.max_tokens, 50);

  const basic = await ai.chat.completions.create({ model: 'basic', messages: [{ role: 'user', content: 'hi' }] });
  t.equal(basic.choices[0].message.content, 'Hello from the fake Ollama.', '"basic" routes by tier');
  const echo = await ai.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'repeat me' }] });
  t.equal(echo.choices[0].message.content, 'repeat me', '"echo" names the echo stub');

  const after = await w.ledger();
  t.equal((after.openai ?? 0) - (before.openai ?? 0), 1, 'the ledger moved: one openai call');
  t.equal((after.ollama ?? 0) - (before.ollama ?? 0), 1, 'one ollama call');
  t.equal((after.echo ?? 0) - (before.echo ?? 0), 1, 'one echo call');
});

t.test('chat completions, streamed: chunks, finish_reason, usage in the last chunk, [DONE]', async (t) => {
  const w = await world(t);
  const ai = w.client(await w.key(['providers:execute']));
  const stream = await ai.chat.completions.create({
    model: 'premium',
    messages: [{ role: 'user', content: 'stream me something' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  t.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
  t.equal(new Set(chunks.map((c) => c.id)).size, 1, 'one id for the whole stream');
  t.equal(chunks[0].choices[0].delta.role, 'assistant');
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  t.equal(text, 'Hello from the fake OpenAI.');
  const last = chunks.at(-1)!;
  t.same(last.choices, [], 'the usage chunk has no choices');
  t.ok(last.usage!.prompt_tokens > 0 && last.usage!.completion_tokens > 0, 'usage in the last chunk');
  t.equal(chunks.at(-2)!.choices[0].finish_reason, 'stop');

  // Without include_usage there is no usage chunk; an NDJSON upstream (ollama) comes out as OpenAI's SSE.
  const plain = await ai.chat.completions.create({ model: 'basic', messages: [{ role: 'user', content: 'hi' }], stream: true });
  const pieces: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of plain) pieces.push(chunk);
  t.equal(pieces.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'Hello from the fake Ollama.');
  t.ok(
    pieces.every((c) => c.usage === undefined),
    'no usage chunk unless asked',
  );
  t.equal(pieces.at(-1)!.choices[0].finish_reason, 'stop');

  // The raw wire: data: frames, [DONE] last.
  const raw = await fetch(`${w.d.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await w.key(['providers:execute'])}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'x' }], stream: true }),
  });
  t.match(raw.headers.get('content-type'), /^text\/event-stream/);
  const body = await raw.text();
  t.ok(body.trimEnd().endsWith('data: [DONE]'), 'data: [DONE] is last');
  const ledger = await w.ledger();
  t.equal(ledger.openai, 1, 'streamed calls are in the ledger');
  t.equal(ledger.ollama, 1);
});

t.test('a failing provider falls back to the next, as execute does (the breaker too)', async (t) => {
  const w = await world(t);
  const ai = w.client(await w.key(['providers:execute']));
  w.openai.enqueue({ kind: 'status', status: 500 });
  const answer = await ai.chat.completions.create({ model: 'premium', messages: [{ role: 'user', content: 'hi' }] });
  t.equal(answer.choices[0].message.content, 'Hello from the fake Claude.', 'anthropic answered after openai failed');
  const openai = w.d.services.providers.listProviders().find((p) => p.name === 'openai')!;
  t.equal(openai.health.status, 'unhealthy', 'the breaker opened');
  // Streamed, before the first byte: the same fallback.
  w.anthropic.enqueue({ kind: 'status', status: 529 });
  const failed = await ai.chat.completions
    .create({ model: 'premium', messages: [{ role: 'user', content: 'hi' }], stream: true })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(failed, OpenAI.APIError);
  t.equal((failed as InstanceType<typeof OpenAI.APIError>).status, 502, "every candidate failed: execute's 502");
  t.match((failed as any).error, { type: 'upstream_error', code: 'upstream_error' });
  const ledger = await w.ledger();
  t.ok((ledger.openai ?? 0) >= 1 && (ledger.anthropic ?? 0) >= 2, 'failed attempts are recorded too');
});

t.test('401 and 403 as the OpenAI SDK reports them, in OpenAI error shape', async (t) => {
  const w = await world(t);
  const bad = w.client('svc_abcdefgh_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG');
  const unauthenticated = await bad.models.list().then(
    () => null,
    (err: unknown) => err,
  );
  t.type(unauthenticated, OpenAI.AuthenticationError);
  t.match((unauthenticated as any).error, { type: 'authentication_error', code: 'unauthenticated', message: String });

  const wrongScope = w.client(await w.key(['jobs:read']));
  const refused = await wrongScope.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }] }).then(
    () => null,
    (err: unknown) => err,
  );
  t.type(refused, OpenAI.PermissionDeniedError);
  t.match((refused as any).error, { type: 'permission_error', code: 'insufficient_scope', message: /providers:execute/ });

  // A viewer (JWT, naming the organization) may not execute: 403 too.
  const viewerId = randomUUID();
  await request(w.d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.owner,
    body: { principal_id: viewerId, role: 'viewer' },
  });
  const viewer = w.client(await jwtFor(viewerId), { organization: w.org.id });
  const denied = await viewer.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }] }).then(
    () => null,
    (err: unknown) => err,
  );
  t.type(denied, OpenAI.PermissionDeniedError);

  const invalid = await w
    .client(await w.key(['providers:execute']))
    .chat.completions.create({ model: 'echo', messages: [] })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(invalid, OpenAI.UnprocessableEntityError);
  t.match((invalid as any).error, { type: 'invalid_request_error', param: 'messages', code: 'validation_failed' });

  const tools = await fetch(`${w.d.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await w.key(['providers:execute'])}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }] }),
  });
  t.equal(tools.status, 422, 'what the gateway does not do is refused, never ignored');
  t.match(await tools.json(), { error: { param: 'tools', message: /tool calling is not served/ } });
});

async function jwtFor(sub: string): Promise<string> {
  return new SignJWT({ sub })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

t.test('a JWT caller names the organization with OpenAI-Organization or X-Organization-Id', async (t) => {
  const w = await world(t);
  const token = await jwtFor(w.ownerId);
  const viaOption = w.client(token, { organization: w.org.id });
  const answer = await viaOption.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'org' }] });
  t.equal(answer.choices[0].message.content, 'org');
  const viaHeader = new OpenAI({
    apiKey: token,
    baseURL: `${w.d.url}/v1`,
    maxRetries: 0,
    defaultHeaders: { 'x-organization-id': w.org.id },
  });
  t.equal((await viaHeader.embeddings.create({ model: 'echo', input: 'x' })).data.length, 1);
  const none = await w
    .client(token)
    .chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }] })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(none, OpenAI.UnprocessableEntityError, 'no organization named');
  t.match((none as any).error, { param: 'organization_id' });
  const other = await createOrganizationAs(w.d.url, asPrincipal(randomUUID()), `gw-other-${randomUUID().slice(0, 8)}`);
  const foreign = await w
    .client(token, { organization: other.id })
    .chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'x' }] })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(foreign, OpenAI.NotFoundError, "another organization's is not found");
  t.equal((await w.ledger()).echo, 2, 'billed to the organization named');
});

t.test('embeddings (base64 by default in the SDK, and float), images, transcriptions, models', async (t) => {
  const w = await world(t);
  const ai = w.client(await w.key(['providers:execute']));
  const vectors = await ai.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'] });
  t.equal(vectors.object, 'list');
  t.equal(vectors.data.length, 2);
  t.equal(w.openai.calls('/v1/embeddings').length, 1);
  const expected = vectorOf('two');
  t.ok(
    vectors.data[1].embedding.every((x, i) => Math.abs(x - expected[i]) < 1e-6),
    'base64 float32 decoded by the SDK to the provider vector',
  );
  const floats = await ai.embeddings.create({ model: 'basic', input: 'one', encoding_format: 'float' });
  t.equal(floats.data.length, 1);
  t.ok(Array.isArray(floats.data[0].embedding) && floats.data[0].embedding.length > 0, 'float arrays from ollama');

  const image = await ai.images.generate({ model: 'dall-e-3', prompt: 'a red square', size: '1024x1024' });
  t.equal(image.data![0].b64_json, PNG_BASE64);
  const local = await ai.images.generate({ model: 'basic', prompt: 'a red square', response_format: 'url' });
  t.match(local.data![0].url, /^data:image\/png;base64,/, 'comfyui, as a data: URL');

  const transcript = await ai.audio.transcriptions.create({
    model: 'basic',
    file: await toFile(Buffer.from('RIFF....WAVEfmt fake audio'), 'speech.wav', { type: 'audio/wav' }),
  });
  t.equal(transcript.text, 'hello from the fake whisper');
  t.equal(w.whisper.uploads.length, 1, 'whisper got the file');
  const asText = await ai.audio.transcriptions.create({
    model: 'basic',
    file: await toFile(Buffer.from('fake'), 'speech.mp3'),
    response_format: 'text',
  });
  t.equal(String(asText).trim(), 'hello from the fake whisper');
  const badAudio = await ai.audio.transcriptions
    .create({ model: 'basic', file: await toFile(Buffer.from('x'), 'notes.txt', { type: 'text/plain' }) })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(badAudio, OpenAI.UnprocessableEntityError);
  t.match((badAudio as any).error, { param: 'file' });

  const models = await ai.models.list();
  const ids = models.data.map((m) => m.id);
  t.ok(ids.includes('gpt-4o-mini') && ids.includes('claude-haiku-4-5') && ids.includes('basic'), ids.join());
  t.equal(models.data.find((m) => m.id === 'gpt-4o-mini')!.owned_by, 'openai');

  const ledger = await w.ledger();
  t.equal(ledger.openai, 2, 'embeddings and the image');
  t.equal(ledger.whisper, 2);
  t.equal(ledger.comfyui, 1);
});

t.test("Anthropic's Messages API with @anthropic-ai/sdk: unstreamed, streamed, errors", async (t) => {
  const w = await world(t);
  const key = await w.key(['providers:execute']);
  const claude = w.claude(key);
  const message = await claude.messages.create({
    model: 'claude-haiku-4-5',
    max_tokens: 64,
    system: 'be brief',
    messages: [{ role: 'user', content: 'say hello' }],
  });
  t.equal(message.type, 'message');
  t.equal(message.role, 'assistant');
  t.equal(message.model, 'claude-haiku-4-5');
  t.same(message.content, [{ type: 'text', text: 'Hello from the fake Claude.' }]);
  t.equal(message.stop_reason, 'end_turn');
  t.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 0);
  const sent = w.anthropic.calls('/v1/messages')[0].body as any;
  t.equal(sent.system, 'be brief', 'the system prompt went upstream');
  t.equal(sent.max_tokens, 64);

  const stream = claude.messages.stream({ model: 'premium', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
  const seen: string[] = [];
  const texts: string[] = [];
  stream.on('streamEvent', (event) => seen.push(event.type));
  stream.on('text', (text) => texts.push(text));
  const final = await stream.finalMessage();
  t.equal(texts.join(''), 'Hello from the fake OpenAI.', 'premium is openai first, streamed as Anthropic events');
  t.same(final.content, [{ type: 'text', text: 'Hello from the fake OpenAI.' }]);
  t.ok(final.usage.output_tokens > 0, 'usage from message_delta');
  t.same(
    [...new Set(seen)],
    ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
  );

  // A stream that breaks after it started ends with an error event, which the SDK throws.
  w.anthropic.streamErrorAfter(2);
  const broken = await claude.messages
    .stream({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
    .finalMessage()
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(broken, Anthropic.APIError, 'a broken stream is an error, never a silent end');

  const unauthenticated = await w
    .claude('svc_abcdefgh_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG')
    .messages.create({ model: 'echo', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(unauthenticated, Anthropic.AuthenticationError);
  t.match((unauthenticated as any).error, { type: 'error', error: { type: 'authentication_error' } });
  const refused = await w
    .claude(await w.key(['jobs:read']))
    .messages.create({ model: 'echo', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
    .then(
      () => null,
      (err: unknown) => err,
    );
  t.type(refused, Anthropic.PermissionDeniedError);
  t.match((refused as any).error, { error: { type: 'permission_error', message: /providers:execute/ } });

  const ledger = await w.ledger();
  t.equal(ledger.anthropic, 2, 'both anthropic calls recorded');
  t.equal(ledger.openai, 1);
});
