import { randomUUID } from 'node:crypto';
import { setBounded } from '../../bounded-map.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics.js';
import { Loop } from '../../loops/loop.js';
import type { Page } from '../../storage/collection.js';
import { isoAt, nowIso } from '../../storage/keys.js';
import { leasesTakenOver, type Storage, type Tx } from '../../storage/port.js';
import type { EventLog } from '../events/service.js';
import type { DomainEvent } from '../events/types.js';
import { AttentionClock } from './attention.js';
import { AttemptPoster, sendAttempt, settleDelivery, type SentEvent, type Transport } from './attempt.js';
import type { Handed, HandOff, HandOffStep } from './fanout.js';
import { OutcomeWriter } from './outcome-writer.js';
import { deliveryLock, failedByDeletion, handOffLock, heldWhilePaused, type WebhookService } from './service.js';
import { SlotPool, type SlotBounds } from './slot-pool.js';
import { DELIVERIES_TOPIC, pendingDelivery } from './store.js';
import { slotTenantOf, type Delivery, type HandOffBatch, type Webhook } from './types.js';

export type { Transport } from './attempt.js';
export { PACE_MS, QUICK_MS } from './slot-pool.js';

export interface SenderSettings extends SlotBounds {
  /** SERVICE_WEBHOOK_TIMEOUT_MS: one attempt, connect to answer. */
  timeoutMs: number;
  /** SERVICE_WEBHOOK_RETRY_BASE_MS: the first retry's delay; each next one doubles, up to 2^10 x. */
  retryBaseMs: number;
}

/** Webhooks with due deliveries read per page while a pass fills its free slots. */
const WEBHOOKS_PER_PAGE = 100;
/** How often a pass looks for ended leases to take over, at most. */
export const TAKEOVER_EVERY_MS = 1000;
/** Hand-off batches taken over per pass at most (each in its own transaction). */
const TAKEOVER_BATCHES = 16;
/** Events kept as sent (their JSON), so a fan-out to several webhooks reads and serialises each once. */
const EVENT_CACHE_ENTRIES = 2048;

/**
 * The delivery loop's pass: claims due deliveries with a lease (several daemons share the work; a dead
 * daemon's claims are taken over once their lease expires), runs each attempt (attempt.ts) in a slot
 * (slot-pool.ts), has its outcome written (outcome-writer.ts), and retries on the contract's schedule
 * until `max_retries` is spent, then emits `webhook.delivery.exhausted` in the same transaction that
 * fails the delivery. It is also the fan-out's hand-off (HandOff): deliveries it has slots for start
 * as the fan-out's transaction commits, with no pass and no claim.
 */
export class WebhookSender implements HandOff {
  readonly instanceId = randomUUID();
  /** Time with this process's stalls taken out: the slots judge receivers' silence by it, attempts their timeouts. */
  private readonly clock = new AttentionClock();
  private readonly slots: SlotPool;
  private readonly writer: OutcomeWriter;
  private readonly poster: AttemptPoster;
  private readonly attempts = new Set<Promise<void>>();
  /** The webhook the last pass ended at: the next starts past it (every webhook gets its turn at free slots). */
  private rotation: string | undefined;
  private wakeListener: () => void = () => {};
  private slotListener: () => void = () => {};
  /** When the last pass looked for ended leases (epoch ms). */
  private lastTakeOver = -Infinity;
  /** Events are never changed once appended, so their JSON is kept (oldest out first). */
  private readonly events = new Map<string, SentEvent>();
  /**
   * Whether the last pass saw due deliveries (it may have left some for want of a slot): slots coming
   * free then wake a pass. While none are due, slots coming free are the fan-out's to fill (paceUntil),
   * and a pass would read empty queues; a delivery that falls due later wakes the loop by itself.
   */
  private dueWaiting = true;

