import { z } from 'zod';
import { eventKinds } from '../events/types.js';
import { cleanText, idSchema as id, jsonValue, pageQuery, timestampSchema as timestamp } from '../schemas.js';
import { deliveryStatuses, resourceFilterFields } from './types.js';

// Request and record schemas of webhooks: HTTP and gRPC input, types and OpenAPI from one place.

/** Spec 8: a webhook's state is at most 16 KB (its JSON, as UTF-8). */
export const MAX_STATE_BYTES = 16 * 1024;
/** Retries a webhook may ask for: the backoff caps at 2^10 x base, so more would only repeat the cap. */
export const MAX_RETRIES = 20;
export const DEFAULT_MAX_RETRIES = 3;
const MAX_URL_LENGTH = 2048;

const eventKind = z.enum(eventKinds);
/** Every kind once; empty means every kind. */
const eventFilter = z
  .array(eventKind)
  .max(eventKinds.length)
  .transform((kinds) => [...new Set(kinds)]);
const resourceFilter = z
  .object(
    Object.fromEntries(Object.keys(resourceFilterFields).map((key) => [key, z.string().min(1).max(200).optional()])) as Record<
      keyof typeof resourceFilterFields,
      z.ZodOptional<z.ZodString>
    >,
  )
  .strict();
/** Opaque JSON echoed in every delivery; its size is checked by the service (MAX_STATE_BYTES). */
const state = jsonValue.nullable();

export const createWebhookBody = z.object({
  url: z.string().min(1).max(MAX_URL_LENGTH),
  event_filter: eventFilter.optional(),
  resource_filter: resourceFilter.optional(),
  state: state.optional(),
  max_retries: z.number().int().min(0).max(MAX_RETRIES).optional(),
  description: cleanText(500).nullable().optional(),
  active: z.boolean().optional(),
  /** A secret of the caller's own, `whsec_` + base64 of 32 bytes (or the older 64 hex); generated when absent. */
  secret: z.string().max(200).optional(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z
  .object({
    active: z.boolean().optional(),
    description: cleanText(500).nullable().optional(),
    event_filter: eventFilter.optional(),
    resource_filter: resourceFilter.optional(),
    state: state.optional(),
    max_retries: z.number().int().min(0).max(MAX_RETRIES).optional(),
  })
  .strict();
export type UpdateWebhookInput = z.infer<typeof updateWebhookBody>;

/** Delivery ids are `dlv_` + a time-sortable id (contract 3). */
export const deliveryIdSchema = z.string().regex(/^dlv_[0-9A-Z]{26}$/, 'must be a delivery id');

export const recoverBody = z.object({ since: timestamp, until: timestamp.optional() });

/** The filters of an organization's delivery list (HTTP query): each narrows one range read. */
export const organizationDeliveryFilters = z
  .object({
    webhook_id: id.optional().meta({ description: "one of the organization's webhooks (a deleted one too)" }),
    status: z.enum(deliveryStatuses).optional(),
    since: timestamp.optional().meta({ description: 'deliveries created at or after this time' }),
    until: timestamp.optional().meta({ description: 'deliveries created before this time' }),
  })
  .refine((q) => q.since === undefined || q.until === undefined || Date.parse(q.since) < Date.parse(q.until), {
    message: 'must be after since',
    path: ['until'],
  });
export const organizationDeliveriesQuery = z.intersection(pageQuery, organizationDeliveryFilters);
export const rotateSecretBody = z.object({
  grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional(),
});

export const webhookSchema = z.object({
  id,
  organization_id: id,
  url: z.string(),
  event_filter: z.array(eventKind),
  resource_filter: resourceFilter,
  state: z.unknown(),
  max_retries: z.number().int(),
  active: z.boolean(),
  description: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: timestamp.nullable(),
  all_organizations: z.boolean().meta({ description: "false over /v1: a platform webhook is the operator's alone" }),
});

export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string(), standard_secret: z.string() });

export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  at: timestamp,
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response: z.string().nullable(),
});

export const deliverySchema = z.object({
  id: z.string(),
  webhook_id: id,
  event_id: z.string(),
  event_kind: eventKind,
  status: z.enum(deliveryStatuses),
  status_code: z.number().int().nullable(),
  error_message: z.string().nullable(),
  attempt: z.number().int(),
  attempts: z.array(deliveryAttemptSchema),
  next_attempt_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

/**
 * What callers see of a webhook and a delivery, typed by the response schemas above (STYLE: views
 * are typed by their schemas): a field the schema gains and viewWebhook / viewDelivery (service.ts)
 * lack, or the reverse, fails `tsc`. A platform webhook (the operator's, over gRPC) belongs to no
 * organization, so the view's organization_id may be null; /v1 never answers one (routes/webhooks.ts).
 */
export type WebhookView = Omit<z.input<typeof webhookSchema>, 'organization_id'> & { organization_id: string | null };
/** The creation (and rotation) answer: the only time the secret is shown. */
export type WebhookWithSecret = WebhookView & Pick<z.input<typeof webhookWithSecretSchema>, 'secret' | 'standard_secret'>;
export type DeliveryView = z.input<typeof deliverySchema>;

export const testEventResultSchema = z.object({
  webhook_id: z.string(),
  event_id: z.string().meta({ description: "the webhook.test event; its delivery lists under the webhook's deliveries" }),
});
export const recoverResultSchema = z.object({ recovered: z.number().int() });
