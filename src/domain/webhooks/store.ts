import {
  clampLimit,
  Collection,
  type IndexValue,
  type Page,
  type PageOptions,
  type SortRange,
} from '../../storage/collection.js';
import { decodeCursor, encodeCursor, sortableIdAt } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { Delivery, DeliveryStatus, HandedDelivery, HandOffBatch, Webhook } from './types.js';

/** The filters of an organization's delivery list; `since` and `until` are ISO times ([since, until)). */
export interface DeliveryFilters {
  webhookId?: string;
  status?: DeliveryStatus;
  since?: string;
  until?: string;
}

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

/** Hand-off batches read at most per page (each holds up to a fan-out step's deliveries). */
const BATCH_PAGE = 100;

/**
 * A delivery as first made: pending, due at `at`, no attempt yet; held while its webhook is paused;
 * leased when it is attempted before any record of it is written (a handed-off one). Its fields are
 * named one by one: V8 (Node 20) defines keys added after a spread one at a time in its runtime, which
 * made this literal cost 8 us and 4 KB per delivery, against 0.03 us and 260 B written out.
 */
export function pendingDelivery(
  fields: HandedDelivery,
  at: string,
  held: boolean,
  lease?: Pick<HandOffBatch, 'lease_owner' | 'lease_until'>,
): Delivery {
  return {
    id: fields.id,
    webhook_id: fields.webhook_id,
    organization_id: fields.organization_id,
    webhook_organization_id: fields.webhook_organization_id,
    event_id: fields.event_id,
    event_kind: fields.event_kind,
    status: 'pending',
    attempt: 0,
    budget_from: 0,
    status_code: null,
    error_message: null,
    attempts: [],
    next_attempt_at: at,
    held,
    lease_owner: lease?.lease_owner ?? null,
    lease_until: lease?.lease_until ?? null,
    created_at: at,
    updated_at: at,
  };
}

/** A handed-off delivery as it reads before its first outcome is written: being attempted under its batch's lease. */
export function handedDelivery(
  batch: Pick<HandOffBatch, 'lease_owner' | 'lease_until' | 'created_at'>,
  h: HandedDelivery,
): Delivery {
  return pendingDelivery(h, batch.created_at, false, batch);
}

/** Webhooks and their deliveries, with the named queries of the fan-out and the sender. */
export class WebhookStore {
  readonly webhooks: Collection<Webhook>;
  readonly deliveries: Collection<Delivery>;
  readonly handoffs: Collection<HandOffBatch>;

  constructor(storage: Storage) {
    this.webhooks = new Collection<Webhook>(storage, 'webhooks', (w) => w.id, [
      {
        name: 'organization',
        value: (w) => (w.deleted_at === null ? (w.organization_id ?? undefined) : undefined),
        sort: (w) => w.created_at,
      },
      // The live platform webhooks (organization_id null): the fan-out matches every event against them too.
      {
        name: 'platform',
        value: (w) => (w.deleted_at === null && w.organization_id === null ? 'all' : undefined),
        sort: (w) => w.created_at,
      },
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
      // The organization's delivery list (id order is time order), whole or by status, and one webhook's
      // by status: keyed by the webhook's owner, so the platform's deliveries are in no organization's.
      { name: 'organization', value: (d) => d.webhook_organization_id ?? undefined },
      {
        name: 'organization_status',
        value: (d) => (d.webhook_organization_id === null ? undefined : [d.webhook_organization_id, d.status]),
      },
      { name: 'webhook_status', value: (d) => [d.webhook_id, d.status] },
    ]);
    this.handoffs = new Collection<HandOffBatch>(storage, 'webhook_handoffs', (b) => b.id, [
      { name: 'leases', value: () => 'leased', sort: (b) => b.lease_until },
    ]);
  }

