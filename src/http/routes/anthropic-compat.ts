import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  anthropicError,
  anthropicUsage,
  messageId,
  messagesBody,
  messagesToExecute,
  resultToMessage,
  toMessage,
} from '../../domain/providers/anthropic-wire.js';
import { withOrganization } from '../../domain/providers/openai-wire.js';
import type { StreamSink } from '../../domain/providers/service.js';
import type { Services } from '../../areas.js';
import { openSse } from '../event-stream.js';
import { rawHeader } from '../headers.js';
import { defineRoute, Reply, type ErrorShape } from '../route.js';
import { executeOnce, GATEWAY_JSON_LIMIT, gatewayOrganization, streamOnce } from './openai-compat.js';

/**
 * Anthropic's clients send their key as `x-api-key`, not as a bearer token: on /v1/messages an API
 * key there stands for `Authorization: Bearer` (which, when sent too, wins).
 */
export function anthropicKeyHeader(req: IncomingMessage): string | undefined {
  if (req.url === undefined || !req.url.startsWith('/v1/messages')) return undefined;
  const key = rawHeader(req, 'x-api-key', 'first');
  return key === undefined ? undefined : `Bearer ${key}`;
}

/**
 * Anthropic's message stream: message_start (an empty message), content_block_start, one
 * content_block_delta (text_delta) per piece, content_block_stop, message_delta (stop_reason and
 * usage), message_stop. A failure after the start is an `error` event, which the SDK throws.
 */
function messageSink(res: ServerResponse, requestId: string): StreamSink {
  const id = messageId();
  const event = (name: string, payload: Record<string, unknown>) => {
    if (!res.destroyed) res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...payload })}\n\n`);
  };
  return {
    open(_provider, model) {
      openSse(res, requestId);
      event('message_start', { message: toMessage(id, model, null, { input_tokens: 0, output_tokens: 0 }) });
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    },
    delta: (text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    done: (summary) => {
      event('content_block_stop', { index: 0 });
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: anthropicUsage(summary.usage) });
      event('message_stop', {});
      res.end();
    },
    fail: (error) => {
      event('error', { error: { type: 'api_error', message: error.message, code: error.code } });
      res.end();
    },
  };
}

/** Anthropic's error answer (anthropic-wire.ts), documented as such. */
const anthropicErrors: ErrorShape = {
  name: 'AnthropicError',
  body: anthropicError,
  schema: z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string(), code: z.string() }) }),
};

/** Contract 13: Anthropic's Messages API (streamed and not) over the provider service execute uses. */
export function anthropicCompatRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/messages',
      summary:
        "Anthropic's Messages API (stream: true is its SSE events), routed like execute (providers:execute; x-api-key accepted)",
      tag: 'gateway',
      scope: 'providers:execute',
      body: messagesBody,
      bodyLimitBytes: GATEWAY_JSON_LIMIT,
      errorBody: anthropicErrors,
      handler: async (ctx) => {
        const body = withOrganization(messagesToExecute(ctx.body), gatewayOrganization(ctx));
        if (ctx.body.stream === true) return streamOnce(services, ctx, body, messageSink(ctx.res, ctx.requestId));
        const result = await executeOnce(services, ctx, body);
        return result === null ? Reply.handled() : Reply.raw(200, resultToMessage(result));
      },
    }),
  ];
}
