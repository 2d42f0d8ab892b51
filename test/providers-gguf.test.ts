// The model-file runtime (`gguf`, issue 13 item 2): node-llama-cpp (an optional dependency) runs GGUF
// models that this test writes itself (test/support/gguf.ts): a `llama` model over a byte-level
// vocabulary that writes the letters after the prompt's last one, and one that writes `a` for ever,
// through the daemon's execute route, the model rule, max_tokens and its errors.
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ggufFileProblem } from '../src/domain/providers/adapters/gguf-header.js';
import { asPrincipal, createOrganizationAs, privateDir, repoRoot, request, startTestDaemon, waitFor } from './helpers.js';
import { byteModel } from './support/gguf.js';

const code = (c: string) => c.charCodeAt(0);

/** a→b, b→c ... y→z; after g and after z the end token: "c" goes on "defg", "w" goes on "xyz". */
function nextLetterModel(): Buffer {
  const next = new Map<number, number | null>();
  for (let b = code('a'); b < code('z'); b++) next.set(b, b === code('g') ? null : b + 1);
  next.set(code('z'), null);
  return byteModel({ name: 'next-letter', next, other: code('a') });
}

/** `a` after anything: never ends, so only the token limit stops it. */
function endlessModel(): Buffer {
  return byteModel({ name: 'endless', next: new Map(), other: code('a') });
}

/** A GGUF header with no metadata and no tensors: it passes the header check, and the runtime refuses it. */
function emptyGguf(): Buffer {
  const b = Buffer.alloc(24);
  b.write('GGUF', 0, 'latin1');
  b.writeUInt32LE(3, 4);
  return b;
}

/** Files the header check refuses: one that is not GGUF, and a model cut short. */
function badFiles(dir: string): void {
  writeFileSync(path.join(dir, 'x-text.gguf'), 'not a model');
  writeFileSync(path.join(dir, 'x-cut.gguf'), nextLetterModel().subarray(0, 60_000));
}

/** The models, the bad files and one that fails only when loaded (named to sort last: a call naming no model gets the first). */
function modelDir(): string {
  const dir = privateDir();
  writeFileSync(path.join(dir, 'endless.gguf'), endlessModel());
  writeFileSync(path.join(dir, 'next-letter.gguf'), nextLetterModel());
  badFiles(dir);
  writeFileSync(path.join(dir, 'x-empty.gguf'), emptyGguf());
  writeFileSync(path.join(dir, 'notes.txt'), 'not a model file');
  return dir;
}

// One daemon for both tests: llama.cpp starts once (node-llama-cpp first tests its binary in a child process).
const d = await startTestDaemon(t, { SERVICE_GGUF_MODEL_DIR: modelDir() });
await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
const owner = asPrincipal(randomUUID());
const org = await createOrganizationAs(d.url, owner, `gguf-${randomUUID().slice(0, 8)}`);
const execute = (body: Record<string, unknown>): Promise<any> =>
  request(d.url, 'POST', '/v1/providers/execute', { headers: owner, body: { organization_id: org.id, ...body } });

// An optional peer dependency that `npm ci` leaves out: without it these tests skip, naming the command.
const skip = existsSync(path.join(repoRoot, 'node_modules', 'node-llama-cpp', 'package.json'))
  ? false
  : 'node-llama-cpp is not installed: switchyard runtime install gguf';

