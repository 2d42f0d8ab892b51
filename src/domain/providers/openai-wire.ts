// OpenAI's API as the gateway speaks it (contract 13): request schemas in OpenAI's shapes, their
// translation into the provider layer's execute body, and its answers back into OpenAI's objects.
// Pure functions: the routes (http/routes/openai-compat.ts) parse, call the provider service, render.
import { randomFillSync } from 'node:crypto';
import { z } from 'zod';
import type { ErrorDescription } from '../../errors.js';
import { validationFailed } from '../../errors.js';
import type { ExecuteResult } from './service.js';
import { audioFormats, executeBody, type ExecuteBody } from './schemas.js';
import { tiers, type Modality, type Tier, type Usage } from './types.js';

const modelName = z.string().min(1, 'must not be empty').max(200, 'at most 200 characters');

/** OpenAI's content: a string, or parts of which only text ones are served here. */
const textPart = z.object({ type: z.literal('text'), text: z.string() });
const content = z.union([z.string(), z.array(textPart).min(1, 'must hold a part')], {
  error: 'must be a string or an array of {type: "text", text} parts (images and audio are not served)',
});

const chatMessage = z.object({
  // `developer` is OpenAI's newer name for system instructions.
  role: z.enum(['system', 'developer', 'user', 'assistant'], {
    error: 'must be system, developer, user or assistant (tool messages are not served)',
  }),
  content,
  name: z.string().max(64).optional(),
});

/** Fields that ask for what the gateway does not do: refused, never ignored. */
const unserved = {
  tools: z.undefined({ error: 'tool calling is not served by this gateway' }).optional(),
  functions: z.undefined({ error: 'function calling is not served by this gateway' }).optional(),
  logprobs: z.literal(false, { error: 'logprobs are not served by this gateway' }).optional(),
};

/** POST /v1/chat/completions: OpenAI's request; fields it does not act on (user, seed, metadata, ...) are ignored. */
export const chatCompletionBody = z.object({
  model: modelName,
  messages: z.array(chatMessage).min(1, 'must hold a message').max(256, 'at most 256 messages'),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().min(1).max(200_000).nullish(),
  max_completion_tokens: z.number().int().min(1).max(200_000).nullish(),
  stop: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(8)]).nullish(),
  n: z.literal(1, { error: 'only n: 1 is served' }).nullish(),
  ...unserved,
});
export type ChatCompletionBody = z.infer<typeof chatCompletionBody>;

/** POST /v1/embeddings. */
export const embeddingsBody = z.object({
  model: modelName,
  input: z.union([z.string(), z.array(z.string()).min(1, 'must hold a text')], {
    error: 'must be a string or an array of strings (token arrays are not served)',
  }),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.undefined({ error: 'dimensions is not served by this gateway' }).optional(),
});
export type EmbeddingsBody = z.infer<typeof embeddingsBody>;

/** POST /v1/images/generations. */
export const imagesBody = z.object({
  prompt: z.string(),
  model: modelName.optional(),
  n: z.literal(1, { error: 'only n: 1 is served' }).nullish(),
  size: z.string().nullish(),
  response_format: z.enum(['b64_json', 'url']).nullish(),
});
export type ImagesBody = z.infer<typeof imagesBody>;

const uploadedFile = z.custom<{ filename: string; contentType: string; bytes: Buffer }>(
  (v) => typeof v === 'object' && v !== null && Buffer.isBuffer((v as { bytes?: unknown }).bytes),
  { error: 'must be a file part' },
);

/** POST /v1/audio/transcriptions (multipart/form-data): `file` and `model`; json or text answers. */
export const transcriptionBody = z.object({
  file: uploadedFile,
  model: modelName,
  language: z.string().max(16).optional(),
  prompt: z.string().optional(),
  response_format: z.enum(['json', 'text'], { error: 'must be json or text' }).optional(),
  temperature: z.coerce.number().min(0).max(1).optional(),
});
export type TranscriptionBody = z.infer<typeof transcriptionBody>;

/** `model` as the router reads it (spec 4.4 rule 6): `basic`/`premium` ask for a tier, any other name for that model. */
export function routeOf(model: string | undefined): Pick<ExecuteBody, 'model' | 'tier'> {
  if (model === undefined) return {};
  return (tiers as readonly string[]).includes(model) ? { tier: model as Tier } : { model };
}

/** The organization a call bills when the caller is not an API key (which bills its own). */
export function withOrganization(body: Omit<ExecuteBody, 'organization_id'>, organizationId: string | undefined): ExecuteBody {
  const whole: Record<string, unknown> = organizationId === undefined ? body : { ...body, organization_id: organizationId };
  // The translated body meets execute's own rules (input limits by modality), as if sent there.
  const checked = executeBody.safeParse(whole);
  if (!checked.success) {
    const fields: Record<string, string> = {};
    for (const issue of checked.error.issues) fields[issue.path.map(String).join('.') || '(body)'] ??= issue.message;
    throw validationFailed(fields);
  }
  return checked.data;
}

function textOf(c: z.infer<typeof content>): string {
  return typeof c === 'string' ? c : c.map((p) => p.text).join('');
}

export function chatToExecute(body: ChatCompletionBody): Omit<ExecuteBody, 'organization_id'> {
  const params: NonNullable<ExecuteBody['params']> = {};
  if (body.temperature != null) params.temperature = body.temperature;
  if (body.top_p != null) params.top_p = body.top_p;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens != null) params.max_tokens = maxTokens;
  if (body.stop != null) params.stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  return {
    modality: 'text',
    ...routeOf(body.model),
    input: {
      messages: body.messages.map((m) => ({ role: m.role === 'developer' ? 'system' : m.role, content: textOf(m.content) })),
    },
    params,
  };
}

