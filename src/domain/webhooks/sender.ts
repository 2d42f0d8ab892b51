import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { setBounded } from '../../bounded-map.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics.js';
import { Loop } from '../../loops/loop.js';
import { scrubErrorText } from '../../redact.js';
import { describeSocketError } from '../../socket-errors.js';
import type { Page } from '../../storage/collection.js';
import { isoAt, newSortableId, nowIso } from '../../storage/keys.js';
import { leasesTakenOver, type Storage, type Tx } from '../../storage/port.js';
import type { EventLog } from '../events/service.js';
import type { DomainEvent } from '../events/types.js';
import type { Handed } from './fanout.js';
import type { Post, post } from './dispatcher.js';
import { deliveryLock, failedByDeletion, handOffLock, heldWhilePaused, type WebhookService } from './service.js';
import { deliveryHeaders } from './signing.js';
import { TargetRefusedError } from './target-guard.js';
import { DELIVERIES_TOPIC, pendingDelivery } from './store.js';
import type { Delivery, DeliveryAttempt, HandOffBatch, Webhook } from './types.js';

export interface SenderSettings {
  /** SERVICE_WEBHOOK_TIMEOUT_MS: one attempt, connect to answer. */
  timeoutMs: number;
  /** SERVICE_WEBHOOK_RETRY_BASE_MS: the first retry's delay; each next one doubles, up to 2^10 x. */
  retryBaseMs: number;
  /** Attempts in flight at once, all webhooks together. */
  maxInFlight: number;
  /** Attempts in flight at once to one webhook, so one slow receiver cannot take every slot. */
  maxPerWebhook: number;
}

/** The first 1 KB of an answer is kept on the attempt. */
const RESPONSE_BYTES = 1024;
const MAX_BACKOFF_DOUBLINGS = 10;
/** Webhooks with due deliveries read per page while a pass fills its free slots. */
const WEBHOOKS_PER_PAGE = 100;
/** Outcomes written per transaction at most. */
const RECORD_BATCH = 256;
/** How often a pass looks for ended leases to take over, at most. */
const TAKEOVER_EVERY_MS = 1000;
/** Hand-off batches taken over per pass at most (each in its own transaction). */
const TAKEOVER_BATCHES = 16;
/** Events kept as sent (their JSON), so a fan-out to several webhooks reads and serialises each once. */
const EVENT_CACHE_ENTRIES = 2048;
/**
 * How long after its last sign of progress (an answer, or its first attempt's start) a webhook whose
 * slots are all busy still counts as answering: the fan-out waits for one of its slots (paceUntil)
 * until then at most. A receiver that stops answering has its deliveries queued due after this long.
 * Generous for a loaded machine's event-loop stalls: the fan-out never holds back an event owed to a
 * webhook that is not waiting itself (fanout.ts), so only the waiting webhook's own events wait.
 */
export const PACE_MS = 250;
/**
 * A webhook whose answers came within this long (a moving average), the last of them less than
 * PACE_MS ago, answers quickly: it may borrow idle slots past its own bound (mayTake).
 */
export const QUICK_MS = 250;

interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  response: string | null;
}

/** An attempt's deadline: its POST ends, with what `describeFailure` reads as a timeout. */
function timeOut(sent: Post, ms: number): void {
  sent.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
}

/** How attempts reach receivers: dispatcher.ts's POST on the guarded dispatcher (loaded on first use). */
export interface Transport {
  post: typeof post;
  dispatcher: Dispatcher;
}

/** An event as the sender sends it: its kind (a header) and its JSON (the body, or its `event` field). */
interface SentEvent {
  kind: DomainEvent['kind'];
  json: string;
}

