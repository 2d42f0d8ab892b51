import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import { newSortableId, nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import { EVENTS_TOPIC, type EventLog } from '../events/service.js';
import type { DomainEvent } from '../events/types.js';
import { DELIVERIES_TOPIC, type WebhookStore } from './store.js';
import { resourceFilterFields, type Delivery, type ResourceFilterKey, type Webhook } from './types.js';

/** The fan-out's position in the event log (a durable consumer cursor). */
const CONSUMER = 'webhook-fanout';
/** One daemon fans out at a time; the others wait and find the work done. */
const FANOUT_LOCK = 'webhook-fanout';
/** Events read per transaction. */
const STEP = 200;
/**
 * Deliveries created per transaction, about: a step ends after the event that reaches this many (an
 * event's deliveries are never split). 200 events to 10 webhooks in one transaction held 2,000
 * records and their batch at once, most of it promoted to the old generation while the batch was
 * written: the daemon's heap peaked at 175 MB in bench row (8)'s 10-webhook run.
 */
const DELIVERIES_PER_STEP = 256;

/**
 * The sender's side of the hand-off (sender.ts): a delivery this daemon has a free slot for is leased
 * to it in the transaction that creates it, and its attempt starts as that commits, with no pass of
 * the sender's and no claim in between. The rest are created due, for any daemon's sender.
 */
export interface HandOff {
  reserveHandOff(delivery: Delivery): Pick<Delivery, 'lease_owner' | 'lease_until'> | undefined;
  cancelHandOff(delivery: Delivery): void;
  handOff(delivery: Delivery, webhook: Webhook, event: DomainEvent): void;
}

/** Whether `event` is owed to `webhook` (spec 6.1, 6.4; contract 7). */
export function matches(webhook: Webhook, event: DomainEvent): boolean {
  // An exhaustion is never delivered to the webhook it is about.
  if (event.kind === 'webhook.delivery.exhausted' && event.payload.webhook_id === webhook.id) return false;
  if (webhook.event_filter.length > 0 && !webhook.event_filter.includes(event.kind)) return false;
  for (const [key, value] of Object.entries(webhook.resource_filter)) {
    if (value === undefined) continue;
    if (event[resourceFilterFields[key as ResourceFilterKey]] !== value) return false;
  }
  return true;
}

/** A new delivery of `event` to `webhook`: pending, due `now`, held while the webhook is paused. */
export function newDelivery(
  webhook: Pick<Webhook, 'id' | 'active'>,
  event: Pick<DomainEvent, 'id' | 'kind' | 'organization_id'>,
  now: string,
): Delivery {
  return {
    id: newSortableId('dlv_'),
    webhook_id: webhook.id,
    organization_id: event.organization_id,
    event_id: event.id,
    event_kind: event.kind,
    status: 'pending',
    attempt: 0,
    budget_from: 0,
    status_code: null,
    error_message: null,
    attempts: [],
    next_attempt_at: now,
    held: !webhook.active,
    lease_owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Fan-out that cannot lose: a consumer of the event log, which is gap-free in commit order, so it
 * sees every committed event once. For each event it writes one delivery per matching webhook (live
 * or paused) in the same transaction that moves its cursor past the event: a crash either did both or
 * neither. The webhooks are read as the event is fanned out, which is after it committed, so a
 * webhook created before an event committed always receives it, whichever daemon wrote the event.
 */
export class WebhookFanout {
  constructor(
    private readonly storage: Storage,
    private readonly eventLog: EventLog,
    private readonly store: WebhookStore,
    private readonly log: Logger,
    private readonly handOff?: HandOff,
  ) {}

  /** First start: the cursor begins at the log's end (events from before webhooks existed are owed to none). */
  async init(): Promise<void> {
    await this.storage.transaction({ locks: [FANOUT_LOCK] }, async (tx) => {
      if ((await this.eventLog.readCursor(CONSUMER)) !== undefined) return;
      this.eventLog.saveCursor(tx, CONSUMER, (await this.eventLog.lastEventId()) ?? '');
    });
  }

  /**
   * Fans out every event past the cursor; returns how many events it fanned out. A step that read
   * fewer than STEP events read the log to its end: an event committed after that read wakes the loop
   * again, so no empty step follows.
   */
  async catchUp(): Promise<number> {
    let total = 0;
    for (let more = true; more;) {
      const { done, read } = await this.step();
      total += done;
      more = done < read || read === STEP;
    }
    return total;
  }

  /**
   * One transaction: up to STEP events past the cursor (fewer once DELIVERIES_PER_STEP deliveries
   * are made), their deliveries, the cursor after the last one fanned out. Deliveries handed off to
   * this daemon's sender start once it commits. Answers how many events it read and fanned out.
   */
  async step(): Promise<{ read: number; done: number }> {
    let handed: { delivery: Delivery; webhook: Webhook; event: DomainEvent }[] = [];
    const giveBack = (): void => {
      for (const { delivery } of handed) this.handOff?.cancelHandOff(delivery);
      handed = [];
    };
    let result: { read: number; done: number };
    try {
      result = await this.storage.transaction({ locks: [FANOUT_LOCK] }, async (tx) => {
        giveBack(); // a transaction run again (PostgreSQL, after a deadlock) starts over
        const after = await this.eventLog.readCursor(CONSUMER);
        const page = await this.eventLog.read({ after: after === '' ? undefined : after, limit: STEP });
        if (page.items.length === 0) return { read: 0, done: 0 };
        const hooksOf = new Map<string, Webhook[]>();
        const now = nowIso();
        let created = 0;
        let due = 0;
        let done = 0;
        for (const event of page.items) {
          if (created >= DELIVERIES_PER_STEP) break;
          done++;
          let hooks = hooksOf.get(event.organization_id);
          if (hooks === undefined) {
            const ids = await this.store.liveWebhookIds(event.organization_id);
            hooks = (await this.store.webhooks.getMany(ids)).filter(
              (w): w is Webhook => w !== undefined && w.deleted_at === null,
            );
            hooksOf.set(event.organization_id, hooks);
          }
          for (const webhook of hooks) {
            if (!matches(webhook, event)) continue;
            const delivery = newDelivery(webhook, event, now);
            const lease = delivery.held ? undefined : this.handOff?.reserveHandOff(delivery);
            if (lease !== undefined) {
              Object.assign(delivery, lease);
              handed.push({ delivery, webhook, event });
            } else if (!delivery.held) due++;
            tx.insert(this.store.deliveries, delivery);
            created++;
          }
        }
        this.eventLog.saveCursor(tx, CONSUMER, page.items[done - 1].id);
        // Senders (every daemon's) are woken for the deliveries nobody holds yet.
        if (due > 0) tx.wake(DELIVERIES_TOPIC);
        if (created > 0)
          this.log.debug({ events: done, deliveries: created, handed_off: handed.length }, 'webhook deliveries queued');
        return { read: page.items.length, done };
      });
    } catch (err) {
      giveBack();
      throw err;
    }
    for (const { delivery, webhook, event } of handed) this.handOff?.handOff(delivery, webhook, event);
    return result;
  }
}

/** The fan-out loop: woken by every event commit (any daemon), else every `intervalMs`. */
export function createFanoutLoop(fanout: WebhookFanout, storage: Storage, intervalMs: number, log: Logger): Loop {
  const loop = new Loop({
    name: 'webhook-fanout',
    intervalMs,
    immediate: true,
    log,
    tick: async () => void (await fanout.catchUp()),
  });
  storage.onWake(EVENTS_TOPIC, () => loop.wakeSoon());
  return loop;
}