export function embeddingsToExecute(body: EmbeddingsBody): Omit<ExecuteBody, 'organization_id'> {
  return {
    modality: 'embedding',
    ...routeOf(body.model),
    input: typeof body.input === 'string' ? { texts: [body.input] } : { texts: body.input },
  };
}

export function imagesToExecute(body: ImagesBody): Omit<ExecuteBody, 'organization_id'> {
  return {
    modality: 'image',
    ...routeOf(body.model),
    input: body.size == null || body.size === 'auto' ? { prompt: body.prompt } : { prompt: body.prompt, size: body.size },
  };
}

const AUDIO_TYPES: Record<string, (typeof audioFormats)[number]> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/webm': 'webm',
};

export function transcriptionToExecute(body: TranscriptionBody): Omit<ExecuteBody, 'organization_id'> {
  const extension = /\.(\w+)$/.exec(body.file.filename)?.[1]?.toLowerCase();
  const format = (audioFormats as readonly string[]).includes(extension ?? '')
    ? (extension as (typeof audioFormats)[number])
    : AUDIO_TYPES[body.file.contentType.split(';')[0].trim().toLowerCase()];
  if (format === undefined)
    throw validationFailed({ file: `must be audio in one of ${audioFormats.join(', ')} (by file name or content type)` });
  return {
    modality: 'audio',
    ...routeOf(body.model),
    input: { audio_base64: body.file.bytes.toString('base64'), format },
  };
}

/** Random bytes for ids, filled 32 ids at a time: randomBytes(18) per answer cost about 0.8 % of a chat completion's CPU. */
const idPool = Buffer.alloc(18 * 32);
let idPoolAt = idPool.length;

/** An OpenAI object id: the prefix and 24 random characters. */
export function openaiId(prefix: string): string {
  if (idPoolAt === idPool.length) {
    randomFillSync(idPool);
    idPoolAt = 0;
  }
  const id = idPool.toString('base64url', idPoolAt, idPoolAt + 18);
  idPoolAt += 18;
  return `${prefix}${id}`;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function openaiUsage(usage: Usage): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.input_tokens + usage.output_tokens,
  };
}

export function toChatCompletion(result: ExecuteResult): Record<string, unknown> {
  const text = 'text' in result.output ? result.output.text : '';
  return {
    id: openaiId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: result.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: openaiUsage(result.usage),
    system_fingerprint: null,
  };
}

/** One `chat.completion.chunk` of a stream. */
export function chatChunk(
  id: string,
  created: number,
  model: string,
  delta: Record<string, unknown> | null,
  finish: 'stop' | null,
  usage?: Usage,
): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: null,
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(usage === undefined ? {} : { usage: openaiUsage(usage) }),
  };
}

/** Embeddings as OpenAI lists them: floats, or base64 of little-endian float32 (the SDK's default). */
export function toEmbeddings(result: ExecuteResult, format: 'float' | 'base64' = 'float'): Record<string, unknown> {
  const vectors = 'embeddings' in result.output ? result.output.embeddings : [];
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: format === 'float' ? vector : Buffer.from(new Float32Array(vector).buffer).toString('base64'),
    })),
    model: result.model,
    usage: { prompt_tokens: result.usage.input_tokens, total_tokens: result.usage.input_tokens },
  };
}

/** Images as b64_json; `url` is a data: URL (the gateway keeps no image to link to). */
export function toImages(result: ExecuteResult, format: 'b64_json' | 'url' = 'b64_json'): Record<string, unknown> {
  const images = 'images' in result.output ? result.output.images : [];
  return {
    created: nowSeconds(),
    data: images.map((image) =>
      format === 'url' ? { url: `data:${image.content_type};base64,${image.base64}` } : { b64_json: image.base64 },
    ),
  };
}

export interface ModelEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/** GET /v1/models: every advertised model of every enabled provider that serves `modalities`, then the tiers. */
export function toModelList(
  providers: readonly { name: string; models: string[]; enabled: boolean; modalities: Modality[] }[],
  created: number,
): { object: 'list'; data: ModelEntry[] } {
  const seen = new Set<string>();
  const data: ModelEntry[] = [];
  const add = (id: string, owner: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    data.push({ id, object: 'model', created, owned_by: owner });
  };
  for (const p of providers) if (p.enabled) for (const m of p.models) add(m, p.name);
  for (const t of tiers) add(t, 'switchyard');
  return { object: 'list', data };
}

/** OpenAI's error types by status (the SDK picks its error class by status; the type is for people). */
function openaiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return status === 500 ? 'server_error' : 'upstream_error';
  return 'invalid_request_error';
}

/** The first failing field of a validation error, as OpenAI's `param`, with every reason in the message. */
function fieldsOf(error: ErrorDescription): [string, string][] {
  const fields = error.details?.fields;
  return typeof fields === 'object' && fields !== null ? Object.entries(fields as Record<string, string>) : [];
}

/** `{error: {message, type, param, code}}`: the contract's code, the same status. */
export function openaiError(status: number, error: ErrorDescription): Record<string, unknown> {
  const fields = fieldsOf(error);
  const message = fields.length === 0 ? error.message : fields.map(([f, reason]) => `${f}: ${reason}`).join('; ');
  return { error: { message, type: openaiErrorType(status), param: fields[0]?.[0] ?? null, code: error.code } };
}
