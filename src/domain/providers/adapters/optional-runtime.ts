// The in-process runtimes (spec 2.6: model-file and ML-framework), optional dependencies loaded on
// first use. Absent, they report `unavailable` with the reason and the command that installs them.
import { readdir } from 'node:fs/promises';
import type { Modality } from '../types.js';
import type { Adapter, AdapterCall, AdapterResult } from '../types.js';
import { UpstreamFailure } from '../upstream.js';
import { OnnxRuntime, type OrtModule } from './onnx-runtime.js';

interface RuntimeSpec {
  name: 'gguf' | 'transformers';
  kind: string;
  module: string;
  extension: string;
  modalities: Modality[];
}

export const runtimes = {
  gguf: { name: 'gguf', kind: 'local model-file runtime', module: 'node-llama-cpp', extension: '.gguf', modalities: ['text'] },
  transformers: {
    name: 'transformers',
    kind: 'local ML-framework runtime',
    module: 'onnxruntime-node',
    extension: '.onnx',
    modalities: ['text', 'embedding'],
  },
} as const satisfies Record<string, RuntimeSpec>;

async function loadable(module: string): Promise<string | undefined> {
  try {
    await import(module);
    return undefined;
  } catch {
    return `unavailable: the optional dependency ${module} is not installed (npm install ${module})`;
  }
}

/** What runs a runtime's models once its dependency loaded; none yet for GGUF files. */
type Runner = (modelDir: string) => Promise<(call: AdapterCall, models: string[]) => Promise<AdapterResult>>;

const runners: Partial<Record<RuntimeSpec['name'], Runner>> = {
  transformers: async (modelDir) => {
    const ort = (await import('onnxruntime-node')) as unknown as OrtModule & { default?: OrtModule };
    const runtime = new OnnxRuntime(ort.default ?? ort, modelDir);
    return (call, models) => runtime.execute(call, models);
  },
};

export function createRuntimeAdapter(spec: RuntimeSpec, modelDir: string): Adapter {
  let runner: ReturnType<Runner> | undefined;
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
      const missing = await loadable(spec.module);
      if (missing !== undefined) throw new UpstreamFailure(missing, false, 'unavailable');
      return { models: await models() };
    },

    async execute(call) {
      const missing = await loadable(spec.module);
      if (missing !== undefined) throw new UpstreamFailure(missing, false, 'unavailable');
      const run = runners[spec.name];
      // node-llama-cpp present: running GGUF files in process is not built yet (docs/providers.md).
      if (run === undefined)
        throw new UpstreamFailure(
          `unavailable: running ${spec.extension} models in process is not built yet`,
          false,
          'unavailable',
        );
      runner ??= run(modelDir);
      runner.catch(() => (runner = undefined));
      return (await runner)(call, await models());
    },
  };
}