t.test('present with a model directory, the runtime runs its models', { skip }, async (t) => {
  const provider = d.services.providers.listProviders().find((p) => p.name === 'gguf')!;
  t.match(provider, { kind: 'local model-file runtime', tier: 'basic', modalities: ['text'], health: { status: 'healthy' } });
  t.same(
    provider.models,
    ['endless.gguf', 'next-letter.gguf', 'x-empty.gguf'],
    'the .gguf files of the directory that pass the header check',
  );

  const written = await execute({ modality: 'text', model: 'next-letter.gguf', input: { prompt: 'c' } });
  t.equal(written.status, 200, JSON.stringify(written.body));
  t.match(written.body.data, { provider: 'gguf', model: 'next-letter.gguf', modality: 'text', cost_usd: 0 });
  t.equal(written.body.data.output.text, 'defg', 'greedy: each letter the next, until the end token (after g)');
  t.equal(written.body.data.usage.output_tokens, 4, 'a token a byte; the end token is not counted');
  t.equal(written.body.data.usage.input_tokens, 1, 'the prompt as the chat template writes it: "c", one token');

  const again = await execute({ modality: 'text', model: 'next-letter.gguf', input: { prompt: 'c' } });
  t.same(again.body.data.output, written.body.data.output, 'the same answer again');
  t.same(again.body.data.usage, written.body.data.usage, 'and the same usage');

  const chat = await execute({
    modality: 'text',
    model: 'next-letter.gguf',
    input: {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'abc' },
        { role: 'assistant', content: 'd' },
        { role: 'user', content: 'w' },
      ],
    },
  });
  t.equal(chat.status, 200, JSON.stringify(chat.body));
  t.equal(chat.body.data.output.text, 'xyz', 'the conversation goes through the model, the last message last');
  t.equal(
    chat.body.data.usage.input_tokens,
    'be briefabcdw'.length,
    'every message is in the prompt, a token a byte (a space is one token too)',
  );

  const capped = await execute({
    modality: 'text',
    model: 'next-letter.gguf',
    input: { prompt: 'a' },
    params: { max_tokens: 3 },
  });
  t.equal(capped.body.data.output.text, 'bcd', 'max_tokens bounds what is written');
  t.equal(capped.body.data.usage.output_tokens, 3);

  const stopped = await execute({ modality: 'text', model: 'next-letter.gguf', input: { prompt: 'a' }, params: { stop: ['e'] } });
  t.equal(stopped.body.data.output.text, 'bcd', 'a stop sequence ends the answer before it');

  const sampled = await execute({
    modality: 'text',
    model: 'next-letter.gguf',
    input: { prompt: 'c' },
    params: { temperature: 0.8, top_p: 0.9 },
  });
  t.equal(sampled.body.data.output.text, 'defg', 'sampling parameters are taken (this model is sure of each letter)');

  const [first, second] = await Promise.all([
    execute({ modality: 'text', model: 'next-letter.gguf', input: { prompt: 'c' } }),
    execute({ modality: 'text', model: 'next-letter.gguf', input: { prompt: 'w' } }),
  ]);
  t.same([first.body.data.output.text, second.body.data.output.text], ['defg', 'xyz'], 'two calls at once take turns');

  const unnamed = await execute({ modality: 'text', input: { prompt: 'x' }, tier: 'basic' });
  t.equal(unnamed.status, 200, JSON.stringify(unnamed.body));
  t.match(unnamed.body.data, { provider: 'gguf', model: 'endless.gguf' }, 'no model named: the first .gguf file by name');
  t.equal(unnamed.body.data.output.text, 'a'.repeat(64), 'without max_tokens, 64 tokens at most');

  const bounded = await execute({
    modality: 'text',
    model: 'endless.gguf',
    input: { prompt: 'x' },
    params: { max_tokens: 5000 },
  });
  t.equal(bounded.status, 200, JSON.stringify(bounded.body));
  t.equal(bounded.body.data.output.text, 'a'.repeat(256), 'max_tokens above 256 writes 256');
  t.equal(bounded.body.data.usage.output_tokens, 256);
});

