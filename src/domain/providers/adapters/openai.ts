// Hosted general provider A over the OpenAI-compatible API: chat completions (SSE streaming with
// stream_options.include_usage), embeddings, image generations, and /models for the model list.
import type { Adapter, AdapterCall, AdapterResult, StreamPiece } from '../types.js';
import { sseEvents, UpstreamFailure, type Upstream } from '../upstream.js';
import { guardedChunks, messagesOf, parsePiece, samplingOf, textsOf, unsupported } from './common.js';

interface ChatCompletion {
  model?: string;
  choices?: { message?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}
interface ChatChunk {
  model?: string;
  choices?: { delta?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

const DEFAULT_MODELS = { text: 'gpt-4o-mini', embedding: 'text-embedding-3-small', image: 'dall-e-3' } as const;

export function createOpenAiAdapter(upstream: Upstream, apiKey: string): Adapter {
  const auth = { authorization: `Bearer ${apiKey}` };

  const chatBody = (call: AdapterCall, stream: boolean) => {
    const sampling = samplingOf(call.params);
    return {
      model: call.model,
      messages: messagesOf(call.input),
      ...sampling,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
  };

  return {
    name: 'openai',
    kind: 'hosted OpenAI-compatible API',
    tier: 'premium',
    modalities: ['text', 'image', 'embedding'],
    streaming: 'sse',
    costs: { text: 0.002, embedding: 0.0001, image: 0.04 },
    defaultModel: (modality) => (modality === 'audio' ? '' : DEFAULT_MODELS[modality]),

    async probe(signal) {
      const list = await upstream.json<{ data?: { id?: string }[] }>({ method: 'GET', path: '/models', headers: auth, signal });
      return { models: (list.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string') };
    },

    async execute(call): Promise<AdapterResult> {
      if (call.modality === 'text') {
        const answer = await upstream.json<ChatCompletion>({
          method: 'POST',
          path: '/chat/completions',
          headers: auth,
          json: chatBody(call, false),
          signal: call.signal,
        });
        const text = answer.choices?.[0]?.message?.content;
        if (typeof text !== 'string') throw new UpstreamFailure('openai answered without a message', false, 'protocol');
        return {
          model: answer.model ?? call.model,
          output: { text },
          usage: { input_tokens: answer.usage?.prompt_tokens ?? 0, output_tokens: answer.usage?.completion_tokens ?? 0 },
        };
      }
      if (call.modality === 'embedding') {
        const answer = await upstream.json<{
          model?: string;
          data?: { index: number; embedding: number[] }[];
          usage?: { prompt_tokens?: number };
        }>({
          method: 'POST',
          path: '/embeddings',
          headers: auth,
          json: { model: call.model, input: textsOf(call.input) },
          signal: call.signal,
        });
        const data = [...(answer.data ?? [])].sort((a, b) => a.index - b.index);
        return {
          model: answer.model ?? call.model,
          output: { embeddings: data.map((d) => d.embedding) },
          usage: { input_tokens: answer.usage?.prompt_tokens ?? 0, output_tokens: 0 },
        };
      }
      if (call.modality === 'image') {
        const answer = await upstream.json<{ data?: { b64_json?: string }[] }>({
          method: 'POST',
          path: '/images/generations',
          headers: auth,
          json: {
            model: call.model,
            prompt: call.input.prompt,
            n: 1,
            response_format: 'b64_json',
            ...(typeof call.input.size === 'string' ? { size: call.input.size } : {}),
          },
          signal: call.signal,
        });
        const images = (answer.data ?? []).flatMap((d) =>
          typeof d.b64_json === 'string' ? [{ content_type: 'image/png', base64: d.b64_json }] : [],
        );
        if (images.length === 0) throw new UpstreamFailure('openai answered without an image', false, 'protocol');
        return { model: call.model, output: { images }, usage: { input_tokens: 0, output_tokens: 0 } };
      }
      throw unsupported('openai', call.modality);
    },

    async *stream(call): AsyncIterable<StreamPiece> {
      const response = await upstream.open({
        method: 'POST',
        path: '/chat/completions',
        headers: { ...auth, accept: 'text/event-stream' },
        json: chatBody(call, true),
        signal: call.signal,
      });
      for await (const event of sseEvents(guardedChunks(upstream, response.chunks(), call))) {
        if (event.data === '[DONE]') return;
        const chunk = parsePiece<ChatChunk>(event.data, 'openai');
        if (chunk.error !== undefined)
          throw new UpstreamFailure(upstream.scrub(chunk.error.message ?? 'stream error'), true, 'protocol');
        const text = chunk.choices?.[0]?.delta?.content;
        if (typeof text === 'string' && text !== '') yield { type: 'delta', text };
        if (chunk.usage)
          yield {
            type: 'usage',
            model: chunk.model,
            usage: { input_tokens: chunk.usage.prompt_tokens ?? 0, output_tokens: chunk.usage.completion_tokens ?? 0 },
          };
      }
      throw new UpstreamFailure('openai stream ended without [DONE]', true, 'protocol');
    },
  };
}
