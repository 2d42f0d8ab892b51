// The test stub of spec 2.6: always registered, always available, every modality, no network.
import { createHash } from 'node:crypto';
import type { Modality } from '../types.js';
import type { Adapter, AdapterCall, AdapterResult } from '../types.js';
import { countWords, messagesOf, textsOf } from './common.js';

/** A 1x1 transparent PNG: the echo's "image". */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Eight numbers in [-1, 1) from a text's hash: the same text, the same vector. */
export function hashEmbedding(text: string): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: 8 }, (_, i) => Math.round((digest.readInt16BE(i * 2) / 32768) * 1e6) / 1e6);
}

export function createEchoAdapter(): Adapter {
  return {
    name: 'echo',
    kind: 'echo (test stub)',
    tier: 'basic',
    modalities: ['text', 'image', 'embedding', 'audio'],
    streaming: null,
    costs: { text: 0, image: 0, embedding: 0, audio: 0 },
    defaultModel: () => 'echo',
    probe: () => Promise.resolve({ models: ['echo'] }),
    execute: (call: AdapterCall): Promise<AdapterResult> => Promise.resolve(echo(call.modality, call.input)),
  };
}

function echo(modality: Modality, input: Record<string, unknown>): AdapterResult {
  if (modality === 'text') {
    const messages = messagesOf(input);
    const text = messages[messages.length - 1].content;
    const asked = messages.reduce((sum, m) => sum + countWords(m.content), 0);
    return { model: 'echo', output: { text }, usage: { input_tokens: asked, output_tokens: countWords(text) } };
  }
  if (modality === 'embedding') {
    const texts = textsOf(input);
    return {
      model: 'echo',
      output: { embeddings: texts.map(hashEmbedding) },
      usage: { input_tokens: texts.reduce((sum, t) => sum + countWords(t), 0), output_tokens: 0 },
    };
  }
  if (modality === 'image')
    return {
      model: 'echo',
      output: { images: [{ content_type: 'image/png', base64: TINY_PNG_BASE64 }] },
      usage: { input_tokens: countWords(String(input.prompt)), output_tokens: 0 },
    };
  const bytes = Buffer.byteLength(String(input.audio_base64), 'base64');
  return {
    model: 'echo',
    output: { text: `echo: ${bytes} bytes of ${String(input.format)} audio` },
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}
