// Hosted text provider B over the Anthropic Messages API: x-api-key and anthropic-version headers,
// its SSE event types (usage from message_start and message_delta), and /v1/models.
import type { Adapter, AdapterResult, AdapterCall, StreamPiece } from '../types.js';
import { sseEvents, UpstreamFailure, type Upstream } from '../upstream.js';
import { guardedChunks, messagesOf, parsePiece, samplingOf, unsupported } from './common.js';

const ANTHROPIC_VERSION = '2023-06-01';
/** Messages requires max_tokens; this is what a request that names none gets. */
const DEFAULT_MAX_TOKENS = 1024;

interface Message {
  model?: string;
  content?: { type: string; text?: string }[];
  usage?: { input_tokens?: number; output_tokens?: number };
}
interface StreamEvent {
  type?: string;
  message?: Message;
  delta?: { type?: string; text?: string };
  usage?: { output_tokens?: number; input_tokens?: number };
  error?: { type?: string; message?: string };
}

export function createAnthropicAdapter(upstream: Upstream, apiKey: string): Adapter {
  const headers = { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION };

  const body = (call: AdapterCall, stream: boolean) => {
    const messages = messagesOf(call.input);
    const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
    const { temperature, top_p, max_tokens, stop } = samplingOf(call.params);
    return {
      model: call.model,
      max_tokens: max_tokens ?? DEFAULT_MAX_TOKENS,
      messages: messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content })),
      ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
      ...(temperature === undefined ? {} : { temperature }),
      ...(top_p === undefined ? {} : { top_p }),
      ...(stop === undefined ? {} : { stop_sequences: stop }),
      ...(stream ? { stream: true } : {}),
    };
  };

  return {
    name: 'anthropic',
    kind: 'hosted Anthropic API',
    tier: 'premium',
    modalities: ['text'],
    streaming: 'sse',
    costs: { text: 0.003 },
    defaultModel: () => 'claude-sonnet-4-5',

    async probe(signal) {
      const list = await upstream.json<{ data?: { id?: string }[] }>({ method: 'GET', path: '/v1/models', headers, signal });
      return { models: (list.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string') };
    },

    async execute(call): Promise<AdapterResult> {
      if (call.modality !== 'text') throw unsupported('anthropic', call.modality);
      const answer = await upstream.json<Message>({
        method: 'POST',
        path: '/v1/messages',
        headers,
        json: body(call, false),
        signal: call.signal,
      });
      const text = (answer.content ?? [])
        .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
        .join('');
      return {
        model: answer.model ?? call.model,
        output: { text },
        usage: { input_tokens: answer.usage?.input_tokens ?? 0, output_tokens: answer.usage?.output_tokens ?? 0 },
      };
    },

    async *stream(call): AsyncIterable<StreamPiece> {
      const response = await upstream.open({
        method: 'POST',
        path: '/v1/messages',
        headers: { ...headers, accept: 'text/event-stream' },
        json: body(call, true),
        signal: call.signal,
      });
      let model: string | undefined;
      const usage = { input_tokens: 0, output_tokens: 0 };
      for await (const event of sseEvents(guardedChunks(upstream, response.chunks(), call))) {
        const piece = parsePiece<StreamEvent>(event.data, 'anthropic');
        const type = piece.type ?? event.event;
        if (type === 'message_start') {
          model = piece.message?.model;
          usage.input_tokens = piece.message?.usage?.input_tokens ?? 0;
          usage.output_tokens = piece.message?.usage?.output_tokens ?? 0;
        } else if (type === 'content_block_delta' && piece.delta?.type === 'text_delta' && typeof piece.delta.text === 'string') {
          if (piece.delta.text !== '') yield { type: 'delta', text: piece.delta.text };
        } else if (type === 'message_delta') {
          // message_delta's usage is cumulative: it replaces what message_start said.
          if (typeof piece.usage?.output_tokens === 'number') usage.output_tokens = piece.usage.output_tokens;
          if (typeof piece.usage?.input_tokens === 'number') usage.input_tokens = piece.usage.input_tokens;
        } else if (type === 'error') {
          const kind = piece.error?.type ?? 'error';
          const retriable = kind === 'overloaded_error' || kind === 'api_error' || kind === 'rate_limit_error';
          throw new UpstreamFailure(`${kind}: ${upstream.scrub(piece.error?.message ?? '')}`, retriable, 'protocol');
        } else if (type === 'message_stop') {
          yield { type: 'usage', usage, model };
          return;
        }
      }
      throw new UpstreamFailure('anthropic stream ended without message_stop', true, 'protocol');
    },
  };
}
