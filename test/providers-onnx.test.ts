// The ML-framework runtime (`transformers`, issue 13 item 2): onnxruntime-node (an optional
// dependency) runs ONNX models that this test writes itself with onnx-proto: an embedding model
// (a byte's row of a table, averaged over the text) and a text model (whose logits favour the byte
// after the last one), through the daemon's execute route, the router's model rule and its errors.
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import t, { type Test } from 'tap';
import type { Daemon } from '../src/main.js';
import { asPrincipal, createOrganizationAs, privateDir, repoRoot, request, startTestDaemon, waitFor } from './helpers.js';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const VOCAB = 256;
const DIM = 4;

/** The embedding table: byte b's vector is [b/256, 1, -b/256, b % 2]. */
function rowOf(b: number): number[] {
  return [b / 256, 1, -b / 256, b % 2];
}

function tensor(name: string, dims: number[], values: Float32Array) {
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer) };
}

function modelBytes(graph: Record<string, unknown>): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'switchyard-test',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

const inputIds = {
  name: 'input_ids',
  type: { tensorType: { elemType: INT64, shape: { dim: [{ dimValue: 1 }, { dimParam: 'n' }] } } },
};
const gather = (table: string, out: string) => ({
  opType: 'Gather',
  input: [table, 'input_ids'],
  output: [out],
  attribute: [{ name: 'axis', i: 0, type: onnx.AttributeProto.AttributeType.INT }],
});

/** input_ids [1, n] -> the rows of a table [1, n, 4] -> averaged [1, 4]. */
function embeddingModel(): Uint8Array {
  const table = new Float32Array(VOCAB * DIM);
  for (let b = 0; b < VOCAB; b++) table.set(rowOf(b), b * DIM);
  return modelBytes({
    name: 'embed',
    initializer: [tensor('table', [VOCAB, DIM], table)],
    input: [inputIds],
    output: [
      { name: 'embeddings', type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimValue: 1 }, { dimValue: DIM }] } } } },
    ],
    node: [
      gather('table', 'vectors'),
      {
        opType: 'ReduceMean',
        input: ['vectors'],
        output: ['embeddings'],
        attribute: [
          { name: 'axes', ints: [1], type: onnx.AttributeProto.AttributeType.INTS },
          { name: 'keepdims', i: 0, type: onnx.AttributeProto.AttributeType.INT },
        ],
      },
    ],
  });
}

/** input_ids [1, n] -> logits [1, n, 256] where byte b's row peaks at b + 1: "c" goes on "defg...". */
function textModel(): Uint8Array {
  const weights = new Float32Array(VOCAB * VOCAB);
  for (let b = 0; b < VOCAB; b++) weights[b * VOCAB + ((b + 1) % VOCAB)] = 1;
  return modelBytes({
    name: 'next-byte',
    initializer: [tensor('next', [VOCAB, VOCAB], weights)],
    input: [inputIds],
    output: [
      {
        name: 'logits',
        type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimValue: 1 }, { dimParam: 'n' }, { dimValue: VOCAB }] } } },
      },
    ],
    node: [gather('next', 'logits')],
  });
}

async function daemonWith(
  t: Test,
  dir: string,
): Promise<{ d: Daemon; execute: (body: Record<string, unknown>) => Promise<any> }> {
  const d = await startTestDaemon(t, { SERVICE_TRANSFORMERS_MODEL_DIR: dir });
  await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `onnx-${randomUUID().slice(0, 8)}`);
  const execute = (body: Record<string, unknown>) =>
    request(d.url, 'POST', '/v1/providers/execute', { headers: owner, body: { organization_id: org.id, ...body } });
  return { d, execute };
}

function modelDir(): string {
  const dir = privateDir();
  writeFileSync(path.join(dir, 'embed.onnx'), embeddingModel());
  writeFileSync(path.join(dir, 'next-byte.onnx'), textModel());
  writeFileSync(path.join(dir, 'next-byte.json'), JSON.stringify({ eos_token_id: 'h'.charCodeAt(0), max_new_tokens: 10 }));
  return dir;
}

// An optional peer dependency that `npm ci` leaves out: without it these tests skip, naming the command.
const skip = existsSync(path.join(repoRoot, 'node_modules', 'onnxruntime-node', 'package.json'))
  ? false
  : 'onnxruntime-node is not installed: switchyard runtime install onnx';

t.test('present with a model directory, the runtime runs its models', { skip }, async (t) => {
  const { d, execute } = await daemonWith(t, modelDir());
  const provider = d.services.providers.listProviders().find((p) => p.name === 'transformers')!;
  t.match(provider, {
    kind: 'local ML-framework runtime',
    tier: 'basic',
    modalities: ['text', 'embedding'],
    health: { status: 'healthy' },
  });
  t.same(provider.models, ['embed.onnx', 'next-byte.onnx'], 'the .onnx files of the directory');

  const embedded = await execute({ modality: 'embedding', model: 'embed.onnx', input: { texts: ['ab', 'z'] } });
  t.equal(embedded.status, 200, JSON.stringify(embedded.body));
  const mean = (bytes: number[]) => rowOf(0).map((_, j) => bytes.reduce((sum, b) => sum + rowOf(b)[j], 0) / bytes.length);
  const expected = [mean([97, 98]), mean([122])];
  const got = embedded.body.data.output.embeddings as number[][];
  t.equal(got.length, 2);
  got.forEach((vector, i) =>
    vector.forEach((v, j) => t.ok(Math.abs(v - expected[i][j]) < 1e-6, `embedding ${i}[${j}] = ${expected[i][j]}`)),
  );
  t.match(embedded.body.data, {
    provider: 'transformers',
    model: 'embed.onnx',
    usage: { input_tokens: 3, output_tokens: 0 },
    cost_usd: 0,
  });

  const written = await execute({ modality: 'text', model: 'next-byte.onnx', input: { prompt: 'c' } });
  t.equal(written.status, 200, JSON.stringify(written.body));
  t.match(written.body.data, {
    provider: 'transformers',
    model: 'next-byte.onnx',
    output: { text: 'defg' },
    usage: { input_tokens: 1, output_tokens: 4 },
  });
  t.equal(written.body.data.output.text, 'defg', 'greedy: each byte the next, until the end id (h)');

  const capped = await execute({ modality: 'text', model: 'next-byte.onnx', input: { prompt: 'A' }, params: { max_tokens: 3 } });
  t.equal(capped.body.data.output.text, 'BCD', 'max_tokens bounds what is written');

  const unnamed = await execute({ modality: 'embedding', input: { text: 'a' }, tier: 'basic' });
  t.equal(unnamed.status, 200);
  t.match(unnamed.body.data, { model: 'embed.onnx' }, 'no model named: the first of the directory for the modality');
});

t.test('what it refuses: a model of the other task, a broken file, a name outside the directory', { skip }, async (t) => {
  const dir = modelDir();
  writeFileSync(path.join(dir, 'broken.onnx'), 'not a model');
  const { execute } = await daemonWith(t, dir);
  const wrong = await execute({ modality: 'text', model: 'embed.onnx', input: { prompt: 'x' } });
  t.equal(wrong.status, 502);
  t.match(wrong.body.error.message, /embed\.onnx is a embedding model, not text/);
  const broken = await execute({ modality: 'embedding', model: 'broken.onnx', input: { text: 'x' } });
  t.equal(broken.status, 502);
  t.match(broken.body.error.message, /broken\.onnx could not be loaded/);
  const outside = await execute({ modality: 'embedding', model: '../embed.onnx', input: { text: 'x' } });
  t.equal(outside.status, 503, 'a model no provider advertises is not routed');
});
