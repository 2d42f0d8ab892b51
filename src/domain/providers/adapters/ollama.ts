// The local model server over Ollama's API: /api/chat (NDJSON streaming), /api/embed, /api/tags.
import type { Adapter, AdapterCall, AdapterResult, StreamPiece } from '../types.js';
import { lines, UpstreamFailure, type Upstream } from '../upstream.js';
import { guardedChunks, messagesOf, parsePiece, samplingOf, textsOf, unsupported } from './common.js';

interface ChatPiece {
  model?: string;
  message?: { content?: string };
  done?: boolean;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

/** OLLAMA_HOST as Ollama's own client reads it: a URL, or host[:port] (default port 11434). */
export function ollamaBaseUrl(host: string | undefined): string {
  const value = (host ?? '').trim();
  if (value === '') return 'http://127.0.0.1:11434';
  if (/^https?:\/\//i.test(value)) return value.replace(/\/+$/, '');
  return `http://${/:\d+$/.test(value) ? value : `${value}:11434`}`;
}

export function createOllamaAdapter(upstream: Upstream): Adapter {
  const chatBody = (call: AdapterCall, stream: boolean) => {
    const { temperature, top_p, max_tokens, stop } = samplingOf(call.params);
    const options = {
      ...(temperature === undefined ? {} : { temperature }),
      ...(top_p === undefined ? {} : { top_p }),
      ...(max_tokens === undefined ? {} : { num_predict: max_tokens }),
      ...(stop === undefined ? {} : { stop }),
    };
    return {
      model: call.model,
      messages: messagesOf(call.input),
      stream,
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
  };

  return {
    name: 'ollama',
    kind: 'local model server',
    tier: 'basic',
    modalities: ['text', 'embedding'],
    streaming: 'ndjson',
    costs: { text: 0, embedding: 0 },
    defaultModel: (modality) => (modality === 'embedding' ? 'nomic-embed-text' : 'llama3.2'),

    async probe(signal) {
      const tags = await upstream.json<{ models?: { name?: string }[] }>({ method: 'GET', path: '/api/tags', signal });
      return { models: (tags.models ?? []).map((m) => m.name).filter((n): n is string => typeof n === 'string') };
    },

    async execute(call): Promise<AdapterResult> {
      if (call.modality === 'text') {
        const answer = await upstream.json<ChatPiece>({
          method: 'POST',
          path: '/api/chat',
          json: chatBody(call, false),
          signal: call.signal,
        });
        if (typeof answer.error === 'string') throw new UpstreamFailure(upstream.scrub(answer.error), false, 'protocol');
        return {
          model: answer.model ?? call.model,
          output: { text: answer.message?.content ?? '' },
          usage: { input_tokens: answer.prompt_eval_count ?? 0, output_tokens: answer.eval_count ?? 0 },
        };
      }
      if (call.modality === 'embedding') {
        const answer = await upstream.json<{ model?: string; embeddings?: number[][]; prompt_eval_count?: number }>({
          method: 'POST',
          path: '/api/embed',
          json: { model: call.model, input: textsOf(call.input) },
          signal: call.signal,
        });
        return {
          model: answer.model ?? call.model,
          output: { embeddings: answer.embeddings ?? [] },
          usage: { input_tokens: answer.prompt_eval_count ?? 0, output_tokens: 0 },
        };
      }
      throw unsupported('ollama', call.modality);
    },

    async *stream(call): AsyncIterable<StreamPiece> {
      const response = await upstream.open({
        method: 'POST',
        path: '/api/chat',
        json: chatBody(call, true),
        signal: call.signal,
      });
      for await (const line of lines(guardedChunks(upstream, response.chunks(), call))) {
        const piece = parsePiece<ChatPiece>(line, 'ollama');
        // Ollama reports a failure mid-stream as a line of its own.
        if (typeof piece.error === 'string') throw new UpstreamFailure(upstream.scrub(piece.error), true, 'protocol');
        const text = piece.message?.content;
        if (typeof text === 'string' && text !== '') yield { type: 'delta', text };
        if (piece.done === true) {
          yield {
            type: 'usage',
            model: piece.model,
            usage: { input_tokens: piece.prompt_eval_count ?? 0, output_tokens: piece.eval_count ?? 0 },
          };
          return;
        }
      }
      throw new UpstreamFailure('ollama stream ended without done: true', true, 'protocol');
    },
  };
}
