// The local image-generation server over ComfyUI's API: queue a graph (POST /prompt), poll
// /history/{id} until it is done, fetch each image from /view. The default graph is ComfyUI's own
// text-to-image workflow with the prompt, size and checkpoint filled in.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Adapter, AdapterResult } from '../types.js';
import { UpstreamFailure, type Upstream } from '../upstream.js';
import { unsupported } from './common.js';

/** The checkpoint of ComfyUI's default workflow; a request's `model` names another. */
const DEFAULT_CHECKPOINT = 'v1-5-pruned-emaonly.safetensors';
const NEGATIVE_PROMPT = 'blurry, low quality, watermark, text';

interface HistoryEntry {
  outputs?: Record<string, { images?: { filename: string; subfolder?: string; type?: string }[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: unknown[] };
}

/** ComfyUI's default text-to-image graph, in its API format (node id -> class_type and inputs). */
export function textToImageGraph(prompt: string, width: number, height: number, checkpoint: string, seed: number) {
  return {
    '3': {
      class_type: 'KSampler',
      inputs: {
        seed,
        steps: 20,
        cfg: 8,
        sampler_name: 'euler',
        scheduler: 'normal',
        denoise: 1,
        model: ['4', 0],
        positive: ['6', 0],
        negative: ['7', 0],
        latent_image: ['5', 0],
      },
    },
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: checkpoint } },
    '5': { class_type: 'EmptyLatentImage', inputs: { width, height, batch_size: 1 } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: prompt, clip: ['4', 1] } },
    '7': { class_type: 'CLIPTextEncode', inputs: { text: NEGATIVE_PROMPT, clip: ['4', 1] } },
    '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
    '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'switchyard', images: ['8', 0] } },
  };
}

export function createComfyUiAdapter(upstream: Upstream, pollMs: number): Adapter {
  return {
    name: 'comfyui',
    kind: 'local image-generation server',
    tier: 'basic',
    modalities: ['image'],
    streaming: null,
    costs: { image: 0 },
    defaultModel: () => DEFAULT_CHECKPOINT,

    async probe(signal) {
      await upstream.json<unknown>({ method: 'GET', path: '/system_stats', signal });
      return { models: [] };
    },

    async execute(call): Promise<AdapterResult> {
      if (call.modality !== 'image') throw unsupported('comfyui', call.modality);
      const [width, height] = (typeof call.input.size === 'string' ? call.input.size : '512x512').split('x').map(Number);
      const graph = textToImageGraph(String(call.input.prompt), width, height, call.model, Math.floor(Math.random() * 2 ** 32));
      const queued = await upstream.json<{ prompt_id?: string }>({
        method: 'POST',
        path: '/prompt',
        json: { prompt: graph, client_id: randomUUID() },
        signal: call.signal,
      });
      if (typeof queued.prompt_id !== 'string') throw new UpstreamFailure('comfyui queued nothing', false, 'protocol');
      const entry = await waitForHistory(upstream, queued.prompt_id, pollMs, call.signal);
      if (entry.status?.status_str === 'error')
        throw new UpstreamFailure(
          `comfyui failed the graph: ${upstream.scrub(JSON.stringify(entry.status.messages ?? []).slice(0, 300))}`,
          false,
          'protocol',
        );
      const files = Object.values(entry.outputs ?? {}).flatMap((o) => o.images ?? []);
      if (files.length === 0) throw new UpstreamFailure('comfyui finished without an image', false, 'protocol');
      const images = [];
      for (const file of files) {
        const query = new URLSearchParams({
          filename: file.filename,
          subfolder: file.subfolder ?? '',
          type: file.type ?? 'output',
        });
        const { body, contentType } = await upstream.bytes({
          method: 'GET',
          path: `/view?${query.toString()}`,
          signal: call.signal,
        });
        images.push({ content_type: contentType.split(';')[0] || 'image/png', base64: body.toString('base64') });
      }
      return { model: call.model, output: { images }, usage: { input_tokens: 0, output_tokens: 0 } };
    },
  };
}

/** Polls until the prompt's history entry appears; the call's signal (and the total timeout) bound it. */
async function waitForHistory(upstream: Upstream, promptId: string, pollMs: number, signal: AbortSignal): Promise<HistoryEntry> {
  const started = Date.now();
  for (;;) {
    const history = await upstream.json<Record<string, HistoryEntry>>({
      method: 'GET',
      path: `/history/${encodeURIComponent(promptId)}`,
      signal,
    });
    const entry = history[promptId];
    if (
      entry !== undefined &&
      (entry.status?.completed === true || entry.status?.status_str === 'error' || entry.outputs !== undefined)
    )
      return entry;
    if (Date.now() - started > upstream.options.timeoutMs)
      throw new UpstreamFailure(`comfyui did not finish within ${upstream.options.timeoutMs} ms`, true, 'timeout');
    try {
      await sleep(pollMs, undefined, { signal });
    } catch {
      throw new UpstreamFailure('cancelled by the client', false, 'cancelled');
    }
  }
}
