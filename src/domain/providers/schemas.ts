import { z } from 'zod';
import { idSchema as id, timestampSchema as timestamp } from '../schemas.js';
import { modalities, tiers, type Modality } from './types.js';

// Request and record schemas of the provider layer (contract 8): HTTP and gRPC input, types and
// OpenAPI from one place.

export const modality = z.enum(modalities);
export const tier = z.enum(tiers);

/** A prompt or a message's content: 1 MiB of text is far past any model's context. */
const MAX_TEXT = 1024 * 1024;
/** Decoded audio at most 25 MiB (the common hosted limit); its base64 is 4/3 of that. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** The execute routes' body limit: the largest audio input, in base64, with room for the rest. */
export const EXECUTE_BODY_LIMIT = Math.ceil((MAX_AUDIO_BYTES * 4) / 3) + 64 * 1024;
export const audioFormats = ['wav', 'mp3', 'ogg', 'flac', 'm4a', 'webm'] as const;

const text = z.string().min(1, 'must not be empty').max(MAX_TEXT, `at most ${MAX_TEXT} characters`);
const message = z.object({ role: z.enum(['system', 'user', 'assistant']), content: text }).strict();

/** Inputs by modality (contract 8). */
export const inputSchemas = {
  text: z.union([
    z.object({ prompt: text }).strict(),
    z.object({ messages: z.array(message).min(1, 'must hold a message').max(256, 'at most 256 messages') }).strict(),
  ]),
  embedding: z.union([
    z.object({ text }).strict(),
    z.object({ texts: z.array(text).min(1, 'must hold a text').max(256, 'at most 256 texts') }).strict(),
  ]),
  image: z
    .object({
      prompt: text.max(4000, 'at most 4000 characters'),
      size: z
        .string()
        .regex(/^\d{2,4}x\d{2,4}$/, 'must be WIDTHxHEIGHT, e.g. 1024x1024')
        .refine((s) => s.split('x').every((n) => Number(n) >= 64 && Number(n) <= 2048), 'each side must be 64 to 2048')
        .optional(),
    })
    .strict(),
  audio: z
    .object({
      audio_base64: z
        .string()
        .min(1, 'must not be empty')
        .max(Math.ceil((MAX_AUDIO_BYTES * 4) / 3), `decoded audio must be at most ${MAX_AUDIO_BYTES} bytes`)
        .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
      format: z.enum(audioFormats),
    })
    .strict(),
} satisfies Record<Modality, z.ZodType>;

export const paramsSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().min(1).max(200_000).optional(),
    top_p: z.number().min(0).max(1).optional(),
    stop: z.array(z.string().min(1).max(200)).max(8).optional(),
    stream: z.boolean().optional(),
  })
  .strict();

const modelName = z.string().min(1).max(200);

/** POST /v1/providers/execute, /execute/stream and /estimate. */
export const executeBody = z
  .object({
    modality,
    model: modelName.optional(),
    tier: tier.optional(),
    input: z.record(z.string(), z.unknown()),
    params: paramsSchema.optional(),
    /** The organization billed, for credentials other than an API key (a key bills its own). */
    organization_id: id.optional(),
  })
  .superRefine((body, ctx) => {
    const result = inputSchemas[body.modality].safeParse(body.input);
    if (!result.success)
      for (const issue of result.error.issues)
        ctx.addIssue({ code: 'custom', path: ['input', ...issue.path], message: inputMessage(body.modality, issue) });
  });
export type ExecuteBody = z.infer<typeof executeBody>;

/** A union's "invalid input" says nothing; name what each modality takes instead. */
function inputMessage(of: Modality, issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_union' && issue.code !== 'unrecognized_keys') return issue.message;
  const shapes: Record<Modality, string> = {
    text: '{prompt} or {messages: [{role, content}]}',
    embedding: '{text} or {texts: [...]}',
    image: '{prompt, size?}',
    audio: '{audio_base64, format}',
  };
  return `${of} input must be ${shapes[of]}`;
}

export const usageSchema = z.object({ input_tokens: z.number(), output_tokens: z.number() });

export const outputSchema = z.union([
  z.object({ text: z.string() }),
  z.object({ embeddings: z.array(z.array(z.number())) }),
  z.object({ images: z.array(z.object({ content_type: z.string(), base64: z.string() })) }),
]);

export const attemptSchema = z.object({ provider: z.string(), error: z.string().optional() });

export const executeResultSchema = z.object({
  provider: z.string(),
  model: z.string(),
  modality,
  output: outputSchema,
  usage: usageSchema,
  cost_usd: z.number(),
  latency_ms: z.number(),
  attempts: z.array(attemptSchema),
});

export const estimateSchema = z.object({ provider: z.string(), model: z.string(), estimated_cost_usd: z.number() });

export const providerRecordSchema = z.object({
  name: z.string(),
  kind: z.string(),
  tier,
  modalities: z.array(modality),
  models: z.array(z.string()),
  streaming: z.enum(['sse', 'ndjson']).nullable(),
  capabilities: z.array(z.object({ modality, estimated_cost_per_request: z.number() })),
  health: z.object({
    status: z.enum(['healthy', 'unhealthy', 'unknown']),
    checked_at: timestamp.nullable(),
    reason: z.string().optional(),
  }),
  unavailable_models: z.array(z.object({ model: z.string(), reason: z.string() })),
  enabled: z.boolean(),
  drained: z.boolean(),
});

/** `provider set` (gRPC): the routing settings an operator may change. */
export const providerSettingsInput = z
  .object({
    tier: tier.optional(),
    cost_usd: z.number().min(0).max(1000).optional(),
    models: z.array(modelName).max(200).optional(),
    enabled: z.boolean().optional(),
    drained: z.boolean().optional(),
  })
  .strict();
export type ProviderSettingsInput = z.infer<typeof providerSettingsInput>;

/** `provider route` (gRPC): what the router would do for a request of this shape. */
export const routeQuery = z.object({ modality, tier: tier.optional(), model: modelName.optional() }).strict();
export type RouteQuery = z.infer<typeof routeQuery>;

/** `provider route`'s answer: the winner, the candidates in the order tried, and why each other lost. */
export const routeExplanationSchema = z.object({
  winner: z.string().nullable(),
  model: z.string().nullable(),
  candidates: z.array(z.object({ provider: z.string(), cost_usd: z.number() })),
  rejected: z.array(z.object({ provider: z.string(), reason: z.string() })),
});
export type RouteExplanation = z.infer<typeof routeExplanationSchema>;

/** GET /v1/organizations/{id}/usage: a time window (default: the last 30 days). */
export const usageQuery = z.object({
  since: timestamp.optional(),
  until: timestamp.optional(),
  provider: z.string().max(40).optional(),
});
export type UsageQuery = z.infer<typeof usageQuery>;

export const usageRowSchema = z.object({
  day: z.string(),
  provider: z.string(),
  model: z.string(),
  calls: z.number(),
  failures: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number(),
  latency_ms_avg: z.number(),
});
export type UsageRow = z.infer<typeof usageRowSchema>;
