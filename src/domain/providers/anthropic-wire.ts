// Anthropic's Messages API as the gateway speaks it (contract 13): the request schema, its
// translation into the provider layer's execute body, and the answer (and stream events) back in
// Anthropic's shapes. Pure functions; the route is http/routes/anthropic-compat.ts.
import { z } from 'zod';
import type { ErrorDescription } from '../../errors.js';
import { openaiId, routeOf } from './openai-wire.js';
import type { ExecuteBody } from './schemas.js';
import type { ExecuteResult } from './service.js';
import type { Usage } from './types.js';

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const blocks = z.union([z.string(), z.array(textBlock).min(1, 'must hold a block')], {
  error: 'must be a string or an array of {type: "text", text} blocks (images, documents and tools are not served)',
});

/** POST /v1/messages: Anthropic's request; fields it does not act on (metadata, top_k, ...) are ignored. */
export const messagesBody = z.object({
  model: z.string().min(1, 'must not be empty').max(200),
  max_tokens: z.number().int().min(1).max(200_000),
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: blocks }))
    .min(1, 'must hold a message')
    .max(256, 'at most 256 messages'),
  system: blocks.optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  stop_sequences: z.array(z.string().min(1).max(200)).max(8).optional(),
  tools: z.undefined({ error: 'tool use is not served by this gateway' }).optional(),
});
export type MessagesBody = z.infer<typeof messagesBody>;

function textOf(c: z.infer<typeof blocks>): string {
  return typeof c === 'string' ? c : c.map((b) => b.text).join('');
}

export function messagesToExecute(body: MessagesBody): Omit<ExecuteBody, 'organization_id'> {
  const params: NonNullable<ExecuteBody['params']> = { max_tokens: body.max_tokens };
  if (body.temperature !== undefined) params.temperature = body.temperature;
  if (body.top_p !== undefined) params.top_p = body.top_p;
  if (body.stop_sequences !== undefined) params.stop = body.stop_sequences;
  const system = body.system === undefined ? [] : [{ role: 'system' as const, content: textOf(body.system) }];
  return {
    modality: 'text',
    ...routeOf(body.model),
    input: { messages: [...system, ...body.messages.map((m) => ({ role: m.role, content: textOf(m.content) }))] },
    params,
  };
}

export function messageId(): string {
  return openaiId('msg_');
}

export function anthropicUsage(usage: Usage): { input_tokens: number; output_tokens: number } {
  return { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens };
}

/** The `message` object, whole (unstreamed) or empty (message_start's). */
export function toMessage(id: string, model: string, text: string | null, usage: Usage): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: text === null ? [] : [{ type: 'text', text }],
    stop_reason: text === null ? null : 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(usage),
  };
}

export function resultToMessage(result: ExecuteResult): Record<string, unknown> {
  return toMessage(messageId(), result.model, 'text' in result.output ? result.output.text : '', result.usage);
}

/** Anthropic's error types by status. */
function anthropicErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** `{type: "error", error: {type, message}}` with the same status; the contract's code rides along. */
export function anthropicError(status: number, error: ErrorDescription): Record<string, unknown> {
  const fields = error.details?.fields;
  const reasons = typeof fields === 'object' && fields !== null ? Object.entries(fields as Record<string, string>) : [];
  const message = reasons.length === 0 ? error.message : reasons.map(([f, r]) => `${f}: ${r}`).join('; ');
  return { type: 'error', error: { type: anthropicErrorType(status), message, code: error.code } };
}
