import { setBounded } from '../../bounded-map.js';
import { AppError, limitReached, validationFailed } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventLog } from '../events/service.js';
import type { SettingsService } from '../settings/service.js';
import type { SecretSealer } from '../secret-sealer.js';
import { isOperator, type Actor } from '../identity/caller.js';
import { atOrganization, organizationRef, type PermissionEngine, type ResourceLocation } from '../identity/permissions.js';
import {
  DEFAULT_MAX_RETRIES,
  MAX_STATE_BYTES,
  type CreateWebhookInput,
  type DeliveryView,
  type UpdateWebhookInput,
  type WebhookView,
  type WebhookWithSecret,
} from './schemas.js';
import { SECRET_FORMAT } from './secret-format.js';
import { canonicalTime } from '../schemas.js';
import { generateSecret, isWellFormedSecret, standardSecret } from './signing.js';
import { DELIVERIES_TOPIC, WebhookStore, type DeliveryFilters } from './store.js';
import { validateWebhookUrl } from './target-guard.js';
import { PLATFORM_SLOTS, type Delivery, type Webhook } from './types.js';

export interface WebhookSettings {
  /** SERVICE_ENV=production: `https` targets only. */
  production: boolean;
  /** SERVICE_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** SERVICE_WEBHOOK_MAX_PER_ORG: the platform webhooks' cap (an organization's is its `max_webhooks`). */
  maxPerOrganization: number;
}

/**
 * A webhook's change as every path writes it (PATCH, pause and resume, the pause of a restored backup):
 * under the webhook's lock, on the live record read again, with its audit record in the same
 * transaction. Undefined when the webhook is deleted by then. Authorization is the caller's.
 */
export async function writeWebhookChange(
  storage: Storage,
  store: WebhookStore,
  audit: AuditLog,
  actor: Actor,
  id: string,
  patch: UpdateWebhookInput,
): Promise<Webhook | undefined> {
  return storage.transaction({ locks: [webhookLock(id)] }, async (tx) => {
    const current = await tx.get(store.webhooks, id);
    if (current === undefined || current.deleted_at !== null) return undefined;
    const next: Webhook = {
      ...current,
      ...(patch.active === undefined ? {} : { active: patch.active }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.event_filter === undefined ? {} : { event_filter: patch.event_filter }),
      ...(patch.resource_filter === undefined ? {} : { resource_filter: patch.resource_filter }),
      ...(patch.state === undefined ? {} : { state: patch.state }),
      ...(patch.max_retries === undefined ? {} : { max_retries: patch.max_retries }),
      updated_at: nowIso(),
    };
    audit.recordChange(tx, actor, 'webhook.update', 'webhook', current, next);
    await tx.put(store.webhooks, next);
    return next;
  });
}

/** A rotation's default grace window: both secrets sign for a day. */
const DEFAULT_GRACE_SECONDS = 86_400;
/** Deliveries changed per transaction by resume, delete and recover (the rest follow in the next ones). */
const BATCH = 200;

export function webhookLock(id: string): string {
  return `webhook:${id}`;
}

export function deliveryLock(id: string): string {
  return `webhook-delivery:${id}`;
}

/** A hand-off batch's lock: its outcomes' writes, and its takeover. */
export function handOffLock(id: string): string {
  return `webhook-handoff:${id}`;
}

export function viewWebhook(w: Webhook): WebhookView {
  return {
    id: w.id,
    organization_id: w.organization_id,
    url: w.url,
    event_filter: w.event_filter,
    resource_filter: w.resource_filter,
    state: w.state,
    max_retries: w.max_retries,
    active: w.active,
    description: w.description,
    created_at: w.created_at,
    updated_at: w.updated_at,
    deleted_at: w.deleted_at,
    all_organizations: w.organization_id === null,
  };
}