  constructor(
    private readonly storage: Storage,
    private readonly webhooks: WebhookService,
    private readonly eventLog: EventLog,
    transport: () => Promise<Transport>,
    private readonly settings: SenderSettings,
    private readonly log: Logger,
    private readonly metrics: Pick<Metrics, 'webhookAttempt'>,
  ) {
    this.slots = new SlotPool(settings, () => this.clock.now());
    this.writer = new OutcomeWriter(storage, webhooks.store, this.instanceId, this.leaseMs, log);
    this.poster = new AttemptPoster(transport, settings.timeoutMs, this.clock);
  }

  /** A lease outlives the longest attempt, with room for its record. */
  private get leaseMs(): number {
    return this.settings.timeoutMs * 3;
  }

  onWake(listener: () => void): void {
    this.wakeListener = listener;
  }

  /** Told when slots come free at a refill mark (the fan-out, when it waits for one: paceUntil). */
  onSlotsFree(listener: () => void): void {
    this.slotListener = listener;
  }

  /** Shutdown: stops attempts in flight (their leases are taken over, as after a crash) and waits for them. */
  async drain(): Promise<void> {
    this.poster.stop();
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
  }

  get busy(): number {
    return this.slots.busy;
  }

  /**
   * One pass: claims as many due deliveries as there are free slots, in one transaction, and starts
   * their attempts (not awaited). Each webhook's slots are filled from its own queue, so a webhook at
   * its bound (a slow receiver with a deep backlog) never keeps another's deliveries waiting. Returns
   * when the next delivery falls due (ISO), so the loop can wake then.
   */
  async sendDue(): Promise<string | undefined> {
    const now = Date.now();
    this.slots.forgetStaleAnswers();
    // When the next delivery falls due is read beside the pass, not after it: each read waits for
    // a turn of a busy event loop, and slots wait for the pass. A delivery this pass claims was due
    // already, so it can only answer a past time, which needs no timer either way.
    // The pass itself is always waited for, even when that read fails: a tick must not end while its
    // claims still run, or the next one would overlap it.
    const nextDue = this.webhooks.store.nextDueAt();
    nextDue.catch(() => {}); // its failure is thrown below, once the pass is done
    await this.fill(now);
    const next = await nextDue;
    // Due work this pass may have left for want of a slot (a pass after it finds out for sure).
    this.dueWaiting = next !== undefined && Date.parse(next) <= now;
    // Still due from before this pass: waiting for a slot here (a finished attempt wakes the loop) or
    // held by another daemon. Only a time after it needs a timer; a past one would spin the loop.
    return next !== undefined && Date.parse(next) > now ? next : undefined;
  }

  /** The pass's claims: ended leases (at most once a TAKEOVER_EVERY_MS), then due deliveries. */
  private async fill(now: number): Promise<void> {
    // Leases end on the scale of seconds (3 x the attempt timeout): looking for ended ones on every
    // pass would cost a read per pass for nothing. The first pass (a restart) always looks.
    if (now - this.lastTakeOver >= TAKEOVER_EVERY_MS) {
      this.lastTakeOver = now;
      await this.takeOverHandOffs(now);
      if (this.slots.free > 0) await this.takeOver(now);
    }
    if (this.slots.free > 0) await this.claimDue(now);
  }

  /**
   * Hand-off batches left by a daemon that died (their lease ended), by an earlier run (exclusive
   * storage), or by this daemon when an outcome's write failed: each delivery still without a record
   * is written pending, due now, with its id, for any daemon's pass to claim; the batch goes.
   */
  private async takeOverHandOffs(now: number): Promise<void> {
    const store = this.webhooks.store;
    const ended = await store.endedHandOffs(leasesTakenOver(this.storage, now), TAKEOVER_BATCHES);
    for (const id of ended.filter((id) => !this.writer.knows(id)))
      await this.storage.transaction({ locks: [handOffLock(id)] }, async (tx) => {
        const batch = await tx.get(store.handoffs, id);
        // One of this daemon's own is known here until every attempt of it is settled.
        if (batch === undefined || this.writer.knows(id)) return;
        const running = Date.parse(batch.lease_until) > now;
        if (running && batch.lease_owner !== this.instanceId && !this.storage.exclusive) return;
        const records = await tx.getMany(
          store.deliveries,
          batch.deliveries.map((d) => d.id),
        );
        const at = isoAt(now);
        batch.deliveries.forEach((h, n) => {
          if (records[n] !== undefined) return;
          // Created when its batch was; due now, for whichever pass claims it first.
          tx.insert(store.deliveries, { ...pendingDelivery(h, batch.created_at, false), next_attempt_at: at, updated_at: at });
        });
        await tx.delete(store.handoffs, id);
        tx.wake(DELIVERIES_TOPIC);
        this.log.info({ batch_id: id, deliveries: batch.deliveries.length }, 'webhook hand-off taken over');
      });
  }

