// The in-process runtimes (spec 2.6: model-file and ML-framework), optional peer dependencies that
// `switchyard runtime install` adds, loaded on first use. Absent, they report `unavailable` with the reason and the command that installs them.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../../log.js';
import type { Modality } from '../types.js';
import type { Adapter, AdapterCall, AdapterResult, UnavailableModel } from '../types.js';
import { ModelUnavailable, UpstreamFailure } from '../upstream.js';
import { ggufFileProblem } from './gguf-header.js';
import { GgufRuntime, type NodeLlamaCpp } from './gguf-runtime.js';
import { OnnxRuntime, type OrtModule } from './onnx-runtime.js';

interface RuntimeSpec {
  name: 'gguf' | 'transformers';
  kind: string;
  module: string;
  /** `switchyard runtime install <this>` installs the module (src/cli/commands/runtime.ts). */
  install: 'gguf' | 'onnx';
  extension: string;
  modalities: Modality[];
}

export const runtimes = {
  gguf: {
    name: 'gguf',
    kind: 'local model-file runtime',
    module: 'node-llama-cpp',
    install: 'gguf',
    extension: '.gguf',
    modalities: ['text'],
  },
  transformers: {
    name: 'transformers',
    kind: 'local ML-framework runtime',
    module: 'onnxruntime-node',
    install: 'onnx',
    extension: '.onnx',
    modalities: ['text', 'embedding'],
  },
} as const satisfies Record<string, RuntimeSpec>;

async function loadable(spec: RuntimeSpec): Promise<string | undefined> {
  try {
    await import(spec.module);
    return undefined;
  } catch {
    return `unavailable: the optional runtime ${spec.module} is not installed (switchyard runtime install ${spec.install})`;
  }
}

export interface RuntimeOptions {
  log: Logger;
  /** Threads a GGUF generation uses (SERVICE_GGUF_THREADS). */
  threads: number;
}

/** What runs a runtime's models once its dependency loaded. */
interface Runtime {
  execute(call: AdapterCall, models: string[]): Promise<AdapterResult>;
  /** Frees what the runtime holds (daemon shutdown). */
  close?(): Promise<void>;
}
type Runner = (modelDir: string, options: RuntimeOptions) => Promise<Runtime>;

const runners: Record<RuntimeSpec['name'], Runner> = {
  gguf: async (modelDir, options) => {
    const llamaCpp: NodeLlamaCpp = await import('node-llama-cpp');
    return new GgufRuntime(llamaCpp, modelDir, options);
  },
  transformers: async (modelDir) => {
    // Named through a variable: the package is an optional peer that a clone may lack, and only the
    // part of it that onnx-runtime.ts declares (OrtModule) is used, so the compiler need not find it.
    const specifier: string = 'onnxruntime-node';
    const ort = (await import(specifier)) as OrtModule & { default?: OrtModule };
    return new OnnxRuntime(ort.default ?? ort, modelDir);
  },
};

/** What was found of a model file, kept while its size and modification time stay the same. */
interface FileVerdict {
  size: number;
  mtimeMs: number;
  /** Why it cannot be a model (the header check, or a failed load), or undefined. */
  problem: string | undefined;
}

export function createRuntimeAdapter(spec: RuntimeSpec, modelDir: string, options: RuntimeOptions): Adapter {
  let runtime: Promise<Runtime> | undefined;
  const verdicts = new Map<string, FileVerdict>();
  /** The model files, each checked once per version of the file (a GGUF header check; a failed load). */
  const scan = async (): Promise<{ models: string[]; unavailable: UnavailableModel[] }> => {
    const files = await readdir(modelDir).catch(() => {
      throw new UpstreamFailure(`unavailable: model directory ${modelDir} cannot be read`, false, 'unavailable');
    });
    const names = files.filter((f) => f.endsWith(spec.extension)).sort();
    const models: string[] = [];
    const unavailable: UnavailableModel[] = [];
    for (const name of names) {
      const file = path.join(modelDir, name);
      const info = await stat(file).catch(() => undefined);
      if (info === undefined) continue;
      let verdict = verdicts.get(name);
      if (verdict === undefined || verdict.size !== info.size || verdict.mtimeMs !== info.mtimeMs) {
        verdict = {
          size: info.size,
          mtimeMs: info.mtimeMs,
          problem: spec.name === 'gguf' ? await ggufFileProblem(file) : undefined,
        };
        verdicts.set(name, verdict);
      }
      if (verdict.problem === undefined) models.push(name);
      else unavailable.push({ model: name, reason: verdict.problem });
    }
    for (const name of verdicts.keys()) if (!names.includes(name)) verdicts.delete(name);
    return { models, unavailable };
  };
  /** A load that failed: the file is unavailable until it changes. */
  const loadFailed = (failure: ModelUnavailable): void => {
    const verdict = verdicts.get(failure.model);
    if (verdict !== undefined) verdict.problem = failure.reason;
  };
  return {
    name: spec.name,
    kind: spec.kind,
    tier: 'basic',
    modalities: spec.modalities,
    streaming: null,
    costs: Object.fromEntries(spec.modalities.map((m) => [m, 0])),
    defaultModel: () => '',

    async probe() {
      const missing = await loadable(spec);
      if (missing !== undefined) throw new UpstreamFailure(missing, false, 'unavailable');
      return scan();
    },

    async execute(call) {
      const missing = await loadable(spec);
      if (missing !== undefined) throw new UpstreamFailure(missing, false, 'unavailable');
      const { models, unavailable } = await scan();
      const refused = unavailable.find((u) => u.model === call.model);
      if (refused !== undefined) throw new ModelUnavailable(refused.model, refused.reason);
      runtime ??= runners[spec.name](modelDir, options);
      runtime.catch(() => (runtime = undefined));
      try {
        return await (await runtime).execute(call, models);
      } catch (err) {
        if (err instanceof ModelUnavailable) loadFailed(err);
        throw err;
      }
    },

    async close() {
      const started = runtime;
      runtime = undefined;
      await (await started?.catch(() => undefined))?.close?.();
    },
  };
}
