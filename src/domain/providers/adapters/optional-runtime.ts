// The in-process runtimes (spec 2.6: model-file and ML-framework), optional dependencies loaded on
// first use. Absent, they report `unavailable` with the reason and the command that installs them.
import { readdir } from 'node:fs/promises';
import type { Modality } from '../types.js';
import type { Adapter } from '../types.js';
import { UpstreamFailure } from '../upstream.js';

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

export function createRuntimeAdapter(spec: RuntimeSpec, modelDir: string): Adapter {
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
      const files = await readdir(modelDir).catch(() => {
        throw new UpstreamFailure(`unavailable: model directory ${modelDir} cannot be read`, false, 'unavailable');
      });
      return { models: files.filter((f) => f.endsWith(spec.extension)) };
    },

    async execute() {
      const missing = await loadable(spec.module);
      // Present, the runtime is not wired yet (docs/providers.md says so): the call fails plainly.
      throw new UpstreamFailure(
        missing ?? `unavailable: running ${spec.extension} models in process is not built yet`,
        false,
        'unavailable',
      );
    },
  };
}
