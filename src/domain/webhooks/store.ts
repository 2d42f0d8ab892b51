import { Collection, type Page } from '../../storage/collection.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { Delivery, Webhook } from './types.js';

/** The storage wake-up topic of deliveries that became due: every daemon's sender. */
export const DELIVERIES_TOPIC = 'webhook-deliveries';

/** Where a delivery sits in the queue: waiting for its time, leased to a daemon, or out of it. */
function queueOf(d: Delivery): { value: string; sort: string } | undefined {
  if (d.status !== 'pending' || d.held) return undefined;
  if (d.lease_until !== null) return { value: 'leased', sort: d.lease_until };
  return { value: 'due', sort: d.next_attempt_at ?? d.created_at };
}

/** A delivery waiting for its time (not leased): its webhook and when it is due. */
function dueOf(d: Delivery): { webhook: string; at: string } | undefined {
  const queue = queueOf(d);
  return queue?.value === 'due' ? { webhook: d.webhook_id, at: queue.sort } : undefined;
}

/** Webhooks and their deliveries, with the named queries of the fan-out and the sender. */
export class WebhookStore {
  readonly webhooks: Collection<Webhook>;
  readonly deliveries: Collection<Delivery>;

  constructor(storage: Storage) {
    this.webhooks = new Collection<Webhook>(storage, 'webhooks', (w) => w.id, [
      { name: 'organization', value: (w) => (w.deleted_at === null ? w.organization_id : undefined), sort: (w) => w.created_at },
    ]);
    this.deliveries = new Collection<Delivery>(storage, 'webhook_deliveries', (d) => d.id, [
      // Delivery ids are time-sortable: index order is creation order.
      { name: 'webhook', value: (d) => d.webhook_id },
      { name: 'queue', value: (d) => queueOf(d)?.value, sort: (d) => queueOf(d)?.sort ?? '' },
      // The due queue once more, per webhook, and the webhooks that have one: the sender fills each
      // webhook's free slots from its own queue, so a webhook at its bound never blocks the others.
      { name: 'webhook_due', value: (d) => dueOf(d)?.webhook, sort: (d) => dueOf(d)?.at ?? '' },
      { name: 'due_webhooks', value: (d) => (dueOf(d) === undefined ? undefined : 'due'), sort: (d) => d.webhook_id },
      { name: 'held', value: (d) => (d.status === 'pending' && d.held ? d.webhook_id : undefined) },
      { name: 'webhook_failed', value: (d) => (d.status === 'failed' ? d.webhook_id : undefined), sort: (d) => d.created_at },
    ]);
  }

  /** The organization's live webhooks, all of them (fan-out matches each event against every one): one read. */
  async liveWebhooks(organizationId: string, tx?: Tx): Promise<Webhook[]> {
    return (await this.webhooks.in(tx).allBy('organization', organizationId)).filter((w) => w.deleted_at === null);
  }

  /** Webhooks with deliveries waiting for their time (due now or later), in id order, past `after` or a cursor. */
  async webhooksWithDue(after: string | undefined, cursor: string | undefined, limit: number): Promise<Page<string>> {
    return this.deliveries.listDistinct('due_webhooks', 'due', { after, cursor, limit });
  }

  /** One webhook's deliveries due at or before `nowIso`, soonest first. */
  async dueFor(webhookId: string, nowIso: string, limit: number): Promise<string[]> {
    return (await this.deliveries.range('webhook_due', webhookId, { upTo: nowIso, limit })).map((e) => e.id);
  }

  /** When the next delivery is due, if any (ISO). */
  async nextDueAt(): Promise<string | undefined> {
    const [first] = await this.deliveries.range('queue', 'due', { limit: 1 });
    return first?.sort;
  }

  /** Deliveries held while their webhook is paused, oldest first. */
  async heldIds(webhookId: string, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.deliveries.in(tx).range('held', webhookId, { limit })).map((e) => e.id);
  }

  /** A webhook's failed deliveries created in [since, until], oldest first. */
  async failedIn(webhookId: string, since: string, until: string, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.deliveries.in(tx).range('webhook_failed', webhookId, { from: since, upTo: until, limit })).map(
      (e) => e.id,
    );
  }

  /** How many deliveries are waiting (due or leased), counted up to `max`; and the oldest due time. */
  async backlog(max: number): Promise<{ pending: number; oldestDue: string | undefined }> {
    const due = await this.deliveries.countRange('queue', 'due', { limit: max });
    const leased = await this.deliveries.countRange('queue', 'leased', { limit: max });
    const [oldest] = await this.deliveries.range('queue', 'due', { limit: 1 });
    return { pending: due + leased, oldestDue: oldest?.sort };
  }
}
