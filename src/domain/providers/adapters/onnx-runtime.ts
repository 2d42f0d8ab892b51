// The ML-framework runtime (spec 2.6, `transformers`): ONNX models run in process by onnxruntime-node,
// an optional dependency loaded on the first call. What it runs (docs/providers.md): models whose one
// input is `input_ids` (int64, [1, n]) over a byte-level vocabulary (the UTF-8 bytes of the text, ids
// 0 to 255). A model whose first output is `logits` ([1, n, V] or [1, V]) writes text, decoded
// greedily one byte at a time; any other model embeds (its first output [1, D], or [1, n, D] averaged
// over n). `<model>.json` beside a model may set `eos_token_id` and `max_new_tokens`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AdapterCall, AdapterResult } from '../types.js';
import { UpstreamFailure } from '../upstream.js';
import { messagesOf, textsOf } from './common.js';
import { LoadedOnce } from './loaded-once.js';

/** The part of onnxruntime-node used here (its own types come with it, which may be absent). */
interface OrtTensor {
  readonly dims: readonly number[];
  readonly data: ArrayLike<number>;
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}
export interface OrtModule {
  InferenceSession: { create(modelPath: string): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;
}

interface ModelConfig {
  eos_token_id?: number;
  max_new_tokens?: number;
}

/** Bytes a text model writes per call at most (a request's max_tokens may lower it). */
const MAX_NEW_TOKENS = 256;
const DEFAULT_NEW_TOKENS = 32;

interface LoadedModel {
  session: OrtSession;
  config: ModelConfig;
  task: 'text' | 'embedding';
}

export class OnnxRuntime {
  /** Each model file of the directory, loaded once by its file name. */
  private readonly models = new LoadedOnce<LoadedModel>((name) => this.open(name));

  constructor(
    private readonly ort: OrtModule,
    private readonly modelDir: string,
  ) {}

  /** `models`: the model files of the directory (a call may name only one of them). */
  async execute(call: AdapterCall, models: readonly string[]): Promise<AdapterResult> {
    const model = await this.pick(call, models);
    if (call.modality === 'embedding') {
      if (model.task !== 'embedding') throw wrongTask(model.name, 'embedding', model.task);
      return this.embed(model, call);
    }
    if (model.task !== 'text') throw wrongTask(model.name, 'text', model.task);
    return this.generate(model, call);
  }

  /** The model named, or with none named the first of the directory that serves the modality. */
  private async pick(call: AdapterCall, models: readonly string[]): Promise<LoadedModel & { name: string }> {
    if (call.model !== '') {
      if (!models.includes(call.model))
        throw new UpstreamFailure(`model ${call.model} is not in the model directory`, false, 'unavailable');
      return { ...(await this.models.get(call.model)), name: call.model };
    }
    for (const name of models) {
      const model = await this.models.get(name);
      if (model.task === call.modality) return { ...model, name };
    }
    throw new UpstreamFailure(`no ${call.modality} model in the model directory`, false, 'unavailable');
  }

  private async embed(model: LoadedModel & { name: string }, call: AdapterCall): Promise<AdapterResult> {
    const embeddings: number[][] = [];
    let inputTokens = 0;
    for (const text of textsOf(call.input)) {
      const ids = encode(text);
      inputTokens += ids.length;
      const out = await this.run(model, ids, call.signal);
      embeddings.push(pooled(out, model.name));
    }
    return { model: model.name, output: { embeddings }, usage: { input_tokens: inputTokens, output_tokens: 0 } };
  }

  private async generate(model: LoadedModel & { name: string }, call: AdapterCall): Promise<AdapterResult> {
    const prompt = messagesOf(call.input)
      .map((m) => m.content)
      .join('\n');
    const ids = encode(prompt);
    const asked = typeof call.params.max_tokens === 'number' ? call.params.max_tokens : DEFAULT_NEW_TOKENS;
    const limit = Math.max(1, Math.min(asked, model.config.max_new_tokens ?? MAX_NEW_TOKENS, MAX_NEW_TOKENS));
    const written: number[] = [];
    while (written.length < limit) {
      const logits = await this.run(model, [...ids, ...written], call.signal);
      const next = argmaxOfLast(logits, model.name);
      if (next === model.config.eos_token_id) break;
      written.push(next);
    }
    const text = Buffer.from(written.filter((id) => id < 256)).toString('utf8');
    return { model: model.name, output: { text }, usage: { input_tokens: ids.length, output_tokens: written.length } };
  }

  private async run(model: LoadedModel, ids: number[], signal: AbortSignal): Promise<OrtTensor> {
    if (signal.aborted) throw new UpstreamFailure('cancelled by the client', false, 'cancelled');
    const feeds = { input_ids: new this.ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]) };
    const outputs = await model.session.run(feeds).catch((err: unknown) => {
      throw new UpstreamFailure(`the model failed: ${(err as Error).message}`, false, 'protocol');
    });
    return outputs[model.session.outputNames[0]];
  }

  private async open(name: string): Promise<LoadedModel> {
    const file = path.join(this.modelDir, name);
    const session = await this.ort.InferenceSession.create(file).catch((err: unknown) => {
      throw new UpstreamFailure(`model ${name} could not be loaded: ${(err as Error).message}`, false, 'unavailable');
    });
    if (!session.inputNames.includes('input_ids'))
      throw new UpstreamFailure(
        `model ${name} has no input_ids input (it has ${session.inputNames.join(', ')})`,
        false,
        'unavailable',
      );
    const config = await readConfig(file.replace(/\.onnx$/, '.json'));
    return { session, config, task: session.outputNames[0] === 'logits' ? 'text' : 'embedding' };
  }
}

async function readConfig(file: string): Promise<ModelConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
    return { eos_token_id: int(parsed.eos_token_id), max_new_tokens: int(parsed.max_new_tokens) };
  } catch {
    throw new UpstreamFailure(`${path.basename(file)} is not JSON`, false, 'unavailable');
  }
}

/** The byte-level vocabulary: a text's UTF-8 bytes. */
function encode(text: string): number[] {
  const ids = [...Buffer.from(text, 'utf8')];
  return ids.length === 0 ? [0] : ids;
}

/** [1, D] as is; [1, n, D] averaged over n. */
function pooled(out: OrtTensor, model: string): number[] {
  const data = Array.from(out.data, Number);
  if (out.dims.length === 2) return data;
  if (out.dims.length !== 3)
    throw new UpstreamFailure(`model ${model} answered dims [${out.dims.join(', ')}]`, false, 'protocol');
  const [, n, d] = out.dims;
  return Array.from({ length: d }, (_, j) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += data[i * d + j];
    return sum / n;
  });
}

/** The most likely next id: the last position's logits, [1, V] or [1, n, V]. */
function argmaxOfLast(logits: OrtTensor, model: string): number {
  const vocab = logits.dims[logits.dims.length - 1];
  if (logits.dims.length < 2 || vocab === undefined)
    throw new UpstreamFailure(`model ${model} answered logits of dims [${logits.dims.join(', ')}]`, false, 'protocol');
  const start = logits.data.length - vocab;
  let best = 0;
  for (let v = 1; v < vocab; v++) if (logits.data[start + v] > logits.data[start + best]) best = v;
  return best;
}

function wrongTask(model: string, asked: string, task: string): UpstreamFailure {
  return new UpstreamFailure(`model ${model} is a ${task} model, not ${asked}`, false, 'unavailable');
}
