import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import { newSortableId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { cursorKey, EVENTS_TOPIC, type EventLog } from '../events/service.js';
import type { DomainEvent } from '../events/types.js';
import { FanoutBacklog } from './backlog.js';
import { DELIVERIES_TOPIC, pendingDelivery, type WebhookStore } from './store.js';
import { resourceFilterFields, type Delivery, type ResourceFilterKey, type Webhook } from './types.js';

/** The fan-out's position in the event log (a durable consumer cursor). */
const CONSUMER = 'webhook-fanout';
/** One daemon fans out at a time; the others wait and find the work done. */
const FANOUT_LOCK = 'webhook-fanout';
/** Events read per transaction. */
const STEP = 200;
/**
 * Events read past the cursor and kept, at most: the fan-out's look-ahead while it waits for a slot
 * (a few MB). Past it, the fan-out does not know what follows and waits for no slot.
 */
const AHEAD_MAX = 4096;
/**
 * Events past what was counted read at most before a wait (each event is counted once, kept or not):
 * a longer backlog than this is not known to hold nothing owed elsewhere, and the fan-out waits for
 * no slot until the next step has counted further.
 */
const COUNT_MAX = 65_536;
/**
 * Deliveries created per transaction, about: a step ends after the event that reaches this many (an
 * event's deliveries are never split). 200 events to 10 webhooks in one transaction held 2,000
 * records and their batch at once, most of it promoted to the old generation while the batch was
 * written: the daemon's heap peaked at 175 MB in bench row (8)'s 10-webhook run.
 */
const DELIVERIES_PER_STEP = 256;

/** A delivery handed to a slot of this daemon, with what its attempt needs. */
export interface Handed {
  delivery: Delivery;
  webhook: Webhook;
  event: DomainEvent;
}

/**
 * The sender's side of the hand-off (sender.ts): the deliveries this daemon has free slots for are
 * written as one batch leased to it, in the transaction that fans them out, and their attempts start as
 * that commits, with no pass of the sender's and no claim in between. Each delivery's own record is
 * written once, with its first outcome. The rest are created due, for any daemon's sender.
 */
export interface HandOff {
  /** A step's hand-offs, from its transaction's start to its end (begun again if the transaction runs again). */
  begin(): HandOffStep;
  /** Until when (epoch ms) the fan-out should wait for a slot of the webhook, rather than create its delivery due. */
  paceUntil(webhookId: string): number | undefined;
}

/** One transaction's hand-offs: the slots it holds, its batch record, and what happens as it ends. */
export interface HandOffStep {
  /** Whether this daemon has a free slot for the delivery (it then holds it until the step ends). */
  take(handed: Handed): boolean;
  /** A taken delivery that is not made after all (its event waits): its slot is free again. */
  giveBack(delivery: Delivery): void;
  /** Writes the taken deliveries as one batch leased to this daemon, in `tx`; answers how many. */
  write(tx: Tx, now: string): number;
  /** The transaction committed (the attempts start now) or did not (the slots are free again). */
  end(committed: boolean): void;
}

/** One fan-out step's result: events fanned out; whether to step again; until when it waits for a slot. */
export interface StepResult {
  done: number;
  more: boolean;
  pacedUntil?: number;
}

/** Whether `event` is owed to `webhook` (spec 6.1, 6.4; contract 7). */
export function matches(webhook: Webhook, event: DomainEvent): boolean {
  // A test event is the named webhook's alone, whatever its filters (POST /v1/webhooks/{id}/test).
  if (event.kind === 'webhook.test') return event.payload.webhook_id === webhook.id;
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
  webhook: Pick<Webhook, 'id' | 'active' | 'organization_id'>,
  event: Pick<DomainEvent, 'id' | 'kind' | 'organization_id'>,
  now: string,
): Delivery {
  const fields = {
    id: newSortableId('dlv_'),
    webhook_id: webhook.id,
    organization_id: event.organization_id,
    webhook_organization_id: webhook.organization_id,
    event_id: event.id,
    event_kind: event.kind,
  };
  return pendingDelivery(fields, now, !webhook.active);
}

/**
 * Fan-out that cannot lose: a consumer of the event log, which is gap-free in commit order, so it
 * sees every committed event once. For each event it writes one delivery per matching webhook (live
 * or paused; the handed-off ones in their batch's record) in the same transaction that moves its
 * cursor past the event: a crash either did both or neither. A step reads its events before the
 * webhooks it matches them with, so a webhook created before an event committed always receives it,
 * whichever daemon wrote the event.
 */
export class WebhookFanout {
  constructor(
    private readonly storage: Storage,
    private readonly eventLog: EventLog,
    private readonly store: WebhookStore,
    private readonly log: Logger,
    private readonly handOff?: HandOff,
  ) {}

  /** The events past the cursor this daemon has read: kept for the next steps, counted for waits. */
  private readonly backlog = new FanoutBacklog(
    (after, limit, tx) => this.eventLog.read({ after: after === '' ? undefined : after, limit }, tx),
    AHEAD_MAX,
  );
  /** Set while the fan-out waits for a slot of this webhook (paceUntil), until that time at most. */
  private paced: { webhookId: string; until: number } | undefined;
  /** An event committed since the last step read the log: a wait must look at it before it goes on. */
  private committedSince = false;
  private resumeListener: () => void = () => {};

  /** An event was committed (any daemon): the next catch-up reads it, waiting or not. */
  noteCommit(): void {
    this.committedSince = true;
  }

  /** Slots came free (the hand-off's sender): a fan-out waiting for one goes on. */
  noteSlotsFree(): void {
    if (this.paced !== undefined) this.resumeListener();
  }

  /** Told when the fan-out should go on before the time it answered (slots came free). */
  onResume(listener: () => void): void {
    this.resumeListener = listener;
  }

  /** Events committed past the cursor, counted up to `max` (metrics). */
  async lag(max: number): Promise<number> {
    return this.eventLog.lagOf(CONSUMER, max);
  }

  /** First start: the cursor begins at the log's end (events from before webhooks existed are owed to none). */
  async init(): Promise<void> {
    await this.storage.transaction({ locks: [FANOUT_LOCK] }, async (tx) => {
      if ((await this.eventLog.readCursor(CONSUMER, tx)) !== undefined) return;
      this.eventLog.saveCursor(tx, CONSUMER, (await this.eventLog.lastEventId(tx)) ?? '');
    });
  }

  /**
   * Fans out every event past the cursor, or up to an event that waits for a slot (paceUntil); answers
   * how many events it fanned out, and until when it waits (epoch ms) if it does. A step that read the
   * log to its end needs no step after it: an event committed after that read wakes the loop again.
   */
  async catchUp(): Promise<{ done: number; pacedUntil?: number }> {
    // Still waiting, and nothing new to look at: no transaction until the webhook has a slot or stops answering.
    const paced = this.paced;
    if (
      paced !== undefined &&
      !this.committedSince &&
      this.handOff?.paceUntil(paced.webhookId) !== undefined &&
      Date.now() < paced.until
    )
      return { done: 0, pacedUntil: paced.until };
    this.paced = undefined;
    let total = 0;
    for (;;) {
      const { done, more, pacedUntil } = await this.step();
      total += done;
      if (pacedUntil !== undefined) return { done: total, pacedUntil };
      if (!more) return { done: total };
    }
  }

  /**
   * One transaction: up to STEP events past the cursor (fewer once DELIVERIES_PER_STEP deliveries
   * are made, or at an event that waits for a slot), their deliveries, the cursor after the last one
   * fanned out. Deliveries handed off to this daemon's sender start once it commits.
   */
  async step(): Promise<StepResult> {
    let handOff: HandOffStep | undefined;
    let result: StepResult;
    let fannedTo: string | undefined;
    try {
      // The cursor is read with the lock (one round trip on PostgreSQL).
      result = await this.storage.transaction({ locks: [FANOUT_LOCK], meta: [cursorKey(CONSUMER)] }, async (tx) => {
        handOff?.end(false); // a transaction run again (PostgreSQL, after a deadlock) starts over
        handOff = this.handOff?.begin();
        fannedTo = undefined;
        this.committedSince = false;
        this.backlog.align((await this.eventLog.readCursor(CONSUMER, tx)) ?? '');
        // An event is owed to its organization's webhooks and to the platform webhooks (contract 13).
        const hooksOf = new Map<string, Webhook[]>();
        let platform: Webhook[] | undefined;
        const hooksFor = async (org: string): Promise<Webhook[]> => {
          let hooks = hooksOf.get(org);
          if (hooks === undefined) {
            platform ??= await this.store.platformWebhooks(tx);
            const own = await this.store.liveWebhooks(org, tx);
            hooks = platform.length === 0 ? own : [...own, ...platform];
            hooksOf.set(org, hooks);
          }
          return hooks;
        };
        // Whether the fan-out may wait for a slot: every committed event is counted, and none that the
        // wait would hold back is owed to a webhook that could take it now. Asked at the first wait of a
        // step; a no holds for the rest of it, unless the webhook in the way was the waiting one (its
        // slot came free meanwhile: the next event takes it).
        let mayWait: boolean | undefined;
        const waitAllowed = async (from: number, waiting: string): Promise<boolean> => {
          if (!(await this.backlog.readToEnd(COUNT_MAX, tx))) return (mayWait = false);
          // Events just counted may have committed after a webhook read above: read them again.
          hooksOf.clear();
          platform = undefined;
          const owed = await this.backlog.owedElsewhere(from, hooksFor, (w) => this.handOff?.paceUntil(w.id) !== undefined);
          if (owed === undefined) return (mayWait = true);
          if (owed !== waiting) mayWait = false;
          return false;
        };
        const now = nowIso();
        let created = 0;
        let due = 0;
        let done = 0;
        let pacedUntil: number | undefined;
        let last: DomainEvent | undefined;
        // The step's events first, then the webhooks they are matched with (hooksFor): a webhook created
        // before an event committed is read after it. An event read later in the step (a page read after
        // a webhook read) could follow a webhook the step did not see.
        const ready = await this.backlog.fill(STEP, tx);
        for (; done < ready && created < DELIVERIES_PER_STEP; done++) {
          const event = this.backlog.peek(done)!;
          // An event's deliveries are made together, or the event waits (none of them is).
          const made: { delivery: Delivery; leased: boolean }[] = [];
          for (const webhook of await hooksFor(event.organization_id)) {
            if (!matches(webhook, event)) continue;
            const delivery = newDelivery(webhook, event, now);
            let leased = !delivery.held && handOff?.take({ delivery, webhook, event }) === true;
            if (!leased && !delivery.held && mayWait !== false) {
              const until = this.handOff?.paceUntil(webhook.id);
              if (until !== undefined && (mayWait ?? (await waitAllowed(done, webhook.id)))) {
                pacedUntil = until;
                this.paced = { webhookId: webhook.id, until };
                break;
              }
              // Not to wait: a slot may have come free while the wait was weighed (it read the log), and
              // a delivery queued due waits for a pass, behind the hand-offs that take every slot freed.
              if (until !== undefined) leased = handOff?.take({ delivery, webhook, event }) === true;
            }
            made.push({ delivery, leased });
          }
          if (pacedUntil !== undefined) {
            for (const m of made) if (m.leased) handOff?.giveBack(m.delivery);
            break;
          }
          for (const { delivery, leased } of made) {
            // A handed-off delivery is written with its batch below, its own record once it has an outcome.
            if (!leased) {
              if (!delivery.held) due++;
              tx.insert(this.store.deliveries, delivery);
            }
            created++;
          }
          last = event;
        }
        if (last === undefined) return { done: 0, more: false, pacedUntil };
        const handed = handOff?.write(tx, now) ?? 0;
        this.eventLog.saveCursor(tx, CONSUMER, last.id);
        fannedTo = last.id;
        // Senders (every daemon's) are woken for the deliveries nobody holds yet.
        if (due > 0) tx.wake(DELIVERIES_TOPIC);
        if (created > 0) this.log.debug({ events: done, deliveries: created, handed_off: handed }, 'webhook deliveries queued');
        // A step that ran out of events read the log to its end; one that stopped at a bound did not.
        return { done, more: pacedUntil === undefined && (done === STEP || created >= DELIVERIES_PER_STEP), pacedUntil };
      });
    } catch (err) {
      handOff?.end(false);
      throw err;
    }
    if (fannedTo !== undefined) this.backlog.align(fannedTo);
    handOff?.end(true);
    return result;
  }
}

/**
 * The fan-out loop: woken by every event commit (any daemon) and, while it waits for a slot, when slots
 * come free or its wait ends; else every `intervalMs`.
 */
export function createFanoutLoop(fanout: WebhookFanout, storage: Storage, intervalMs: number, log: Logger): Loop {
  const loop = new Loop({
    name: 'webhook-fanout',
    intervalMs,
    immediate: true,
    log,
    tick: async () => (await fanout.catchUp()).pacedUntil,
  });
  storage.onWake(EVENTS_TOPIC, () => {
    fanout.noteCommit();
    loop.wakeSoon();
  });
  fanout.onResume(() => loop.wakeSoon());
  return loop;
}