  /** Every hand-off batch (there are about as many as fan-out steps with attempts in flight). */
  async handOffBatches(tx?: Tx): Promise<HandOffBatch[]> {
    const all: HandOffBatch[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<HandOffBatch> = await this.handoffs.in(tx).list({ cursor, limit: BATCH_PAGE });
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return all;
  }

  /** Hand-off batches whose lease ended by `upTo` (ISO; undefined: all), oldest lease first. */
  async endedHandOffs(upTo: string | undefined, limit: number): Promise<string[]> {
    return (await this.handoffs.range('leases', 'leased', { upTo, limit })).map((e) => e.id);
  }

  /** A delivery by id: its record, or as it reads while its first attempt runs (handed off, no record yet). */
  async delivery(id: string, tx?: Tx): Promise<Delivery | undefined> {
    // Through tx.get in a transaction: it keeps what it read, so a put of the same record reads it no more.
    const stored = await (tx === undefined ? this.deliveries.get(id) : tx.get(this.deliveries, id));
    if (stored !== undefined) return stored;
    for (const batch of await this.handOffBatches(tx)) {
      const h = batch.deliveries.find((d) => d.id === id);
      if (h !== undefined) return handedDelivery(batch, h);
    }
    return undefined;
  }

  /** A webhook's deliveries in creation order, one page at a time, handed-off ones included (withHanded). */
  async deliveriesOf(webhookId: string, page: PageOptions): Promise<Page<Delivery>> {
    return this.withHanded('webhook', webhookId, page, (h) => h.webhook_id === webhookId);
  }

  /**
   * An organization's deliveries (of its own webhooks), newest first, one page at a time: a range read
   * of one index whatever the filters (`webhook_status` when both a webhook and a status are given),
   * created in [since, until) by their time-sortable ids. The webhook, when given, is the caller's to
   * check as the organization's.
   */
  async organizationDeliveries(organizationId: string, filters: DeliveryFilters, page: PageOptions): Promise<Page<Delivery>> {
    const { webhookId, status } = filters;
    const from = filters.since === undefined ? undefined : sortableIdAt('dlv_', Date.parse(filters.since));
    const before = filters.until === undefined ? undefined : sortableIdAt('dlv_', Date.parse(filters.until));
    const [index, value]: [string, IndexValue] =
      webhookId !== undefined && status !== undefined
        ? ['webhook_status', [webhookId, status]]
        : webhookId !== undefined
          ? ['webhook', webhookId]
          : status !== undefined
            ? ['organization_status', [organizationId, status]]
            : ['organization', organizationId];
    // A handed-off delivery reads as pending, its first attempt under way.
    const accept = (h: HandedDelivery): boolean =>
      h.webhook_organization_id === organizationId &&
      (webhookId === undefined || h.webhook_id === webhookId) &&
      (status === undefined || status === 'pending') &&
      (from === undefined || h.id >= from) &&
      (before === undefined || h.id < before);
    const within = from === undefined && before === undefined ? undefined : { from, before };
    return this.withHanded(index, value, { ...page, reverse: true, within }, accept);
  }

  /**
   * One page of an index over deliveries: the records, and the handed-off deliveries whose first
   * attempt runs (no record yet; `accept` picks those the list holds) merged in by the same index key,
   * so a cursor resumes past both.
   */
  private async withHanded(
    index: string,
    value: IndexValue,
    page: PageOptions & { within?: Pick<SortRange, 'from' | 'before'> },
    accept: (h: HandedDelivery) => boolean,
  ): Promise<Page<Delivery>> {
    const limit = clampLimit(page.limit);
    const [stored, batches] = await Promise.all([this.deliveries.listBy(index, value, page), this.handOffBatches()]);
    const seen = new Set(stored.items.map((d) => d.id));
    const handed = batches.flatMap((b) =>
      b.deliveries.filter((h) => accept(h) && !seen.has(h.id)).map((h) => handedDelivery(b, h)),
    );
    if (handed.length === 0) return stored;
    const keyOf = (d: Delivery): string => this.deliveries.indexKeyOf(index, d)!;
    const reverse = page.reverse === true;
    const before = (a: string, b: string): boolean => (reverse ? a > b : a < b);
    // Within the page listBy read: past the cursor, and up to its last record when more follow.
    const after = page.cursor ? decodeCursor(page.cursor) : undefined;
    const last = stored.nextCursor === null ? undefined : keyOf(stored.items[stored.items.length - 1]);
    const within = handed.filter((d) => {
      const key = keyOf(d);
      return (after === undefined || before(after, key)) && (last === undefined || !before(last, key));
    });
    const merged = [...stored.items, ...within].sort((a, b) => (before(keyOf(a), keyOf(b)) ? -1 : 1));
    const items = merged.slice(0, limit);
    const more = merged.length > limit || stored.nextCursor !== null;
    return { items, nextCursor: more && items.length > 0 ? encodeCursor(keyOf(items[items.length - 1])) : null };
  }

  /** The organization's live webhooks, all of them (fan-out matches each event against every one): one read. */
  async liveWebhooks(organizationId: string, tx?: Tx): Promise<Webhook[]> {
    return (await this.webhooks.in(tx).allBy('organization', organizationId)).filter((w) => w.deleted_at === null);
  }

  /** The live platform webhooks (every organization's events), oldest first: one read. */
  async platformWebhooks(tx?: Tx): Promise<Webhook[]> {
    return (await this.webhooks.in(tx).allBy('platform', 'all')).filter((w) => w.deleted_at === null);
  }

  /** How many live webhooks the organization (null: the platform) has: index keys counted, no record read. */
  async countLive(organizationId: string | null, tx: Tx): Promise<number> {
    const webhooks = tx.read(this.webhooks);
    return organizationId === null ? webhooks.countBy('platform', 'all') : webhooks.countBy('organization', organizationId);
  }

  /** The platform webhooks one page at a time, oldest first. */
  async listPlatformWebhooks(page: PageOptions): Promise<Page<Webhook>> {
    return this.webhooks.listBy('platform', 'all', page);
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

  /**
   * How many deliveries are waiting (due, leased, or handed off with no outcome yet), counted up to
   * about `max`; and the oldest due time.
   */
  async backlog(max: number): Promise<{ pending: number; oldestDue: string | undefined }> {
    const due = await this.deliveries.countRange('queue', 'due', { limit: max });
    const leased = await this.deliveries.countRange('queue', 'leased', { limit: max });
    const [oldest] = await this.deliveries.range('queue', 'due', { limit: 1 });
    const handed = (await this.handOffBatches()).reduce((n, b) => n + b.deliveries.length, 0);
    return { pending: due + leased + handed, oldestDue: oldest?.sort };
  }
}