/** An attempt's outcome on its way to the delivery record. */
interface QueuedOutcome {
  leased: Delivery;
  /** The hand-off batch of a handed-off delivery's first attempt (its record is written now, once). */
  batchId: string | undefined;
  change: (current: Delivery, tx: Tx) => Delivery;
  resolve: (written: Delivery | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * Whether `used` of `bound` has just come down to a quarter of the bound free: a pass costs several
 * reads and a transaction, so it runs then, not after every attempt. Each count crosses that mark
 * on its way down, so work waiting for room is never left without a pass.
 */
function atRefillMark(bound: number, used: number): boolean {
  return bound - used === Math.max(1, Math.floor(bound / 4));
}

/** Adds `by` to `key`'s count (a key at zero is removed); answers the new count. */
function bump(counts: Map<string, number>, key: string, by: number): number {
  const n = (counts.get(key) ?? 0) + by;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
  return n;
}

/** The delay before the attempt after failed attempt `k` (k = 1, 2, ...): base x 2^(k-1), capped at base x 2^10. */
export function retryDelayMs(k: number, baseMs: number): number {
  return baseMs * 2 ** Math.min(Math.max(0, k - 1), MAX_BACKOFF_DOUBLINGS);
}

/** What an attempt's failure is called on the delivery (never a secret: callers scrub). */
function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof TargetRefusedError) return err.message;
  const e = err as Error & { code?: string; cause?: unknown; name?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT')
    return `timed out after ${timeoutMs} ms`;
  if (e.cause instanceof TargetRefusedError) return e.cause.message;
  return describeSocketError(err);
}

/**
 * The delivery loop: claims due deliveries with a lease (several daemons share the work; a dead
 * daemon's claims are taken over once their lease expires), POSTs each signed event, records every
 * attempt, and retries on the contract's schedule until `max_retries` is spent, then emits
 * `webhook.delivery.exhausted` in the same transaction that fails the delivery.
 */
export class WebhookSender {
  readonly instanceId = randomUUID();
  private inFlight = 0;
  /** Attempts on the wire per webhook (the per-webhook bound). */
  private readonly perWebhook = new Map<string, number>();
  /** Deliveries in `sending` per webhook: on the wire or their outcome not yet written. */
  private readonly claimedPerWebhook = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  /** The POSTs on the wire (shutdown ends them all). */
  private readonly onWire = new Set<Post>();
  /** Outcomes waiting to be written, and whether a batch of them is being written now. */
  private readonly outcomes: QueuedOutcome[] = [];
  private recording = false;
  /**
   * The deliveries claimed here: their attempts on the wire (counted in `inFlight` and `perWebhook`)
   * or their outcomes not yet written. A delivery is never claimed again while it is in here.
   */
  private readonly sending = new Set<string>();
  /**
   * This daemon's hand-off batches from creation until every attempt is settled: `open`, the outcomes
   * neither written nor given up; `abandoned`, whether one was given up (its write failed), so the
   * stored batch stays for a takeover to write that delivery pending.
   */
  private readonly batches = new Map<string, { record: HandOffBatch; open: number; abandoned: boolean }>();
  /** The webhook the last pass ended at: the next starts past it (every webhook gets its turn at free slots). */
  private rotation: string | undefined;
  /** Aborted at shutdown: attempts in flight stop, unrecorded, and are taken over like a crash's. */
  private readonly stopping = new AbortController();
  private wakeListener: () => void = () => {};
  /** When the last pass looked for ended leases (epoch ms). */
  private lastTakeOver = -Infinity;
  /** The transport, once loaded (an attempt does not wait a turn of the event loop for it). */
  private loaded: Transport | undefined;
  /** Events are never changed once appended, so their JSON is kept (oldest out first). */
  private readonly events = new Map<string, SentEvent>();
  /**
   * When each webhook with attempts on the wire last moved (the first of them started, or one was
   * answered), and when any did (epoch ms): paceUntil's evidence that a busy slot frees soon.
   */
  private readonly progress = new Map<string, number>();
  private progressAny = -Infinity;
  /** Per webhook answered in the last PACE_MS or so: when its last answer came (epoch ms) and its answers' moving average (ms). */
  private readonly answers = new Map<string, { at: number; averageMs: number }>();
  private slotListener: () => void = () => {};
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
    private readonly transport: () => Promise<Transport>,
    private readonly settings: SenderSettings,
    private readonly log: Logger,
    private readonly metrics: Pick<Metrics, 'webhookAttempt'>,
  ) {}

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
    this.stopping.abort();
    for (const sent of this.onWire) sent.abort(this.stopping.signal.reason as Error);
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
  }

  get busy(): number {
    return this.inFlight;
  }

  /**
   * Attempts that may start now: the free slots of the global bound, while the outcomes not yet
   * written stay within another maxInFlight (a slot is given back as its answer arrives, and the
   * record follows in a batch, so slow storage does not hold receivers' slots).
   */
  private get free(): number {
    return Math.min(this.settings.maxInFlight - this.inFlight, this.maxClaimed - this.sending.size);
  }

  /**
   * Slots a webhook that answers quickly may hold at most: every slot but a webhook's bound, which
   * stays free for the others. A receiver that answered quickly and then hangs holds these until its
   * attempts time out, and the rest still have maxPerWebhook slots, as much as any one webhook gets.
   */
  private get borrowCap(): number {
    return Math.max(this.settings.maxPerWebhook, this.settings.maxInFlight - this.settings.maxPerWebhook);
  }

  /** Whether the webhook's answers come quickly now (QUICK_MS): it may borrow slots past its bound. */
  private answersQuickly(webhookId: string): boolean {
    const a = this.answers.get(webhookId);
    return a !== undefined && a.averageMs < QUICK_MS && Date.now() - a.at < PACE_MS;
  }

  /**
   * Whether an attempt to `webhookId` may take a slot now: within the global bound, and within the
   * webhook's own bound or, while it answers quickly, borrowing a slot nobody else is using, never one
   * of the last maxPerWebhook of the global bound (work-conserving: one webhook with a fast receiver
   * and nobody else to serve is not held to a quarter of the slots; docs/webhooks.md).
   */
  private mayTake(webhookId: string): boolean {
    return this.free > 0 && this.roomFor(webhookId) > 0;
  }

  /**
   * How many more attempts to `webhookId` may start now, at most (mayTake decides each): its own
   * bound's free slots, or while it answers quickly as many as borrowing allows. A webhook that
   * borrows has its due deliveries (retries, or what the fan-out queued) claimed beside its hand-offs,
   * not only once it is back under its own bound.
   */
  private roomFor(webhookId: string): number {
    const own = this.settings.maxPerWebhook - (this.perWebhook.get(webhookId) ?? 0);
    return this.answersQuickly(webhookId) ? Math.max(own, this.borrowCap - this.inFlight) : own;
  }

  /** Deliveries `sending` may hold: maxInFlight on the wire and as many more waiting for their record. */
  private get maxClaimed(): number {
    return 2 * this.settings.maxInFlight;
  }

  /**
   * One pass: claims as many due deliveries as there are free slots, in one transaction, and starts
   * their attempts (not awaited). Each webhook's slots are filled from its own queue, so a webhook at
   * its bound (a slow receiver with a deep backlog) never keeps another's deliveries waiting. Returns
   * when the next delivery falls due (ISO), so the loop can wake then.
   */
  async sendDue(): Promise<string | undefined> {
    const now = Date.now();
    // Answer times too old to count (answersQuickly) are dropped, so the map holds recent webhooks only.
    for (const [webhookId, a] of this.answers) if (now - a.at >= PACE_MS) this.answers.delete(webhookId);
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
      if (this.free > 0) await this.takeOver(now);
    }
    if (this.free > 0) await this.claimDue(now);
  }

  /**
   * Hand-off batches left by a daemon that died (their lease ended), by an earlier run (exclusive
   * storage), or by this daemon when an outcome's write failed: each delivery still without a record
   * is written pending, due now, with its id, for any daemon's pass to claim; the batch goes.
   */
  private async takeOverHandOffs(now: number): Promise<void> {
    const store = this.webhooks.store;
    const ended = await store.endedHandOffs(leasesTakenOver(this.storage, now), TAKEOVER_BATCHES);
    for (const id of ended.filter((id) => !this.batches.has(id)))
      await this.storage.transaction({ locks: [handOffLock(id)] }, async (tx) => {
        const batch = await tx.get(store.handoffs, id);
        // One of this daemon's own is known here until every attempt of it is settled.
        if (batch === undefined || this.batches.has(id)) return;
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
    const room = this.free;
    const entries = await store.deliveries.range('queue', 'leased', {
      upTo: leasesTakenOver(this.storage, now),
      limit: room * 2,
    });
    const ids = entries.map((e) => e.id).filter((id) => !this.sending.has(id));
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
    const free = this.free;
    const picked: string[] = [];
    const hooks = new Map<string, Webhook | null>();
    const turns = this.webhooksInTurn(this.rotation);
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
          const room = Math.min(this.roomFor(webhookId), budget);
          if (room <= 0) continue;
          // On exclusive storage what this daemon claimed (in memory) stays in the due queue until its
          // outcome is written, answered or not: read past it.
          const held = this.storage.exclusive ? (this.claimedPerWebhook.get(webhookId) ?? 0) : 0;
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
          const ids = due[n].filter((id) => !this.sending.has(id)).slice(0, t.room);
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
      const webhookId = holding.get(id);
      if (webhookId === undefined) return;
      holding.delete(id);
      this.release(webhookId);
      this.forget(id, webhookId);
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
          if (d.status !== 'pending' || d.held || this.sending.has(d.id)) return undefined; // ours: in flight
          if (d.lease_until !== null) {
            // Any other lease once it has ended (also one of ours whose attempt was lost: no attempt runs
            // here for it), or at once where this daemon owns the data.
            if (!this.storage.exclusive && Date.parse(d.lease_until) > now) return undefined;
          } else if (d.next_attempt_at !== null && Date.parse(d.next_attempt_at) > now) return undefined;
          const webhook = hooks.get(d.webhook_id);
          if (webhook === undefined) return undefined; // not read above: the next pass
          if (webhook === null) return failedByDeletion(d);
          if (!webhook.active) return heldWhilePaused(d);
          if (!this.mayTake(webhook.id)) return undefined;
          this.hold(d.id, webhook.id);
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

  /**
   * Whether the stored delivery is still the attempt's to record: pending, at the attempt it was
   * claimed at, and leased to this daemon, or (exclusive storage, where claims are held in memory)
   * not held meanwhile.
   */
  private stillClaimed(current: Delivery | undefined, claimed: Delivery): current is Delivery {
    if (current?.status !== 'pending' || current.attempt !== claimed.attempt) return false;
    return current.lease_owner === this.instanceId || (this.storage.exclusive && !current.held);
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
   * The fan-out's hand-off: a slot for `delivery`, which the fan-out writes into a batch leased to
   * this daemon (handOffBatch) in the transaction that creates it, so its attempt starts as that
   * commits (handOff), with no pass and no claim of its own. False when this daemon has no slot its
   * webhook may take (it is then created due, for any daemon's pass, or the fan-out waits). A
   * transaction that does not commit gives the slot back (cancelHandOff).
   */
  reserveHandOff(delivery: Delivery): boolean {
    if (this.stopping.signal.aborted || !this.mayTake(delivery.webhook_id)) return false;
    this.hold(delivery.id, delivery.webhook_id);
    return true;
  }

  /** The record a fan-out step's handed-off deliveries are written as: leased to this daemon. */
  handOffBatch(deliveries: Delivery[], now: string): HandOffBatch {
    const record: HandOffBatch = {
      id: newSortableId('hof_'),
      lease_owner: this.instanceId,
      lease_until: isoAt(Date.now() + this.leaseMs),
      created_at: now,
      deliveries: deliveries.map((d) => ({
        id: d.id,
        webhook_id: d.webhook_id,
        organization_id: d.organization_id,
        event_id: d.event_id,
        event_kind: d.event_kind,
      })),
    };
    // Known here before its transaction commits, so a takeover never mistakes it for an abandoned one.
    this.batches.set(record.id, { record, open: deliveries.length, abandoned: false });
    return record;
  }

  /**
   * Whether a batch of this daemon's is still its own without reading it: nothing else takes it over
   * on exclusive storage while it is known here, and elsewhere a daemon takes it only once its lease has
   * ended (by that daemon's clock: a third of the lease is left for clocks that differ). An outcome's
   * transaction holds the batch's lock, so a takeover that starts meanwhile waits for it and finds the
   * outcome written.
   */
  private surelyOurs(batchId: string): HandOffBatch | undefined {
    const batch = this.batches.get(batchId);
    if (batch === undefined) return undefined;
    const left = Date.parse(batch.record.lease_until) - Date.now();
    return this.storage.exclusive || left > this.leaseMs / 3 ? batch.record : undefined;
  }

  /**
   * Whether the fan-out should wait for a slot of `webhookId` rather than create its delivery due, and
   * until when (epoch ms). It should while every slot the delivery could take is busy but answers keep
   * coming: within PACE_MS of the last one, so one frees soon. A due delivery costs more than one handed
   * off (it is written to and read back from the due queues), and the backlog then stays in the event
   * log, which is written already. Undefined when a slot is free, or the busy slots' receivers have not
   * answered for PACE_MS (a slow receiver must not hold the fan-out, and so every other webhook, back).
   */
  paceUntil(webhookId: string): number | undefined {
    if (this.stopping.signal.aborted) return undefined;
    let last: number | undefined;
    if (this.mayTake(webhookId)) return undefined;
    // Held at its own bound (it does not answer quickly enough to borrow): its own answers free a slot;
    // else every slot it may take is busy, and anyone's answer frees one.
    if (this.free > 0 && !this.answersQuickly(webhookId)) last = this.progress.get(webhookId);
    else last = this.progressAny;
    if (last === undefined) return undefined;
    const until = last + PACE_MS;
    return until > Date.now() ? until : undefined;
  }

  /** A reserved delivery whose transaction did not commit: its slot is free again. */
  cancelHandOff(delivery: Delivery): void {
    this.release(delivery.webhook_id);
    this.forget(delivery.id, delivery.webhook_id);
    this.wakeListener();
  }

  /** A hand-off batch whose transaction did not commit (its deliveries were each cancelHandOff'd). */
  dropBatch(batch: HandOffBatch): void {
    this.batches.delete(batch.id);
  }

  /** A hand-off batch committed, leased to this daemon: its attempts start now. */
  handOff(batch: HandOffBatch, handed: Handed[]): void {
    for (const { delivery, webhook, event } of handed) this.launch(delivery, webhook, this.remember(event), batch.id);
  }

  /** Slots came free at a refill mark: a pass if due work may be waiting for them, and the fan-out if it waits. */
  private slotsFreed(): void {
    if (this.dueWaiting) this.wakeListener();
    this.slotListener();
  }

  /** A slot taken by `deliveryId` (to `webhookId`): counted against both bounds, never claimed again here. */
  private hold(deliveryId: string, webhookId: string): void {
    this.inFlight++;
    this.sending.add(deliveryId);
    if (bump(this.perWebhook, webhookId, 1) === 1) this.progress.set(webhookId, Date.now());
    bump(this.claimedPerWebhook, webhookId, 1);
  }

  /** Gives back hold()'s slot (the delivery stays in `sending`); answers how many attempts to that webhook still hold one. */
  private release(webhookId: string): number {
    this.inFlight--;
    return bump(this.perWebhook, webhookId, -1);
  }

  /** The delivery leaves `sending`: its outcome is written, or its attempt ended without one. */
  private forget(deliveryId: string, webhookId: string): void {
    this.sending.delete(deliveryId);
    bump(this.claimedPerWebhook, webhookId, -1);
  }

  /**
   * Runs the attempt of a delivery that holds a slot (claim, handOff): its slot is given back once the
   * answer is in (or the attempt ended without one), and the delivery leaves `sending` once its outcome
   * is written.
   */
  private launch(delivery: Delivery, webhook: Webhook, event: SentEvent | undefined, batchId?: string): void {
    let released = false;
    const launched = Date.now();
    const answered = (): void => {
      if (released) return;
      released = true;
      const left = this.release(webhook.id);
      const now = Date.now();
      this.progressAny = now;
      if (left === 0) this.progress.delete(webhook.id);
      else this.progress.set(webhook.id, now);
      // Kept while the webhook has no attempt on the wire too: the fan-out's next hand-offs to it read it.
      const last = this.answers.get(webhook.id);
      const took = now - launched;
      if (last === undefined) this.answers.set(webhook.id, { at: now, averageMs: took });
      else {
        last.at = now;
        last.averageMs += (took - last.averageMs) / 8;
      }
      // A pass when this webhook's or all slots come down to a refill mark (or the webhook has none
      // busy): its own bound's, and the borrowing cap's for a webhook that borrows.
      if (
        left === 0 ||
        atRefillMark(this.settings.maxPerWebhook, left) ||
        atRefillMark(this.borrowCap, left) ||
        atRefillMark(this.settings.maxInFlight, this.inFlight) ||
        atRefillMark(this.borrowCap, this.inFlight)
      )
        this.slotsFreed();
    };
    const run = this.attempt(delivery, webhook, event, answered, batchId)
      .catch((err: unknown) => {
        this.log.error({ err, delivery_id: delivery.id }, 'webhook attempt failed unexpectedly');
        if (batchId !== undefined) this.abandon(batchId);
      })
      .finally(() => {
        answered();
        this.forget(delivery.id, webhook.id);
        this.attempts.delete(run);
        // The same for the outcomes waiting to be written, when they are what holds new attempts back.
        if (this.sending.size === 0 || atRefillMark(this.maxClaimed, this.sending.size)) this.slotsFreed();
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
    answered: () => void,
    batchId: string | undefined,
  ): Promise<void> {
    const number = leased.attempt + 1;
    const started = Date.now();
    let outcome: Outcome;
    let secrets: string[] = [];
    if (event === undefined) outcome = { ok: false, statusCode: null, error: 'the event is no longer stored', response: null };
    else {
      secrets = this.webhooks.secretsOf(webhook, started);
      // Byte for byte JSON.stringify({ event, state }), without serialising the event again.
      const body = webhook.state === null ? event.json : `{"event":${event.json},"state":${JSON.stringify(webhook.state)}}`;
      const headers = deliveryHeaders({
        secrets,
        deliveryId: leased.id,
        eventKind: event.kind,
        body,
        timestamp: Math.floor(started / 1000),
        attempt: number,
      });
      outcome = await this.post(webhook.url, body, headers);
    }
    answered();
    if (this.stopping.signal.aborted) return;
    const attempt: DeliveryAttempt = {
      attempt: number,
      at: isoAt(started),
      status_code: outcome.statusCode,
      duration_ms: Date.now() - started,
      error: outcome.error === null ? null : this.scrub(outcome.error, secrets),
      response: outcome.response === null ? null : this.scrub(outcome.response, secrets, RESPONSE_BYTES),
    };
    const next = await this.record(leased, batchId, (d, tx) => {
      const k = number - d.budget_from;
      const status = outcome.ok ? 'delivered' : k <= webhook.max_retries ? 'pending' : 'failed';
      // Spent: failed, and (unless this was itself about an exhaustion) the event that says so.
      if (status === 'failed' && d.event_kind !== 'webhook.delivery.exhausted')
        this.eventLog.append(tx, {
          kind: 'webhook.delivery.exhausted',
          organization_id: d.organization_id,
          payload: {
            webhook_id: d.webhook_id,
            delivery_id: d.id,
            event_id: d.event_id,
            event_kind: d.event_kind,
            attempts: number,
            status_code: attempt.status_code,
            error_message: attempt.error,
          },
        });
      // One copy of the record (its own keys only after the spread: V8 keeps that literal fast).
      return {
        ...d,
        status,
        attempt: number,
        attempts: [...d.attempts, attempt],
        status_code: attempt.status_code,
        error_message: outcome.ok ? null : attempt.error,
        next_attempt_at: status === 'pending' ? isoAt(Date.now() + retryDelayMs(k, this.settings.retryBaseMs)) : null,
        lease_owner: null,
        lease_until: null,
        updated_at: nowIso(),
      };
    });
    if (next === undefined) return;
    this.metrics.webhookAttempt(
      next.status === 'delivered' ? 'delivered' : next.status === 'pending' ? 'retry' : 'failed',
      attempt.duration_ms / 1000,
    );
    const fields = { delivery_id: next.id, webhook_id: next.webhook_id, attempt: number, status_code: attempt.status_code };
    if (next.status === 'delivered') this.log.debug(fields, 'webhook delivered');
    else
      this.log.info(
        { ...fields, status: next.status, error: attempt.error, next_attempt_at: next.next_attempt_at },
        'webhook attempt failed',
      );
  }

  /**
   * Writes the outcome under the delivery's lock, if the lease is still this daemon's (a handed-off
   * delivery's first: under its batch's lock, if the batch is still this daemon's). Outcomes that
   * finish while another batch commits are written together, in one transaction.
   */
  private record(
    leased: Delivery,
    batchId: string | undefined,
    change: (current: Delivery, tx: Tx) => Delivery,
  ): Promise<Delivery | undefined> {
    return new Promise((resolve, reject) => {
      this.outcomes.push({ leased, batchId, change, resolve, reject });
      if (!this.recording) void this.recordQueued();
    });
  }

  private async recordQueued(): Promise<void> {
    const store = this.webhooks.store;
    this.recording = true;
    try {
      while (this.outcomes.length > 0) {
        const queued = this.outcomes.splice(0, RECORD_BATCH);
        const storedIds = queued.flatMap((o) => (o.batchId === undefined ? [o.leased.id] : []));
        const batchIds = [...new Set(queued.flatMap((o) => (o.batchId === undefined ? [] : [o.batchId])))];
        // Per hand-off batch still this daemon's: the outcomes this transaction writes.
        let recorded = new Map<string, number>();
        try {
          const locks = [...storedIds.map(deliveryLock), ...batchIds.map(handOffLock)];
          const results = await this.storage.transaction({ locks }, async (tx) => {
            recorded = new Map();
            // A batch is read only when it may have been taken over: usually it is known (surelyOurs).
            for (const id of batchIds) {
              const known = this.surelyOurs(id);
              if (known !== undefined) tx.saw(store.handoffs, id, known);
            }
            const [records, batches] = await Promise.all([
              storedIds.length === 0 ? [] : tx.getMany(store.deliveries, storedIds),
              batchIds.length === 0 ? [] : tx.getMany(store.handoffs, batchIds),
            ]);
            const stored = new Map(storedIds.map((id, n) => [id, records[n]]));
            const ours = new Set(batchIds.filter((_, n) => batches[n]?.lease_owner === this.instanceId));
            const written: (Delivery | undefined)[] = [];
            for (const { leased, batchId, change } of queued) {
              // A handed-off delivery has no record before this one: it is as its attempt began.
              const current = batchId === undefined ? stored.get(leased.id) : ours.has(batchId) ? leased : undefined;
              if (batchId === undefined ? !this.stillClaimed(current, leased) : current === undefined) {
                this.log.warn({ delivery_id: leased.id }, 'webhook delivery lease lost before the attempt was recorded');
                written.push(undefined);
                continue;
              }
              const next = change(current!, tx);
              if (batchId === undefined) await tx.put(store.deliveries, next);
              else {
                tx.insert(store.deliveries, next);
                recorded.set(batchId, (recorded.get(batchId) ?? 0) + 1);
              }
              if (next.status === 'pending' && !next.held) tx.wake(DELIVERIES_TOPIC);
              written.push(next);
            }
            // A batch goes with its last outcome (unless one was given up: a takeover writes that one).
            for (const [id, n] of recorded) {
              const batch = this.batches.get(id);
              if (batch !== undefined && !batch.abandoned && n >= batch.open) await tx.delete(store.handoffs, id);
            }
            return written;
          });
          for (const id of batchIds) {
            const batch = this.batches.get(id);
            const n = recorded.get(id);
            if (batch === undefined) continue;
            if (n === undefined)
              this.batches.delete(id); // no longer this daemon's
            else if ((batch.open -= n) <= 0) this.batches.delete(id);
          }
          queued.forEach((o, n) => o.resolve(results[n]));
        } catch (err) {
          for (const o of queued) o.reject(err);
        }
      }
    } finally {
      this.recording = false;
    }
  }

  /**
   * A handed-off delivery whose outcome could not be written: its batch stays stored, and once none of
   * its attempts runs here a takeover writes the deliveries without a record pending (at once on
   * exclusive storage, after the lease elsewhere).
   */
  private abandon(batchId: string): void {
    const batch = this.batches.get(batchId);
    if (batch === undefined) return;
    batch.abandoned = true;
    if (--batch.open <= 0) this.batches.delete(batchId);
  }

  /** POST within the timeout; a 2xx is success, a 3xx a failure never followed. */
  private async post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
    const ms = this.settings.timeoutMs;
    let sent: Post | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const { post, dispatcher } = this.loaded ?? (this.loaded = await this.transport());
      sent = post(dispatcher, url, body, headers, RESPONSE_BYTES);
      // A real timer holds the attempt until it fires or is cleared (deadline.ts: not AbortSignal.timeout).
      timer = setTimeout(timeOut, ms, sent, ms);
      this.onWire.add(sent);
      if (this.stopping.signal.aborted) sent.abort(this.stopping.signal.reason as Error);
      const { statusCode: code, body: response } = await sent.answer;
      if (code >= 200 && code < 300) return { ok: true, statusCode: code, error: null, response };
      const error = code >= 300 && code < 400 ? `redirect (${code}) not followed` : `receiver answered ${code}`;
      return { ok: false, statusCode: code, error, response };
    } catch (err) {
      return { ok: false, statusCode: null, error: describeFailure(err, ms), response: null };
    } finally {
      clearTimeout(timer);
      if (sent !== undefined) this.onWire.delete(sent);
    }
  }

  private scrub(text: string, secrets: string[], max = 500): string {
    let out = text;
    for (const secret of secrets) out = out.replaceAll(secret, '[redacted]');
    return scrubErrorText(out, max);
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
