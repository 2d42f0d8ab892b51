// Spec 2.7 (webhook), 2.8 (delivery record), 3.3-3.4 (states), 6.4-6.6; contract section 7.

import type { EventKind } from '../events/types.js';

/** Spec 6.4: filter keys and the event field each one matches. */
export const resourceFilterFields = {
  workflow_definition_id: 'workflow_id',
  workflow_run_id: 'run_id',
  job_id: 'job_id',
} as const;

export type ResourceFilterKey = keyof typeof resourceFilterFields;
export type ResourceFilter = Partial<Record<ResourceFilterKey, string>>;

/** What a change can put back to its default (none, every kind, any resource): gRPC's `reset`, the CLI's `--reset`. */
export const resettableWebhookFields = ['description', 'event_filter', 'resource_filter', 'state'] as const;

/** A webhook as stored: its secrets sealed (never in clear at rest). */
export interface Webhook {
  id: string;
  /** Null: a platform webhook, the operator's, which receives the events of every organization (contract 13). */
  organization_id: string | null;
  url: string;
  event_filter: EventKind[];
  resource_filter: ResourceFilter;
  /** Consumer state echoed in every delivery (spec 6.5); null: none, the event alone is the body. */
  state: unknown;
  max_retries: number;
  active: boolean;
  description: string | null;
  secret_sealed: string;
  /** The secret a rotation replaced, still signed with until `previous_secret_expires_at`. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/**
 * The slot pool's tenant of a webhook's attempts (slot-pool.ts, maxPerOrganization): its organization;
 * the platform webhooks are one tenant together, so that the operator's receivers take at most one
 * organization's share of the slots, and no organization's burst takes theirs.
 */
export const PLATFORM_SLOTS = 'platform';

export function slotTenantOf(webhook: Pick<Webhook, 'organization_id'>): string {
  return webhook.organization_id ?? PLATFORM_SLOTS;
}

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first 1 KB of the answer, scrubbed of secrets. */
  response: string | null;
}

/** One (webhook, event) pair: the same id on every attempt (X-Service-Delivery). */
export interface Delivery {
  id: string;
  webhook_id: string;
  /** The event's organization. */
  organization_id: string;
  /**
   * The organization that owns the webhook (null: a platform webhook, the operator's): the key of the
   * organization's delivery list, so a tenant never sees the platform's deliveries of its events.
   */
  webhook_organization_id: string | null;
  event_id: string;
  event_kind: EventKind;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempt: number;
  /** The attempt count when the delivery was last queued by hand: retries are counted from there. */
  budget_from: number;
  status_code: number | null;
  error_message: string | null;
  attempts: DeliveryAttempt[];
  /** When the next attempt is due (pending), else null. */
  next_attempt_at: string | null;
  /** Pending while its webhook is paused: out of the queue until resumed. */
  held: boolean;
  /** A daemon is attempting it until then (pending only). */
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

/** What a handed-off delivery's record is made from (the rest is its batch's, or a new delivery's). */
export type HandedDelivery = Pick<
  Delivery,
  'id' | 'webhook_id' | 'organization_id' | 'webhook_organization_id' | 'event_id' | 'event_kind'
>;

/**
 * The deliveries one fan-out step handed to free slots of its own daemon, written as one record in the
 * step's transaction (docs/webhooks.md, "Handed-off deliveries"): each delivery's own record is written
 * once, with its first attempt's outcome, and the batch is deleted with the last of them. A daemon that
 * dies leaves its batch, and whoever takes it over (its restart, or another daemon once the lease has
 * ended) writes the deliveries still missing, pending, with the same ids.
 */
export interface HandOffBatch {
  id: string;
  lease_owner: string;
  lease_until: string;
  created_at: string;
  deliveries: HandedDelivery[];
}
