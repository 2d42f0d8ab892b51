// Each adapter against a fake speaking its provider's real protocol: what goes on the wire (paths,
// headers, bodies) and what comes back in contract 8's shapes, for every modality; the optional
// runtimes report unavailable with the reason when their dependency is absent.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { FakeComfyUI } from './fakes/comfyui.js';
import { FakeOllama } from './fakes/ollama.js';
import { FakeOpenAI } from './fakes/openai.js';
import { FakeWhisper } from './fakes/whisper.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

async function daemonWith(
  t: Test,
  env: Record<string, string>,
): Promise<{ d: Daemon; execute: (body: Record<string, unknown>) => Promise<any> }> {
  const d = await startTestDaemon(t, {
    SERVICE_PROVIDER_TIMEOUT_MS: '3000',
    SERVICE_COMFYUI_POLL_MS: '20',
    ...env,
  });
  await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `ad-${randomUUID().slice(0, 8)}`);
  const execute = async (body: Record<string, unknown>) =>
    request(d.url, 'POST', '/v1/providers/execute', { headers: owner, body: { organization_id: org.id, ...body } });
  return { d, execute };
}

t.test('openai: chat, embeddings and images on the wire and back', async (t) => {
  const openai = await FakeOpenAI.start(t);
  const { execute } = await daemonWith(t, { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: openai.baseUrl });

  const chat = await execute({
    modality: 'text',
    input: {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi there' },
      ],
    },
    params: { temperature: 0.2, max_tokens: 50, stop: ['\n\n'] },
  });
  t.equal(chat.status, 200, JSON.stringify(chat.body));
  t.equal(chat.body.data.output.text, 'Hello from the fake OpenAI.');
  const sent = openai.calls('/v1/chat/completions')[0];
  t.equal(sent.headers.authorization, 'Bearer sk-test-fake');
  t.match(sent.body, {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi there' },
    ],
    temperature: 0.2,
    max_tokens: 50,
    stop: ['\n\n'],
  });

  const emb = await execute({ modality: 'embedding', input: { texts: ['one', 'two'] } });
  t.equal(emb.status, 200, JSON.stringify(emb.body));
  t.equal(emb.body.data.model, 'text-embedding-3-small');
  t.equal(emb.body.data.output.embeddings.length, 2);
  t.ok(emb.body.data.output.embeddings.every((v: number[]) => v.length > 0 && v.every((x) => typeof x === 'number')));
  t.notSame(emb.body.data.output.embeddings[0], emb.body.data.output.embeddings[1], 'one vector per text, in order');
  t.same(openai.calls('/v1/embeddings')[0].body, { model: 'text-embedding-3-small', input: ['one', 'two'] });

  const img = await execute({ modality: 'image', input: { prompt: 'a lighthouse', size: '1024x1024' } });
  t.equal(img.status, 200, JSON.stringify(img.body));
  const image = img.body.data.output.images[0];
  t.equal(image.content_type, 'image/png');
  t.equal(Buffer.from(image.base64, 'base64').subarray(1, 4).toString(), 'PNG', 'real PNG bytes');
  t.match(openai.calls('/v1/images/generations')[0].body, {
    model: 'dall-e-3',
    prompt: 'a lighthouse',
    size: '1024x1024',
    response_format: 'b64_json',
  });
});

t.test('ollama: chat without streaming, embeddings; OLLAMA_HOST as host:port', async (t) => {
  const ollama = await FakeOllama.start(t);
  const { execute } = await daemonWith(t, { OLLAMA_HOST: ollama.url.replace('http://', '') });
  const chat = await execute({ modality: 'text', input: { prompt: 'hello' }, params: { max_tokens: 20 } });
  t.equal(chat.status, 200, JSON.stringify(chat.body));
  t.equal(chat.body.data.output.text, 'Hello from the fake Ollama.');
  t.ok(chat.body.data.usage.output_tokens > 0, 'eval_count');
  t.match(ollama.calls('/api/chat')[0].body, { model: 'llama3.2', stream: false, options: { num_predict: 20 } });
  const emb = await execute({ modality: 'embedding', input: { text: 'vector me' } });
  t.equal(emb.status, 200, JSON.stringify(emb.body));
  t.equal(emb.body.data.output.embeddings.length, 1);
  t.match(ollama.calls('/api/embed')[0].body, { model: 'nomic-embed-text', input: ['vector me'] });
  const missing = await execute({ modality: 'text', input: { prompt: 'x' }, model: 'llama3.2' });
  t.equal(missing.status, 200, 'llama3.2 matches llama3.2:latest');
});

t.test('whisper: the audio goes up as multipart and the transcript comes back', async (t) => {
  const whisper = await FakeWhisper.start(t);
  const { d, execute } = await daemonWith(t, { SERVICE_WHISPER_URL: whisper.url });
  const audio = Buffer.from('RIFF----WAVEfmt fake audio bytes');
  const res = await execute({
    modality: 'audio',
    input: { audio_base64: audio.toString('base64'), format: 'wav' },
    params: { temperature: 0 },
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same(res.body.data.output, { text: 'hello from the fake whisper' });
  t.equal(res.body.data.provider, 'whisper');
  const upload = whisper.uploads[0];
  t.equal(upload.fileBytes, audio.length, 'the decoded bytes, whole');
  t.equal(upload.filename, 'audio.wav');
  t.equal(upload.fields.response_format, 'json');
  t.equal(upload.fields.temperature, '0');

  // While the model loads, /health answers 503: a probe marks whisper unhealthy and audio has no provider but echo.
  whisper.loading = true;
  await d.services.providers.probeDue(60_000, 1000, Number.MAX_SAFE_INTEGER);
  const record = d.services.providers.listProviders().find((p) => p.name === 'whisper')!;
  t.equal(record.health.status, 'unhealthy');
  t.match(record.health.reason, /503/);
  const none = await execute({ modality: 'audio', input: { audio_base64: 'AAAA', format: 'wav' } });
  t.equal(none.status, 503, 'echo does not stand in for a real provider that is down');
});

t.test('comfyui: the default graph carries the prompt and size; polled until done; images fetched', async (t) => {
  const comfy = await FakeComfyUI.start(t, { polls: 3 });
  const { execute } = await daemonWith(t, { SERVICE_COMFYUI_URL: comfy.url });
  const res = await execute({ modality: 'image', input: { prompt: 'a red fox in snow', size: '768x512' } });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.equal(res.body.data.provider, 'comfyui');
  t.equal(res.body.data.output.images.length, 1);
  t.equal(Buffer.from(res.body.data.output.images[0].base64, 'base64').subarray(1, 4).toString(), 'PNG');
  const graph = comfy.prompts[0] as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  const nodes = Object.values(graph);
  t.ok(
    nodes.some((n) => n.class_type === 'CLIPTextEncode' && n.inputs.text === 'a red fox in snow'),
    'the prompt',
  );
  t.ok(
    nodes.some((n) => n.class_type === 'EmptyLatentImage' && n.inputs.width === 768 && n.inputs.height === 512),
    'the size',
  );
  t.ok(
    nodes.some((n) => n.class_type === 'CheckpointLoaderSimple'),
    'a checkpoint',
  );
  t.ok(comfy.server.calls('/history/' + String(comfy.promptIds[0])).length >= 4, 'polled until the entry appeared');

  comfy.failNext = true;
  const failed = await execute({ modality: 'image', input: { prompt: 'doomed' } });
  t.equal(failed.status, 502);
  t.match(failed.body.error.message, /comfyui failed the graph/);
});