  /** Deliveries whose lease ended (a daemon died mid-attempt) or, on exclusive storage, every lease not running here. */
  private async takeOver(now: number): Promise<void> {
    const store = this.webhooks.store;
    const room = this.slots.free;
    const entries = await store.deliveries.range('queue', 'leased', {
      upTo: leasesTakenOver(this.storage, now),
      limit: room * 2,
    });
    const ids = entries.map((e) => e.id).filter((id) => !this.slots.has(id));
    if (ids.length === 0) return;
    const records = await store.deliveries.getMany(ids);
    await this.claim(ids, await this.webhooksOf(records.flatMap((d) => (d === undefined ? [] : [d.webhook_id]))), now);
  }

  /**
   * Fills free slots from each webhook's due queue, in turns: starting past the webhook the last pass
   * ended at. The queues of the webhooks in a round are read together (each read waits for a turn of
   * the event loop); a round gives each webhook the room it may fill, and a webhook with fewer due
   * than that leaves its rest to the next round's webhooks.
   */
  private async claimDue(now: number): Promise<void> {
    const nowIso = isoAt(now);
    const free = this.slots.free;
    const picked: string[] = [];
    const hooks = new Map<string, Webhook | null>();
    const turns = this.webhooksInTurn(this.rotation);
    // Per organization, the room this pass has given its webhooks so far: an organization's bound is
    // shared by all its webhooks (issue 33: one tenant's thousand webhooks must not take every slot).
    const given = new Map<string, number>();
    try {
      let done = false;
      while (!done && picked.length < free) {
        const round: { webhookId: string; room: number; held: number }[] = [];
        for (let budget = free - picked.length; budget > 0;) {
          const next = await turns.next();
          if (next.done === true) {
            done = true;
            break;
          }
          const webhookId = next.value;
          this.rotation = webhookId;
          // A webhook not seen here yet (a restart, another daemon's fan-out) is read for its organization.
          let org = this.slots.organizationOf(webhookId);
          if (org === undefined) {
            const webhook = (await this.webhooksOf([webhookId])).get(webhookId);
            if (webhook !== undefined && webhook !== null) this.slots.learn(webhookId, (org = slotTenantOf(webhook)));
          }
          const room = Math.min(this.slots.roomFor(webhookId, org, org === undefined ? 0 : (given.get(org) ?? 0)), budget);
          if (room <= 0) continue;
          if (org !== undefined) given.set(org, (given.get(org) ?? 0) + room);
          // On exclusive storage what this daemon claimed (in memory) stays in the due queue until its
          // outcome is written, answered or not: read past it.
          const held = this.storage.exclusive ? this.slots.claimedBy(webhookId) : 0;
          round.push({ webhookId, room, held });
          budget -= room;
        }
        // The round's webhooks are read with their queues (before the claim, as it needs them), not
        // after: one wait fewer in every pass.
        const [due, read] = await Promise.all([
          Promise.all(round.map((t) => this.webhooks.store.dueFor(t.webhookId, nowIso, t.room + t.held))),
          this.webhooksOf(round.map((t) => t.webhookId)),
        ]);
        round.forEach((t, n) => {
          const ids = due[n].filter((id) => !this.slots.has(id)).slice(0, t.room);
          if (ids.length > 0) hooks.set(t.webhookId, read.get(t.webhookId)!);
          picked.push(...ids);
        });
      }
    } finally {
      await turns.return(undefined);
    }
    if (picked.length > 0) await this.claim(picked, hooks, now);
  }