t.test('health per model: a file that cannot load is listed with why, skipped, and refused in our words', { skip }, async (t) => {
  const listed = await request(d.url, 'GET', '/v1/providers', { headers: owner });
  const gguf = listed.body.data.find((p: any) => p.name === 'gguf');
  t.same(
    gguf.unavailable_models,
    [
      { model: 'x-cut.gguf', reason: 'file is cut short' },
      { model: 'x-text.gguf', reason: 'not a GGUF file' },
    ],
    'the header check at discovery: each bad file with a readable reason',
  );
  t.equal(gguf.health.status, 'healthy', 'a bad file is not a bad provider while others load');

  const text = await execute({ modality: 'text', model: 'x-text.gguf', input: { prompt: 'x' } });
  t.equal(text.status, 503, JSON.stringify(text.body));
  t.equal(text.body.error.code, 'no_provider');
  t.match(text.body.error.message, /gguf: model x-text\.gguf cannot be loaded: not a GGUF file/);

  const cut = await execute({ modality: 'text', model: 'x-cut.gguf', input: { prompt: 'x' } });
  t.equal(cut.status, 503, JSON.stringify(cut.body));
  t.match(cut.body.error.message, /x-cut\.gguf cannot be loaded: file is cut short/);

  // Passes the header check, so it is advertised until the runtime refuses it on the first call.
  const empty = await execute({ modality: 'text', model: 'x-empty.gguf', input: { prompt: 'x' } });
  t.equal(empty.status, 503, JSON.stringify(empty.body));
  t.equal(empty.body.error.code, 'no_provider');
  t.match(empty.body.error.message, /x-empty\.gguf cannot be loaded: /);
  for (const answer of [text, cut, empty]) {
    const said = JSON.stringify(answer.body);
    t.notMatch(said, /Cannot read|undefined|properties|Error:|llama|gguf_init/i, 'no runtime exception text reaches the client');
  }
  const after = d.services.providers.listProviders().find((p) => p.name === 'gguf')!;
  t.notOk(after.models.includes('x-empty.gguf'), 'a model that failed to load is no longer advertised');
  t.ok(
    after.unavailable_models.some((u) => u.model === 'x-empty.gguf'),
    'and is listed with why: ' + JSON.stringify(after.unavailable_models),
  );
  const again = await execute({ modality: 'text', model: 'x-empty.gguf', input: { prompt: 'x' } });
  t.equal(again.status, 503, 'routing skips it from then on');
  t.match(again.body.error.details.rejected, [{ provider: 'gguf', reason: /model x-empty\.gguf cannot be loaded/ }]);

  const route = d.services.providers.explainRoute({ modality: 'text', model: 'x-text.gguf' });
  t.equal(route.winner, null);
  t.match(
    route.rejected,
    [{ provider: 'gguf', reason: 'model x-text.gguf cannot be loaded: not a GGUF file' }],
    'provider route says why',
  );

  const fine = await execute({ modality: 'text', model: 'next-letter.gguf', input: { prompt: 'c' } });
  t.equal(fine.body.data?.output.text, 'defg', 'the daemon and its other models carry on');
  t.equal(d.services.providers.listProviders().find((p) => p.name === 'gguf')!.health.status, 'healthy');
});

t.test('a directory where no model can load makes the provider unhealthy, with why', { skip }, async (t) => {
  const dir = privateDir();
  badFiles(dir);
  const bad = await startTestDaemon(t, { SERVICE_GGUF_MODEL_DIR: dir });
  await waitFor(() => bad.services.providers.listProviders().every((p) => p.health.checked_at !== null), {
    what: 'first probes',
  });
  const gguf = bad.services.providers.listProviders().find((p) => p.name === 'gguf')!;
  t.match(gguf.health, {
    status: 'unhealthy',
    reason: 'no model can be loaded (x-cut.gguf: file is cut short; x-text.gguf: not a GGUF file)',
  });
  t.same(gguf.models, []);
  const route = bad.services.providers.explainRoute({ modality: 'text', tier: 'basic' });
  t.match(route.rejected, [{ provider: 'gguf', reason: /^unhealthy: no model can be loaded/ }]);
});

t.test('a header that claims more than its file holds is refused, the file read no further', async (t) => {
  const file = path.join(privateDir(), 'claims.gguf');
  const header = emptyGguf();
  header.writeBigUInt64LE(10n ** 9n, 8); // a billion tensors, in 24 bytes
  writeFileSync(file, header);
  t.equal(await ggufFileProblem(file), 'file is cut short');
});

t.test('what it refuses: a name outside the directory', { skip }, async (t) => {
  const outside = await execute({ modality: 'text', model: '../next-letter.gguf', input: { prompt: 'x' } });
  t.equal(outside.status, 503, 'a model no provider advertises is not routed');
  t.match(outside.body.error, { code: 'no_provider', message: /gguf: does not advertise model \.\.\/next-letter\.gguf/ });
});
