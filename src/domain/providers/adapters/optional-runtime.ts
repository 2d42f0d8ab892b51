// The in-process runtimes (spec 2.6: model-file and ML-framework), optional peer dependencies that
// `switchyard runtime install` adds, loaded on first use. Absent, they report `unavailable` with the reason and the command that installs them.
import { readdir } from 'node:fs/promises';
import type { Logger } from '../../../log.js';
import type { Modality } from '../types.js';
import type { Adapter, AdapterCall, AdapterResult } from '../types.js';
import { UpstreamFailure } from '../upstream.js';
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

export function createRuntimeAdapter(spec: RuntimeSpec, modelDir: string, options: RuntimeOptions): Adapter {
  let runtime: Promise<Runtime> | undefined;
  const models = async (): Promise<string[]> => {
    const files = await readdir(modelDir).catch(() => {
      throw new UpstreamFailure(`unavailable: model directory ${modelDir} cannot be read`, false, 'unavailable');
    });
    return files.filter((f) => f.endsWith(spec.extension)).sort();
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
      return { models: await models() };
    },

    async execute(call) {
      const missing = await loadable(spec);
      if (missing !== undefined) throw new UpstreamFailure(missing, false, 'unavailable');
      runtime ??= runners[spec.name](modelDir, options);
      runtime.catch(() => (runtime = undefined));
      return (await runtime).execute(call, await models());
    },

    async close() {
      const started = runtime;
      runtime = undefined;
      await (await started?.catch(() => undefined))?.close?.();
    },
  };
}