  /**
   * The webhooks with due deliveries, each once: those after `from` in id order, then from the first
   * up to `from`. The first page is read once: when it holds them all (the usual case) it is rotated
   * in memory, and otherwise it begins the second lap.
   */
  private async *webhooksInTurn(from: string | undefined): AsyncGenerator<string> {
    const store = this.webhooks.store;
    const first = await store.webhooksWithDue(undefined, undefined, WEBHOOKS_PER_PAGE);
    if (first.nextCursor === null) {
      const past = from === undefined ? 0 : first.items.findIndex((id) => id > from);
      const start = past < 0 ? 0 : past;
      yield* first.items.slice(start);
      yield* first.items.slice(0, start);
      return;
    }
    if (from !== undefined) yield* this.pagesFrom(await store.webhooksWithDue(from, undefined, WEBHOOKS_PER_PAGE), undefined);
    yield* this.pagesFrom(first, from);
  }

  /** The ids of `page` and of the pages after it, up to and including `upTo` (undefined: to the end). */
  private async *pagesFrom(page: Page<string>, upTo: string | undefined): AsyncGenerator<string> {
    for (;;) {
      for (const id of page.items) {
        if (upTo !== undefined && id > upTo) return;
        yield id;
      }
      if (page.nextCursor === null) return;
      page = await this.webhooks.store.webhooksWithDue(undefined, page.nextCursor, WEBHOOKS_PER_PAGE);
    }
  }

  /** The webhooks by id (null: deleted or gone), read before a claim so that it decides synchronously. */
  private async webhooksOf(ids: string[]): Promise<Map<string, Webhook | null>> {
    const unique = [...new Set(ids)];
    const records = await this.webhooks.store.webhooks.getMany(unique);
    return new Map(unique.map((id, n) => [id, records[n] === undefined || records[n].deleted_at !== null ? null : records[n]]));
  }

  /**
   * Claims the given deliveries in one transaction (skipping any another daemon holds) and starts their
   * attempts. A claim is a lease written on the delivery, except on exclusive storage: there no other
   * process can take it and a restart takes every unfinished delivery again, so the claim is held in
   * memory only (`sending`) and the delivery's one write is its outcome.
   */
  private async claim(ids: string[], hooks: Map<string, Webhook | null>, now: number): Promise<void> {
    // A slot is held as the claim decides to take a delivery, not once it has committed: the fan-out's
    // hand-offs take slots meanwhile, and counting them only after the claim let both bounds be passed.
    // A transaction run again (PostgreSQL, after a deadlock) decides again: a delivery's earlier
    // decision is undone first. Whatever is not taken in the end gives its slot back.
    const holding = new Map<string, string>();
    const letGo = (id: string): void => {
      if (!holding.delete(id)) return;
      this.slots.forget(id);
    };
    let taken: Delivery[];
    let events: Map<string, SentEvent>;
    try {
      const claimed = await this.storage.claim(this.webhooks.store.deliveries, {
        candidates: { ids },
        limit: ids.length,
        lockOf: deliveryLock,
        take: (d) => {
          letGo(d.id);
          if (d.status !== 'pending' || d.held || this.slots.has(d.id)) return undefined; // ours: in flight
          if (d.lease_until !== null) {
            // Any other lease once it has ended (also one of ours whose attempt was lost: no attempt runs
            // here for it), or at once where this daemon owns the data.
            if (!this.storage.exclusive && Date.parse(d.lease_until) > now) return undefined;
          } else if (d.next_attempt_at !== null && Date.parse(d.next_attempt_at) > now) return undefined;
          const webhook = hooks.get(d.webhook_id);
          if (webhook === undefined) return undefined; // not read above: the next pass
          if (webhook === null) return failedByDeletion(d);
          if (!webhook.active) return heldWhilePaused(d);
          if (!this.slots.mayTake(webhook.id, slotTenantOf(webhook))) return undefined;
          this.slots.hold(d.id, webhook.id, slotTenantOf(webhook));
          holding.set(d.id, webhook.id);
          if (this.storage.exclusive) return d;
          return {
            ...d,
            lease_owner: this.instanceId,
            lease_until: isoAt(now + this.leaseMs),
            updated_at: nowIso(),
          };
        },
      });
      // What holds a slot was taken; the rest that came back was held (paused) or failed (deleted)
      // instead. A slot held by a decision the transaction's last run did not repeat is given back.
      taken = claimed.filter((d) => holding.has(d.id));
      const kept = new Set(taken.map((d) => d.id));
      for (const id of [...holding.keys()]) if (!kept.has(id)) letGo(id);
      events = taken.length === 0 ? new Map<string, SentEvent>() : await this.sentEvents(taken.map((d) => d.event_id));
    } catch (err) {
      for (const id of [...holding.keys()]) letGo(id);
      throw err;
    }
    for (const d of taken) this.launch(d, hooks.get(d.webhook_id)!, events.get(d.event_id));
  }