export function viewDelivery(d: Delivery): DeliveryView {
  return {
    id: d.id,
    webhook_id: d.webhook_id,
    event_id: d.event_id,
    event_kind: d.event_kind,
    status: d.status,
    status_code: d.status_code,
    error_message: d.error_message,
    attempt: d.attempt,
    attempts: d.attempts,
    next_attempt_at: d.next_attempt_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

function stateBytes(state: unknown): number {
  return state === null || state === undefined ? 0 : Buffer.byteLength(JSON.stringify(state), 'utf8');
}

/** Unsealed secrets kept at most (oldest out first). */
const UNSEALED_CACHE_ENTRIES = 1024;

/**
 * Webhook subscriptions (spec 2.7, 3.3, 4.5) and their delivery records (2.8, 3.4): create, read,
 * change, pause and resume, delete, redeliver, recover, rotate. Admins manage them (`webhook.*`);
 * another organization's webhook is 404. Secrets are sealed at rest and shown once.
 */
export class WebhookService {
  readonly store: WebhookStore;
  /**
   * Secrets as unsealed, by record, role and sealed value (a rotation seals a new value, so an entry
   * never goes stale): every attempt signs, and unsealing (AES-GCM) cost about 3 % of a busy sender's
   * CPU. They stay in this process's memory only, as they must to sign.
   */
  private readonly unsealed = new Map<string, string>();
  /** The secrets of a webhook record as read (records are never changed in place: a change is a new one). */
  private readonly secretsOfRecord = new WeakMap<Webhook, { current: string; previous?: string }>();

  constructor(
    private readonly storage: Storage,
    private readonly permissions: PermissionEngine,
    private readonly sealer: SecretSealer,
    private readonly settings: WebhookSettings,
    private readonly audit: AuditLog,
    private readonly eventLog: EventLog,
    private readonly log: Logger,
    /** The organization's `max_webhooks` (capped by SERVICE_WEBHOOK_MAX_PER_ORG). */
    private readonly organizationSettings: Pick<SettingsService, 'resolveSettings'>,
  ) {
    this.store = new WebhookStore(storage);
  }

  async locateWebhook(id: string): Promise<ResourceLocation | undefined> {
    const webhook = await this.store.webhooks.get(id);
    // A platform webhook is in no organization: no /v1 caller can reach it (404), only the operator.
    return webhook === undefined || webhook.deleted_at !== null || webhook.organization_id === null
      ? undefined
      : atOrganization(webhook.organization_id);
  }

  /** Deliveries waiting (counted up to 100,000) and the age of the oldest due one (metrics). */
  async backlogFigures(): Promise<{ pending: number; oldestDueAgeSeconds: number }> {
    const { pending, oldestDue } = await this.store.backlog(100_000);
    const due = oldestDue === undefined ? undefined : Date.parse(oldestDue);
    return { pending, oldestDueAgeSeconds: due === undefined ? 0 : Math.max(0, (Date.now() - due) / 1000) };
  }

  async countWebhooks(): Promise<Record<string, number>> {
    return { webhooks: await this.store.webhooks.count(), webhook_deliveries: await this.store.deliveries.count() };
  }

  /** The secrets a delivery is signed with now: the current one, and a rotated one in its grace window. */
  secretsOf(webhook: Webhook, now = Date.now()): string[] {
    // Asked once per attempt, with the same record for a step's attempts: kept with the record.
    let kept = this.secretsOfRecord.get(webhook);
    if (kept === undefined) {
      kept = { current: this.unseal(webhook, webhook.secret_sealed, 'current') };
      this.secretsOfRecord.set(webhook, kept);
    }
    const previous =
      webhook.previous_secret_sealed !== null &&
      webhook.previous_secret_expires_at !== null &&
      Date.parse(webhook.previous_secret_expires_at) > now
        ? (kept.previous ??= this.unseal(webhook, webhook.previous_secret_sealed, 'previous'))
        : undefined;
    return previous === undefined ? [kept.current] : [kept.current, previous];
  }

  // -- subscriptions -----------------------------------------------------------------------------

  /**
   * Registers a webhook of the organization, or (organizationId null, the operator only) a platform
   * webhook, which receives the events of every organization (contract 13).
   */
  async createWebhook(actor: Actor, organizationId: string | null, input: CreateWebhookInput): Promise<WebhookWithSecret> {
    if (organizationId === null) {
      if (!isOperator(actor)) throw new AppError('forbidden', 'only the operator registers platform webhooks');
    } else await this.permissions.authorize(actor, 'webhook.create', organizationRef(organizationId));
    const url = this.checkUrl(input.url);
    if (input.secret !== undefined && !isWellFormedSecret(input.secret))
      throw validationFailed({ secret: 'bad format' }, `secret must be ${SECRET_FORMAT}`);
    this.checkState(input.state);
    const secret = input.secret ?? generateSecret();
    const id = newId();
    const now = nowIso();
    const webhook: Webhook = {
      id,
      organization_id: organizationId,
      url,
      event_filter: input.event_filter ?? [],
      resource_filter: input.resource_filter ?? {},
      state: input.state ?? null,
      max_retries: input.max_retries ?? DEFAULT_MAX_RETRIES,
      active: input.active ?? true,
      description: input.description ?? null,
      secret_sealed: this.sealer.seal(secret, `${id}:current`),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    // Counted under the owner's lock with the write, so concurrent creates cannot pass the cap together.
    // The platform webhooks have the server's cap of one organization: each costs every event a match
    // and a slot share.
    await this.storage.transaction({ locks: [`webhooks-of:${organizationId ?? PLATFORM_SLOTS}`] }, async (tx) => {
      const live = await this.store.countLive(organizationId, tx);
      const max =
        organizationId === null
          ? this.settings.maxPerOrganization
          : (await this.organizationSettings.resolveSettings(organizationId, tx)).max_webhooks;
      if (live >= max) {
        const [has, most] =
          organizationId === null
            ? [`there are ${live} platform webhooks`, 'the most there may be']
            : [`the organization has ${live} webhooks`, 'the most it may have'];
        throw limitReached('max_webhooks', max, 'webhooks', `${has}, ${most} (${max})`, `${has}, ${most} (max_webhooks)`);
      }
      this.audit.recordChange(tx, actor, 'webhook.create', 'webhook', undefined, webhook);
      await tx.put(this.store.webhooks, webhook);
    });
    this.log.info(
      { webhook_id: id, organization_id: organizationId, all_organizations: organizationId === null },
      'webhook created',
    );
    return { ...viewWebhook(webhook), secret, standard_secret: standardSecret(secret) };
  }

  async listWebhooks(actor: Actor, organizationId: string, page: PageOptions): Promise<Page<WebhookView>> {
    await this.permissions.authorize(actor, 'webhook.read', organizationRef(organizationId));
    const found = await this.store.webhooks.listBy('organization', organizationId, page);
    return { items: found.items.map(viewWebhook), nextCursor: found.nextCursor };
  }

  /** The platform webhooks (the operator's alone), oldest first. */
  async listPlatformWebhooks(actor: Actor, page: PageOptions): Promise<Page<WebhookView>> {
    if (!isOperator(actor)) throw new AppError('forbidden', 'only the operator sees platform webhooks');
    const found = await this.store.listPlatformWebhooks(page);
    return { items: found.items.map(viewWebhook), nextCursor: found.nextCursor };
  }

  async getWebhook(actor: Actor, id: string): Promise<WebhookView> {
    return viewWebhook(await this.authorized(actor, 'webhook.read', id));
  }

  /** PATCH: active (pause and resume), description, filters, state, max_retries. */
  async updateWebhook(actor: Actor, id: string, patch: UpdateWebhookInput): Promise<WebhookView> {
    await this.authorized(actor, 'webhook.update', id);
    if (patch.state !== undefined) this.checkState(patch.state);
    const updated = await writeWebhookChange(this.storage, this.store, this.audit, actor, id, patch);
    if (updated === undefined) throw new AppError('not_found', 'webhook not found');
    if (updated.active) await this.releaseHeld(id);
    return viewWebhook(updated);
  }

  /**
   * Soft delete (200 with `deleted_at`, then 404): nothing more is sent, and every delivery still
   * pending ends `failed` ("webhook deleted"). Every sender pass reads the webhooks of the deliveries
   * it claims, so no daemon claims one for an attempt after this commits.
   */
  async deleteWebhook(actor: Actor, id: string): Promise<WebhookView> {
    await this.authorized(actor, 'webhook.delete', id);
    const deleted = await this.storage.transaction({ locks: [webhookLock(id)] }, async (tx) => {
      const current = await this.live(id, tx);
      const now = nowIso();
      const next: Webhook = { ...current, active: false, deleted_at: now, updated_at: now };
      this.audit.recordChange(tx, actor, 'webhook.delete', 'webhook', current, next);
      await tx.put(this.store.webhooks, next);
      // Every daemon's sender meets the due and leased ones now and fails them.
      tx.wake(DELIVERIES_TOPIC);
      return next;
    });
    // Held deliveries (paused webhook) are failed here; due and leased ones as the sender meets them.
    for (let ids = await this.store.heldIds(id, BATCH); ids.length > 0; ids = await this.store.heldIds(id, BATCH)) {
      await this.storage.transaction({ locks: ids.map(deliveryLock) }, async (tx) => {
        for (const deliveryId of ids) {
          const d = await tx.get(this.store.deliveries, deliveryId);
          if (d?.status === 'pending') await tx.put(this.store.deliveries, failedByDeletion(d));
        }
      });
    }
    this.log.info({ webhook_id: id }, 'webhook deleted');
    return viewWebhook(deleted);
  }

  /** A new secret, shown once; the old one keeps signing (beside it) for `grace_seconds`. */
  async rotateSecret(actor: Actor, id: string, graceSeconds = DEFAULT_GRACE_SECONDS): Promise<WebhookWithSecret> {
    await this.authorized(actor, 'webhook.update', id);
    const secret = generateSecret();
    const rotated = await this.storage.transaction({ locks: [webhookLock(id)] }, async (tx) => {
      const current = await this.live(id, tx);
      const old = this.unseal(current, current.secret_sealed, 'current');
      const now = Date.now();
      const next: Webhook = {
        ...current,
        secret_sealed: this.sealer.seal(secret, `${id}:current`),
        previous_secret_sealed: graceSeconds > 0 ? this.sealer.seal(old, `${id}:previous`) : null,
        previous_secret_expires_at: graceSeconds > 0 ? new Date(now + graceSeconds * 1000).toISOString() : null,
        updated_at: new Date(now).toISOString(),
      };
      this.audit.recordChange(tx, actor, 'webhook.rotate_secret', 'webhook', current, next);
      await tx.put(this.store.webhooks, next);
      return next;
    });
    this.log.info({ webhook_id: id, grace_seconds: graceSeconds }, 'webhook secret rotated');
    return { ...viewWebhook(rotated), secret, standard_secret: standardSecret(secret) };
  }

  // -- deliveries --------------------------------------------------------------------------------

  async listDeliveries(actor: Actor, webhookId: string, page: PageOptions): Promise<Page<DeliveryView>> {
    await this.authorized(actor, 'webhook.read', webhookId);
    const found = await this.store.deliveriesOf(webhookId, page);
    return { items: found.items.map(viewDelivery), nextCursor: found.nextCursor };
  }

  /**
   * The deliveries of every webhook of the organization (not the platform's), newest first, filtered
   * by webhook, status and creation time ([since, until)): one range read per page. Seen by whoever
   * reads the organization's webhooks; a webhook of another organization is 404.
   */
  async listOrganizationDeliveries(
    actor: Actor,
    organizationId: string,
    filters: DeliveryFilters,
    page: PageOptions,
  ): Promise<Page<DeliveryView>> {
    await this.permissions.authorize(actor, 'webhook.read', organizationRef(organizationId));
    if (filters.webhookId !== undefined) {
      const webhook = await this.store.webhooks.get(filters.webhookId);
      if (webhook === undefined || webhook.organization_id !== organizationId)
        throw new AppError('not_found', 'webhook not found');
    }
    const found = await this.store.organizationDeliveries(organizationId, filters, page);
    return { items: found.items.map(viewDelivery), nextCursor: found.nextCursor };
  }

  async getDelivery(actor: Actor, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    await this.authorized(actor, 'webhook.read', webhookId);
    const d = await this.store.delivery(deliveryId);
    if (d?.webhook_id !== webhookId) throw new AppError('not_found', 'delivery not found');
    return viewDelivery(d);
  }

  /**
   * Manual redelivery of a delivered or failed delivery: due now, its history kept, with a fresh
   * retry budget (max_retries more retries after this attempt).
   */
  async retryDelivery(actor: Actor, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    await this.authorized(actor, 'webhook.update', webhookId);
    const requeued = await this.storage.transaction({ locks: [deliveryLock(deliveryId)] }, async (tx) => {
      // A handed-off delivery whose first attempt runs has no record yet: it is pending too.
      const d = await this.store.delivery(deliveryId, tx);
      if (d?.webhook_id !== webhookId) throw new AppError('not_found', 'delivery not found');
      if (d.status === 'pending')
        throw new AppError('invalid_state', 'this delivery is still pending: it will be attempted', {
          details: { status: d.status },
        });
      const webhook = await this.live(webhookId, tx);
      tx.wake(DELIVERIES_TOPIC);
      this.audit.record(tx, actor, {
        organization_id: webhook.organization_id,
        action: 'webhook.retry',
        target: { type: 'webhook_delivery', id: d.id },
        before: { webhook_id: webhookId, status: d.status },
        after: { webhook_id: webhookId, status: 'pending' },
      });
      return tx.put(this.store.deliveries, requeue(d, webhook));
    });
    return viewDelivery(requeued);
  }

  /**
   * Sends a test event to this webhook alone: a `webhook.test` event that the fan-out delivers only
   * to the webhook it names (fanout.ts, matches), so it is signed, attempted and retried as any
   * delivery. A paused webhook would hold it, so it is refused; a platform webhook (no organization
   * for the event) too.
   */
  async sendTestEvent(actor: Actor, webhookId: string): Promise<{ webhook_id: string; event_id: string }> {
    await this.authorized(actor, 'webhook.update', webhookId);
    const event = await this.storage.transaction({ locks: [webhookLock(webhookId)] }, async (tx) => {
      const webhook = await this.live(webhookId, tx);
      if (webhook.organization_id === null) throw new AppError('invalid_state', 'a platform webhook cannot be sent a test event');
      if (!webhook.active)
        throw new AppError('invalid_state', 'this webhook is paused: resume it to send a test event', {
          details: { active: false },
        });
      this.audit.record(tx, actor, {
        organization_id: webhook.organization_id,
        action: 'webhook.test',
        target: { type: 'webhook', id: webhook.id },
        before: undefined,
        after: undefined,
      });
      return this.eventLog.append(tx, {
        kind: 'webhook.test',
        organization_id: webhook.organization_id,
        payload: {
          webhook_id: webhook.id,
          message: 'This is a test event from Switchyard.',
        } satisfies EventPayload<'webhook.test'>,
      });
    });
    return { webhook_id: webhookId, event_id: event()!.id };
  }

  /** Re-queues every failed delivery of the webhook created in [since, until] (until: now). */
  async recoverDeliveries(actor: Actor, webhookId: string, from: string, until?: string): Promise<{ recovered: number }> {
    await this.authorized(actor, 'webhook.update', webhookId);
    // Compared with stored creation times as strings: both in their one form.
    const since = canonicalTime(from);
    const end = until === undefined ? nowIso() : canonicalTime(until);
    if (end < since) throw validationFailed({ until: 'before since' }, 'until must not be before since');
    let recovered = 0;
    for (;;) {
      const ids = await this.store.failedIn(webhookId, since, end, BATCH);
      if (ids.length === 0) break;
      recovered += await this.storage.transaction({ locks: ids.map(deliveryLock) }, async (tx) => {
        const webhook = await this.live(webhookId, tx);
        let n = 0;
        for (const id of ids) {
          const d = await tx.get(this.store.deliveries, id);
          if (d?.status !== 'failed') continue;
          await tx.put(this.store.deliveries, requeue(d, webhook));
          n++;
        }
        if (n > 0) {
          tx.wake(DELIVERIES_TOPIC);
          this.audit.record(tx, actor, {
            organization_id: webhook.organization_id,
            action: 'webhook.recover',
            target: { type: 'webhook', id: webhookId },
            after: { since, until: end, recovered: n },
          });
        }
        return n;
      });
    }
    return { recovered };
  }

  // -- internals ---------------------------------------------------------------------------------

  /** Resume: deliveries held while the webhook was paused go back to the queue, due now. */
  private async releaseHeld(webhookId: string): Promise<void> {
    for (let ids = await this.store.heldIds(webhookId, BATCH); ids.length > 0; ids = await this.store.heldIds(webhookId, BATCH)) {
      await this.storage.transaction({ locks: ids.map(deliveryLock) }, async (tx) => {
        const now = nowIso();
        for (const id of ids) {
          const d = await tx.get(this.store.deliveries, id);
          if (d?.status === 'pending' && d.held) {
            await tx.put(this.store.deliveries, { ...d, held: false, next_attempt_at: now, updated_at: now });
            tx.wake(DELIVERIES_TOPIC);
          }
        }
      });
    }
  }

  /**
   * The webhook when the actor may act on it; another organization's, a platform webhook (for any
   * caller but the operator) or a deleted one is 404.
   */
  private async authorized(
    actor: Actor,
    action: 'webhook.read' | 'webhook.update' | 'webhook.delete',
    id: string,
  ): Promise<Webhook> {
    if (!isOperator(actor)) await this.permissions.authorize(actor, action, { type: 'webhook', id });
    return this.live(id);
  }

  private async live(id: string, tx?: Tx): Promise<Webhook> {
    const webhook = await (tx === undefined ? this.store.webhooks.get(id) : tx.get(this.store.webhooks, id));
    if (webhook === undefined || webhook.deleted_at !== null) throw new AppError('not_found', 'webhook not found');
    return webhook;
  }

  private checkUrl(raw: string): string {
    const checked = validateWebhookUrl(raw, { production: this.settings.production, allowPrivate: this.settings.allowPrivate });
    if (!checked.ok) throw validationFailed({ url: checked.message }, checked.message);
    return checked.url.toString();
  }

  private checkState(state: unknown): void {
    if (stateBytes(state) > MAX_STATE_BYTES)
      throw validationFailed({ state: 'too large' }, `state must be at most ${MAX_STATE_BYTES} bytes of JSON`);
  }

  private unseal(webhook: Webhook, sealed: string, which: 'current' | 'previous'): string {
    const associated = `${webhook.id}:${which}`;
    const cacheKey = `${associated}:${sealed}`;
    const cached = this.unsealed.get(cacheKey);
    if (cached !== undefined) return cached;
    const secret = this.sealer.unseal(sealed, associated);
    if (secret === undefined) throw new AppError('internal', 'webhook secret cannot be unsealed (was the sealing key changed?)');
    return setBounded(this.unsealed, cacheKey, secret, UNSEALED_CACHE_ENTRIES);
  }
}

/** A delivery whose webhook is paused: pending, out of the queue until resumed, no lease. */
export function heldWhilePaused(d: Delivery): Delivery {
  return { ...d, held: true, lease_owner: null, lease_until: null, updated_at: nowIso() };
}

/** A delivery of a deleted webhook: failed, never sent again. */
export function failedByDeletion(d: Delivery): Delivery {
  const now = nowIso();
  return {
    ...d,
    status: 'failed',
    error_message: 'webhook deleted',
    held: false,
    next_attempt_at: null,
    lease_owner: null,
    lease_until: null,
    updated_at: now,
  };
}

/** Due now again, history kept; `budget_from` restarts the retry count at this attempt. */
function requeue(d: Delivery, webhook: Webhook): Delivery {
  const now = nowIso();
  return {
    ...d,
    status: 'pending',
    held: !webhook.active,
    next_attempt_at: now,
    lease_owner: null,
    lease_until: null,
    budget_from: d.attempt,
    updated_at: now,
  };
}
