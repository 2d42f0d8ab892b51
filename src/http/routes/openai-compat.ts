import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Caller } from '../../domain/identity/caller.js';
import {
  chatChunk,
  chatCompletionBody,
  chatToExecute,
  embeddingsBody,
  embeddingsToExecute,
  imagesBody,
  imagesToExecute,
  nowSeconds,
  openaiError,
  openaiId,
  toChatCompletion,
  toEmbeddings,
  toImages,
  toModelList,
  transcriptionBody,
  transcriptionToExecute,
  withOrganization,
} from '../../domain/providers/openai-wire.js';
import { EXECUTE_BODY_LIMIT, MAX_AUDIO_BYTES } from '../../domain/providers/schemas.js';
import { CallCancelled, type ExecuteResult, type StreamSink } from '../../domain/providers/service.js';
import type { ExecuteBody } from '../../domain/providers/schemas.js';
import type { Services } from '../../areas.js';
import { openSse } from '../event-stream.js';
import { rawHeader } from '../headers.js';
import { defineRoute, Reply, type ErrorShape, type RouteContext } from '../route.js';
import { clientGone } from './providers.js';

/**
 * The organization a gateway call bills: an API key's own (any header is ignored); for other
 * callers the OpenAI-Organization header (the SDK's `organization` option) or X-Organization-Id.
 */
export function gatewayOrganization(ctx: RouteContext<unknown, unknown, unknown, Caller>): string | undefined {
  if (ctx.caller.apiKey !== undefined) return undefined;
  return rawHeader(ctx.req, 'openai-organization', 'first') ?? rawHeader(ctx.req, 'x-organization-id', 'first');
}

/**
 * One call through the provider service, as /v1/providers/execute makes it: the same router,
 * fallback, breaker, usage records and metrics. A client that left gets nothing (null).
 */
export async function executeOnce(
  { providers }: Services,
  ctx: RouteContext<unknown, unknown, unknown, Caller>,
  body: ExecuteBody,
): Promise<ExecuteResult | null> {
  try {
    return await providers.execute(ctx.caller, body, clientGone(ctx.res));
  } catch (err) {
    if (err instanceof CallCancelled) return null;
    throw err;
  }
}

/** A streamed call through the provider service; a client that left has its connection closed. */
export async function streamOnce(
  { providers }: Services,
  ctx: RouteContext<unknown, unknown, unknown, Caller>,
  body: ExecuteBody,
  sink: StreamSink,
): Promise<Reply> {
  try {
    await providers.stream(ctx.caller, body, clientGone(ctx.res), sink);
  } catch (err) {
    if (!(err instanceof CallCancelled)) throw err;
    ctx.res.destroy();
  }
  return Reply.handled();
}

/**
 * OpenAI's chat stream: `data: {chat.completion.chunk}` frames, the first with the assistant role,
 * the last choice with finish_reason, then (with include_usage) a chunk with empty choices and the
 * usage, then `data: [DONE]`. A failure after the answer started is a `data: {error}` frame, which
 * the SDK throws as an APIError; it never ends as a silent success.
 */
function chatSink(res: ServerResponse, requestId: string, includeUsage: boolean): StreamSink {
  const id = openaiId('chatcmpl-');
  const created = nowSeconds();
  let model = '';
  const data = (payload: unknown) => {
    if (!res.destroyed) res.write(`data: ${JSON.stringify(payload)}\n\n`);
  };
  return {
    open(_provider, chosen) {
      model = chosen;
      openSse(res, requestId);
      data(chatChunk(id, created, model, { role: 'assistant', content: '' }, null));
    },
    delta: (text) => data(chatChunk(id, created, model, { content: text }, null)),
    done: (summary) => {
      model = summary.model;
      data(chatChunk(id, created, model, {}, 'stop'));
      if (includeUsage) data(chatChunk(id, created, model, null, null, summary.usage));
      if (!res.destroyed) res.end('data: [DONE]\n\n');
    },
    fail: (error) => {
      data({ error: { message: error.message, type: 'upstream_error', param: null, code: error.code } });
      res.end();
    },
  };
}