  /** The events of a pass's deliveries: from the cache, the rest read in one go. */
  private async sentEvents(ids: string[]): Promise<Map<string, SentEvent>> {
    const found = new Map<string, SentEvent>();
    for (const id of ids) {
      const cached = this.events.get(id);
      if (cached !== undefined) found.set(id, cached);
    }
    const missing = [...new Set(ids.filter((id) => !found.has(id)))];
    if (missing.length > 0)
      for (const event of await this.eventLog.getMany(missing))
        if (event !== undefined) found.set(event.id, this.remember(event));
    return found;
  }

  /** An event as sent, kept for the other webhooks it goes to. */
  private remember(event: DomainEvent): SentEvent {
    return (
      this.events.get(event.id) ??
      setBounded(this.events, event.id, { kind: event.kind, json: JSON.stringify(event) }, EVENT_CACHE_ENTRIES)
    );
  }

  /**
   * A fan-out step's hand-offs: each delivery this daemon has a slot for (take) holds it until the
   * step's transaction ends. The step writes them as one batch leased to this daemon (write), in the
   * transaction that creates them, and their attempts start as that commits (end(true)), with no pass
   * and no claim of their own. A transaction that does not commit gives their slots back (end(false)).
   */
  begin(): HandOffStep {
    const taken = new Map<string, Handed>();
    let batch: HandOffBatch | undefined;
    let ended = false;
    return {
      take: (handed) => {
        const { delivery } = handed;
        const tenant = slotTenantOf(handed.webhook);
        this.slots.learn(delivery.webhook_id, tenant);
        if (ended || this.poster.stopped || !this.slots.mayTake(delivery.webhook_id, tenant)) return false;
        this.slots.hold(delivery.id, delivery.webhook_id, tenant);
        taken.set(delivery.id, handed);
        return true;
      },
      giveBack: (delivery) => {
        if (taken.delete(delivery.id)) this.cancelHandOff(delivery);
      },
      write: (tx: Tx, now: string) => {
        if (taken.size === 0) return 0;
        batch = this.writer.openBatch(
          [...taken.values()].map((h) => h.delivery),
          now,
        );
        tx.insert(this.webhooks.store.handoffs, batch);
        return taken.size;
      },
      end: (committed) => {
        if (ended) return;
        ended = true;
        if (committed && batch !== undefined) {
          for (const { delivery, webhook, event } of taken.values())
            this.launch(delivery, webhook, this.remember(event), batch.id);
          return;
        }
        for (const { delivery } of taken.values()) this.cancelHandOff(delivery);
        if (batch !== undefined) this.writer.dropBatch(batch.id);
      },
    };
  }

  /** A reserved delivery whose transaction did not commit: its slot is free again. */
  private cancelHandOff(delivery: Delivery): void {
    this.slots.forget(delivery.id);
    this.wakeListener();
  }

