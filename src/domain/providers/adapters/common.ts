// Inputs as the protocols want them, written once for every adapter.
import type { Modality } from '../types.js';
import type { AdapterCall } from '../types.js';
import { UpstreamFailure, type Upstream } from '../upstream.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A text input as chat messages: `{prompt}` is one user message. */
export function messagesOf(input: Record<string, unknown>): ChatMessage[] {
  if (typeof input.prompt === 'string') return [{ role: 'user', content: input.prompt }];
  return input.messages as ChatMessage[];
}

/** An embedding input as a list of texts. */
export function textsOf(input: Record<string, unknown>): string[] {
  return typeof input.text === 'string' ? [input.text] : (input.texts as string[]);
}

/** Words, for providers that report no token counts (echo) and as the echo's own measure. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

export function unsupported(provider: string, modality: Modality): UpstreamFailure {
  return new UpstreamFailure(`${provider} does not serve ${modality}`, false, 'unavailable');
}

/**
 * A body's chunks with read errors classified: a connection that breaks mid-answer is an
 * UpstreamFailure like any other, and a cancelled call says so.
 */
export async function* guardedChunks(
  upstream: Upstream,
  chunks: AsyncIterable<Buffer>,
  call: Pick<AdapterCall, 'signal'>,
): AsyncIterable<Buffer> {
  try {
    for await (const chunk of chunks) yield chunk;
  } catch (err) {
    throw upstream.classify(err, call.signal);
  }
}

/** The sampling parameters every chat protocol shares, under its own names. */
export function samplingOf(params: Record<string, unknown>): {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
} {
  const out: { temperature?: number; top_p?: number; max_tokens?: number; stop?: string[] } = {};
  if (typeof params.temperature === 'number') out.temperature = params.temperature;
  if (typeof params.top_p === 'number') out.top_p = params.top_p;
  if (typeof params.max_tokens === 'number') out.max_tokens = params.max_tokens;
  if (Array.isArray(params.stop)) out.stop = params.stop as string[];
  return out;
}

/** Parses a provider's JSON piece of a stream; a piece that is not JSON is a protocol failure. */
export function parsePiece<T>(text: string, provider: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UpstreamFailure(`${provider} sent a stream piece that is not JSON`, true, 'protocol');
  }
}