/** The JSON routes' body limit: long conversations pass (execute's own limit is larger still, for audio). */
/** OpenAI's error answer (openai-wire.ts), documented as such. */
const openaiErrors: ErrorShape = {
  name: 'OpenAIError',
  body: openaiError,
  schema: z.object({
    error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string() }),
  }),
};

export const GATEWAY_JSON_LIMIT = Math.min(EXECUTE_BODY_LIMIT, 4 * 1024 * 1024);

/** The audio route's body limit: the largest audio file, with room for the other fields. */
const TRANSCRIPTION_BODY_LIMIT = MAX_AUDIO_BYTES + 64 * 1024;

/**
 * Contract 13's OpenAI-compatible gateway: chat completions (streamed and not), embeddings, image
 * generations, audio transcriptions and the model list, in OpenAI's shapes and errors, over the
 * provider service that /v1/providers/execute uses.
 */
export function openaiCompatRoutes(services: Services) {
  const { providers } = services;
  const startedAt = nowSeconds();
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/chat/completions',
      summary: "OpenAI's chat completions (stream: true is OpenAI's SSE), routed like execute (providers:execute)",
      tag: 'gateway',
      scope: 'providers:execute',
      body: chatCompletionBody,
      bodyLimitBytes: GATEWAY_JSON_LIMIT,
      errorBody: openaiErrors,
      handler: async (ctx) => {
        const body = withOrganization(chatToExecute(ctx.body), gatewayOrganization(ctx));
        if (ctx.body.stream === true)
          return streamOnce(
            services,
            ctx,
            body,
            chatSink(ctx.res, ctx.requestId, ctx.body.stream_options?.include_usage === true),
          );
        const result = await executeOnce(services, ctx, body);
        return result === null ? Reply.handled() : Reply.raw(200, toChatCompletion(result));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/embeddings',
      summary: "OpenAI's embeddings (float or base64), routed like execute (providers:execute)",
      tag: 'gateway',
      scope: 'providers:execute',
      body: embeddingsBody,
      bodyLimitBytes: GATEWAY_JSON_LIMIT,
      errorBody: openaiErrors,
      handler: async (ctx) => {
        const result = await executeOnce(
          services,
          ctx,
          withOrganization(embeddingsToExecute(ctx.body), gatewayOrganization(ctx)),
        );
        return result === null ? Reply.handled() : Reply.raw(200, toEmbeddings(result, ctx.body.encoding_format));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/images/generations',
      summary: "OpenAI's image generations (b64_json; url as a data: URL), routed like execute (providers:execute)",
      tag: 'gateway',
      scope: 'providers:execute',
      body: imagesBody,
      errorBody: openaiErrors,
      handler: async (ctx) => {
        const result = await executeOnce(services, ctx, withOrganization(imagesToExecute(ctx.body), gatewayOrganization(ctx)));
        return result === null ? Reply.handled() : Reply.raw(200, toImages(result, ctx.body.response_format ?? undefined));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/audio/transcriptions',
      summary: "OpenAI's audio transcriptions (multipart/form-data: file, model), routed like execute (providers:execute)",
      tag: 'gateway',
      scope: 'providers:execute',
      body: transcriptionBody,
      bodyFormats: ['multipart'],
      bodyLimitBytes: TRANSCRIPTION_BODY_LIMIT,
      errorBody: openaiErrors,
      handler: async (ctx) => {
        const result = await executeOnce(
          services,
          ctx,
          withOrganization(transcriptionToExecute(ctx.body), gatewayOrganization(ctx)),
        );
        if (result === null) return Reply.handled();
        const text = 'text' in result.output ? result.output.text : '';
        if (ctx.body.response_format !== 'text') return Reply.raw(200, { text, usage: { type: 'tokens', ...usageOf(result) } });
        const res = ctx.res;
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return Reply.handled();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/models',
      summary: "OpenAI's model list: every enabled provider's advertised models, then the tiers basic and premium",
      tag: 'gateway',
      scope: 'providers:execute',
      errorBody: openaiErrors,
      handler: () => Reply.raw(200, toModelList(providers.listProviders(), startedAt)),
    }),
  ];
}

function usageOf(result: ExecuteResult): { input_tokens: number; output_tokens: number; total_tokens: number } {
  const { input_tokens, output_tokens } = result.usage;
  return { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens };
}