  /**
   * Whether the fan-out should wait for a slot of `webhookId` rather than create its delivery due, and
   * until when (epoch ms: SlotPool.paceUntil's time on the attention clock, as a wall time for the
   * fan-out's timer; after a stall it has moved on). A due delivery costs more than one handed off (it
   * is written to and read back from the due queues), and the backlog then stays in the event log,
   * which is written already.
   */
  paceUntil(webhookId: string): number | undefined {
    if (this.poster.stopped) return undefined;
    const until = this.slots.paceUntil(webhookId);
    return until === undefined ? undefined : this.clock.wallAt(until);
  }

  /** Slots came free at a refill mark: a pass if due work may be waiting for them, and the fan-out if it waits. */
  private slotsFreed(): void {
    if (this.dueWaiting) this.wakeListener();
    this.slotListener();
  }

  /**
   * Runs the attempt of a delivery that holds a slot (claim, a hand-off): its slot is given back once
   * the answer is in (or the attempt ended without one), and the delivery leaves the slot pool once its
   * outcome is written.
   */
  private launch(delivery: Delivery, webhook: Webhook, event: SentEvent | undefined, batchId?: string): void {
    let released = false;
    // The clock ticks while attempts are on the wire; the receiver's time to answer starts now.
    this.clock.hold();
    this.slots.started(delivery.webhook_id);
    const launched = this.clock.now();
    const answered = (timedOut = false): void => {
      if (released) return;
      released = true;
      if (this.slots.answer(delivery.id, launched, timedOut)) this.slotsFreed();
    };
    const run = this.attempt(delivery, webhook, event, answered, batchId)
      .catch((err: unknown) => {
        this.log.error({ err, delivery_id: delivery.id }, 'webhook attempt failed unexpectedly');
        if (batchId !== undefined) this.writer.abandon(batchId);
      })
      .finally(() => {
        answered();
        this.clock.letGo();
        // The same for the outcomes waiting to be written, when they are what holds new attempts back.
        const refill = this.slots.forget(delivery.id);
        this.attempts.delete(run);
        if (refill) this.slotsFreed();
      });
    this.attempts.add(run);
  }

  /**
   * One attempt of a delivery leased to this daemon, and its record. The webhook was read by the pass
   * that claimed the delivery, just before its claim: a pause or delete committed before that pass
   * (through any daemon) holds or fails the delivery instead of sending it.
   */
  private async attempt(
    leased: Delivery,
    webhook: Webhook,
    event: SentEvent | undefined,
    answered: (timedOut: boolean) => void,
    batchId: string | undefined,
  ): Promise<void> {
    const sent = await sendAttempt(this.poster, leased, webhook, event, (w, at) => this.webhooks.secretsOf(w, at));
    answered(sent.outcome.timedOut === true);
    if (this.poster.stopped) return;
    const { attempt } = sent;
    const next = await this.writer.record(leased, batchId, (d, tx) =>
      settleDelivery(d, tx, sent, webhook, this.settings.retryBaseMs, this.eventLog),
    );
    if (next === undefined) return;
    this.metrics.webhookAttempt(
      next.status === 'delivered' ? 'delivered' : next.status === 'pending' ? 'retry' : 'failed',
      attempt.duration_ms / 1000,
    );
    const fields = {
      delivery_id: next.id,
      webhook_id: next.webhook_id,
      attempt: attempt.attempt,
      status_code: attempt.status_code,
    };
    if (next.status === 'delivered') this.log.debug(fields, 'webhook delivered');
    else
      this.log.info(
        { ...fields, status: next.status, error: attempt.error, next_attempt_at: next.next_attempt_at },
        'webhook attempt failed',
      );
  }
}

/** The sender loop: woken by new deliveries (any daemon) and finished attempts, and when a retry falls due. */
export function createSenderLoop(sender: WebhookSender, storage: Storage, intervalMs: number, log: Logger): Loop {
  const loop = new Loop({
    name: 'webhook-delivery',
    intervalMs,
    immediate: true,
    log,
    tick: async () => {
      const nextDue = await sender.sendDue();
      return nextDue === undefined ? undefined : Date.parse(nextDue);
    },
  });
  sender.onWake(() => loop.wakeSoon());
  storage.onWake(DELIVERIES_TOPIC, () => loop.wakeSoon());
  return loop;
}
