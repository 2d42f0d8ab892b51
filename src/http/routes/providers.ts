import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  estimateSchema,
  EXECUTE_BODY_LIMIT,
  executeBody,
  executeResultSchema,
  providerRecordSchema,
  usageQuery,
  usageRowSchema,
} from '../../domain/providers/schemas.js';
import { CallCancelled, type StreamSink } from '../../domain/providers/service.js';
import type { StreamFormat } from '../../domain/providers/types.js';
import type { Services } from '../../areas.js';
import { AppError } from '../../errors.js';
import { defineRoute, idParams, Reply } from '../route.js';

/** A signal that aborts when the client goes away before the answer is finished (cancels the upstream call). */
export function clientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  // 'close' comes with the end of the answer too; only before it does it mean the client left.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}

/** The stream format the client asked for (Accept), else the provider's native one (SSE when it has none). */
function negotiate(accept: string | undefined, native: StreamFormat | null): StreamFormat {
  if (accept !== undefined) {
    if (accept.includes('application/x-ndjson')) return 'ndjson';
    if (accept.includes('text/event-stream')) return 'sse';
  }
  return native ?? 'sse';
}

/** Frames of contract 8: SSE `event: delta|done|error` with JSON data, or NDJSON `{type, ...}` lines. */
function streamSink(res: ServerResponse, requestId: string, format: (provider: string) => StreamFormat): StreamSink {
  let chosen: StreamFormat = 'sse';
  const frame = (type: 'delta' | 'done' | 'error', data: Record<string, unknown>) => {
    if (res.destroyed) return;
    res.write(chosen === 'sse' ? `event: ${type}\ndata: ${JSON.stringify(data)}\n\n` : `${JSON.stringify({ type, ...data })}\n`);
  };
  return {
    open(provider) {
      chosen = format(provider);
      res.writeHead(200, {
        'content-type': chosen === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        'x-request-id': requestId,
      });
      res.flushHeaders();
    },
    delta: (text) => frame('delta', { text }),
    done: (summary) => {
      frame('done', summary);
      res.end();
    },
    fail: (error) => {
      frame('error', error);
      res.end();
    },
  };
}

/** Spec 4.4 and contract 8: the provider list, execute, stream, estimate; and an organization's usage. */
export function providerRoutes({ providers }: Services) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/providers',
      summary: 'Every registered provider with its capabilities, modalities, models and health',
      tag: 'providers',
      scope: 'any',
      response: z.array(providerRecordSchema),
      handler: () => providers.listProviders(),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/providers/execute',
      summary: 'Run one request on the provider the router picks (member+, providers:execute)',
      tag: 'providers',
      scope: 'providers:execute',
      body: executeBody,
      bodyLimitBytes: EXECUTE_BODY_LIMIT,
      response: executeResultSchema,
      handler: async (ctx) => {
        // Contract 13: a client that asks for a stream here gets told where streams are, not a silent whole answer.
        if (ctx.body.params?.stream === true)
          throw new AppError('invalid_request', 'params.stream is true: POST /v1/providers/execute/stream streams an answer', {
            details: { stream_route: '/v1/providers/execute/stream' },
          });
        try {
          return await providers.execute(ctx.caller, ctx.body, clientGone(ctx.res));
        } catch (err) {
          if (err instanceof CallCancelled) return Reply.handled();
          throw err;
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/providers/execute/stream',
      summary: "Stream one request: SSE or NDJSON (Accept chooses; default the provider's own), delta, then done or error",
      tag: 'providers',
      scope: 'providers:execute',
      body: executeBody,
      bodyLimitBytes: EXECUTE_BODY_LIMIT,
      produces: ['text/event-stream', 'application/x-ndjson'],
      handler: async (ctx) => {
        const accept = ctx.req.headers.accept;
        const sink = streamSink(ctx.res, ctx.requestId, (provider) =>
          negotiate(accept, providers.nativeStreamFormat(provider) ?? null),
        );
        try {
          await providers.stream(ctx.caller, ctx.body, clientGone(ctx.res), sink);
        } catch (err) {
          if (!(err instanceof CallCancelled)) throw err;
          ctx.res.destroy();
        }
        return Reply.handled();
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/providers/estimate',
      summary: 'What a request would cost on the provider the router picks (local providers: 0)',
      tag: 'providers',
      scope: 'providers:execute',
      body: executeBody,
      bodyLimitBytes: EXECUTE_BODY_LIMIT,
      response: estimateSchema,
      handler: async (ctx) => providers.estimate(ctx.caller, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/usage',
      summary: "The organization's provider usage by day, provider and model (admin); ?since=&until= (default 30 days)",
      tag: 'providers',
      params: idParams('id'),
      query: usageQuery,
      response: z.array(usageRowSchema),
      handler: async (ctx) => providers.usageOf(ctx.caller, ctx.params.id, ctx.query),
    }),
  ];
}
