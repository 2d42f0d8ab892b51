/**
 * How long after its last sign of progress (an answer, or its first attempt's start) a webhook whose
 * slots are all busy still counts as answering: the fan-out waits for one of its slots (paceUntil)
 * until then at most. A receiver that stops answering has its deliveries queued due after this long.
 * Counted on the sender's attention clock (attention.ts), which stops while this process's event loop
 * stalls: on a loaded machine a stall is not a receiver's silence. The fan-out never holds back an event
 * owed to a webhook that is not waiting itself (fanout.ts), so only the waiting webhook's own events wait.
 */
export const PACE_MS = 250;
/**
 * A webhook whose answers came within this long (a moving average), the last of them less than
 * PACE_MS ago, answers quickly: it may borrow idle slots past its own bound (mayTake).
 */
export const QUICK_MS = 250;

export interface SlotBounds {
  /** Attempts in flight at once, all webhooks together. */
  maxInFlight: number;
  /** Attempts in flight at once to one webhook, so one slow receiver cannot take every slot. */
  maxPerWebhook: number;
  /** Attempts in flight at once for one organization, all its webhooks together (issue 33: one tenant's many webhooks). */
  maxPerOrganization: number;
}

/** Consecutive timeouts counted at most: a webhook's bound halves with each, down to one slot. */
const MAX_TIMEOUT_HALVINGS = 6;
/** Webhooks whose organization is remembered at most (a webhook never changes organization). */
const ORGANIZATIONS_KEPT = 16_384;

/** A delivery holding a slot, or waiting for its outcome's record. */
interface Held {
  webhookId: string;
  organizationId: string;
  /** Its attempt holds a slot (until its answer, or until it ends without one). */
  onWire: boolean;
  /** Its slot was borrowed past its webhook's or organization's own bound (not counted against the organization's). */
  borrowed: boolean;
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

/**
 * The sender's slots: which attempts may start now, all webhooks together and per webhook, and when
 * the fan-out should wait for one. No I/O: a delivery takes a slot (hold), gives it back as its answer
 * arrives (answer, or release when no attempt ran), and leaves once its outcome is written (forget).
 * The clock is a parameter (the sender's attention clock, ms), so the bounds, borrowing and pacing are
 * tested with a fake one; every time here is on it.
 */
export class SlotPool {
  private inFlight = 0;
  /** Attempts on the wire per webhook (the per-webhook bound). */
  private readonly perWebhook = new Map<string, number>();
  /** Attempts on the wire per organization (the per-organization bound). */
  private readonly perOrganization = new Map<string, number>();
  /** Per webhook whose last answers were timeouts: how many in a row (its bound halves with each). */
  private readonly timeouts = new Map<string, number>();
  /** The organization of each webhook seen here (oldest out first). */
  private readonly organizations = new Map<string, string>();
  /** Deliveries in `sending` per webhook: on the wire or their outcome not yet written. */
  private readonly claimedPerWebhook = new Map<string, number>();
  /**
   * The deliveries that hold or held a slot here: their attempts on the wire (counted in `inFlight` and
   * `perWebhook`) or their outcomes not yet written. A delivery is never claimed again while it is in here.
   */
  private readonly sending = new Map<string, Held>();
  /**
   * When each webhook with attempts on the wire last moved (the first of them started, or one was
   * answered), and when any did: paceUntil's evidence that a busy slot frees soon.
   */
  private readonly progress = new Map<string, number>();
  private progressAny = -Infinity;
  /**
   * Webhooks whose attempts hold slots but none has started yet (a fan-out step's hand-offs before
   * its transaction commits): their receivers cannot have answered, so they count as moving now.
   */
  private readonly unstarted = new Set<string>();
  /** Per webhook answered in the last PACE_MS or so: when its last answer came and its answers' moving average (ms). */
  private readonly answers = new Map<string, { at: number; averageMs: number }>();

  constructor(
    private readonly bounds: SlotBounds,
    private readonly now: () => number = Date.now,
  ) {}

  /** Attempts on the wire. */
  get busy(): number {
    return this.inFlight;
  }

  /** Deliveries holding a slot or waiting for their outcome's record. */
  get claimed(): number {
    return this.sending.size;
  }

  /** Whether the delivery holds a slot here, or waits for its record (it is not claimed again). */
  has(deliveryId: string): boolean {
    return this.sending.has(deliveryId);
  }

  /** The webhook's organization, when a delivery of it was seen here. */
  organizationOf(webhookId: string): string | undefined {
    return this.organizations.get(webhookId);
  }

  /** Notes a webhook's organization (the fan-out and the passes tell it). */
  learn(webhookId: string, organizationId: string): void {
    if (this.organizations.has(webhookId)) return;
    if (this.organizations.size >= ORGANIZATIONS_KEPT) this.organizations.delete(this.organizations.keys().next().value!);
    this.organizations.set(webhookId, organizationId);
  }

  /** Deliveries of the webhook holding a slot or waiting for their record. */
  claimedBy(webhookId: string): number {
    return this.claimedPerWebhook.get(webhookId) ?? 0;
  }

  /**
   * Attempts that may start now: the free slots of the global bound, while the outcomes not yet
   * written stay within another maxInFlight (a slot is given back as its answer arrives, and the
   * record follows in a batch, so slow storage does not hold receivers' slots).
   */
  get free(): number {
    return Math.min(this.bounds.maxInFlight - this.inFlight, this.maxClaimed - this.sending.size);
  }

  /** Deliveries `sending` may hold: maxInFlight on the wire and as many more waiting for their record. */
  get maxClaimed(): number {
    return 2 * this.bounds.maxInFlight;
  }

  /**
   * Slots a webhook that answers quickly may hold at most: every slot but a webhook's bound, which
   * stays free for the others. A receiver that answered quickly and then hangs holds these until its
   * attempts time out, and the rest still have maxPerWebhook slots, as much as any one webhook gets.
   */
  private get borrowCap(): number {
    return Math.max(this.bounds.maxPerWebhook, this.bounds.maxInFlight - this.bounds.maxPerWebhook);
  }

  /** Whether the webhook's answers come quickly now (QUICK_MS): it may borrow slots past its bound. */
  answersQuickly(webhookId: string): boolean {
    const a = this.answers.get(webhookId);
    return a !== undefined && a.averageMs < QUICK_MS && this.now() - a.at < PACE_MS;
  }

  /**
   * Whether an attempt to `webhookId` may take a slot now: within the global bound, and within the
   * webhook's and its organization's own bounds or, while it answers quickly, borrowing a slot nobody
   * else is using, never one of the last maxPerWebhook of the global bound (work-conserving: one
   * webhook with a fast receiver and nobody else to serve is not held to a quarter of the slots;
   * docs/webhooks.md).
   */
  mayTake(webhookId: string, organizationId = this.organizations.get(webhookId)): boolean {
    return this.free > 0 && this.roomFor(webhookId, organizationId) > 0;
  }

  /**
   * How many more attempts to `webhookId` may start now, at most (mayTake decides each): the free
   * slots of its own bound (halved for each timeout in a row, down to one) and of its organization's
   * (less `pending`, what a pass is about to claim for it), or while it answers quickly as many as
   * borrowing allows. A webhook that borrows has its due deliveries (retries, or what the fan-out
   * queued) claimed beside its hand-offs, not only once it is back under its own bound.
   */
  roomFor(webhookId: string, organizationId = this.organizations.get(webhookId), pending = 0): number {
    const own = this.ownRoom(webhookId, organizationId, pending);
    return this.answersQuickly(webhookId) ? Math.max(own, this.borrowCap - this.inFlight) : own;
  }

  /** The free slots of the webhook's own bound (halved per timeout in a row, down to one) and of its organization's. */
  private ownRoom(webhookId: string, organizationId: string | undefined, pending = 0): number {
    const halvings = this.timeouts.get(webhookId) ?? 0;
    const own = Math.max(1, this.bounds.maxPerWebhook >> halvings) - (this.perWebhook.get(webhookId) ?? 0);
    if (organizationId === undefined) return own;
    return Math.min(own, this.bounds.maxPerOrganization - (this.perOrganization.get(organizationId) ?? 0) - pending);
  }

  /** Answer times too old to count (answersQuickly) are dropped, so the map holds recent webhooks only. */
  forgetStaleAnswers(): void {
    const now = this.now();
    for (const [webhookId, a] of this.answers) if (now - a.at >= PACE_MS) this.answers.delete(webhookId);
  }

  /** A slot taken by `deliveryId` (to `webhookId` of `organizationId`): counted against every bound, never claimed again here. */
  hold(deliveryId: string, webhookId: string, organizationId: string): void {
    this.learn(webhookId, organizationId);
    // A slot past the own bounds is borrowed (answersQuickly): idle, so not the organization's to count.
    const borrowed = this.ownRoom(webhookId, organizationId) <= 0;
    this.inFlight++;
    this.sending.set(deliveryId, { webhookId, organizationId, onWire: true, borrowed });
    if (bump(this.perWebhook, webhookId, 1) === 1) {
      this.progress.set(webhookId, this.now());
      this.unstarted.add(webhookId);
    }
    if (!borrowed) bump(this.perOrganization, organizationId, 1);
    bump(this.claimedPerWebhook, webhookId, 1);
  }

  /**
   * The attempt of a delivery that holds a slot of `webhookId` starts: the first of its webhook's
   * attempts on the wire to start is when its receiver's time to answer begins (paceUntil), not when
   * its slot was taken, which may be a whole fan-out step (a transaction) earlier.
   */
  started(webhookId: string): void {
    if (this.unstarted.delete(webhookId)) this.progress.set(webhookId, this.now());
  }

  /**
   * Gives back hold()'s slot without an answer (the delivery stays in `sending`); answers how many
   * attempts to that webhook still hold one (undefined: the delivery held none).
   */
  release(deliveryId: string): number | undefined {
    const held = this.sending.get(deliveryId);
    if (held?.onWire !== true) return undefined;
    held.onWire = false;
    this.inFlight--;
    if (!held.borrowed) bump(this.perOrganization, held.organizationId, -1);
    const left = bump(this.perWebhook, held.webhookId, -1);
    if (left === 0) this.unstarted.delete(held.webhookId);
    return left;
  }

  /**
   * The answer of the attempt of `deliveryId` that started at `launched` came, or it timed
   * out: its slot is given back and the webhook's pace noted. A timeout halves the webhook's bound
   * (again for each in a row) until an answer comes. Answers whether the slots came down to a refill
   * mark (or the webhook has none busy), when a pass (and a waiting fan-out) should run.
   */
  answer(deliveryId: string, launched: number, timedOut = false): boolean {
    const webhookId = this.sending.get(deliveryId)?.webhookId;
    const left = this.release(deliveryId);
    if (webhookId === undefined || left === undefined) return false;
    if (!timedOut) this.timeouts.delete(webhookId);
    else this.timeouts.set(webhookId, Math.min(MAX_TIMEOUT_HALVINGS, (this.timeouts.get(webhookId) ?? 0) + 1));
    const now = this.now();
    this.progressAny = now;
    this.unstarted.delete(webhookId);
    if (left === 0) this.progress.delete(webhookId);
    else this.progress.set(webhookId, now);
    // A timeout is no answer: the webhook does not answer quickly (it borrows no more).
    if (timedOut) {
      this.answers.delete(webhookId);
      return this.refillMark(left);
    }
    // Kept while the webhook has no attempt on the wire too: the fan-out's next hand-offs to it read it.
    const last = this.answers.get(webhookId);
    const took = now - launched;
    if (last === undefined) this.answers.set(webhookId, { at: now, averageMs: took });
    else {
      last.at = now;
      last.averageMs += (took - last.averageMs) / 8;
    }
    return this.refillMark(left);
  }

  /** Whether slots came down to a refill mark: the webhook's (`left` busy), its own bound's and the borrowing cap's, or all. */
  private refillMark(left: number): boolean {
    return (
      left === 0 ||
      atRefillMark(this.bounds.maxPerWebhook, left) ||
      atRefillMark(this.borrowCap, left) ||
      atRefillMark(this.bounds.maxInFlight, this.inFlight) ||
      atRefillMark(this.borrowCap, this.inFlight)
    );
  }

  /**
   * The delivery leaves `sending`: its outcome is written, or its attempt ended without one. Answers
   * whether the outcomes waiting for their record came down to a refill mark (or to none), when they
   * are what holds new attempts back.
   */
  forget(deliveryId: string): boolean {
    const held = this.sending.get(deliveryId);
    if (held === undefined) return false;
    this.release(deliveryId);
    this.sending.delete(deliveryId);
    bump(this.claimedPerWebhook, held.webhookId, -1);
    return this.sending.size === 0 || atRefillMark(this.maxClaimed, this.sending.size);
  }

  /**
   * Whether the fan-out should wait for a slot of `webhookId` rather than create its delivery due, and
   * until when (on the pool's clock). It should while every slot the delivery could take is busy but answers keep
   * coming: within PACE_MS of the last one, so one frees soon. Undefined when a slot is free, or the
   * busy slots' receivers have not answered for PACE_MS (a slow receiver must not hold the fan-out, and
   * so every other webhook, back).
   */
  paceUntil(webhookId: string): number | undefined {
    if (this.mayTake(webhookId)) return undefined;
    // Held at its own bound (it does not answer quickly enough to borrow): its own answers free a slot;
    // else every slot it may take is busy, and anyone's answer frees one.
    // Attempts of its not started yet (this very step's hand-offs) count as moving now.
    const now = this.now();
    const own = this.unstarted.has(webhookId) ? now : this.progress.get(webhookId);
    const last = this.free > 0 && !this.answersQuickly(webhookId) ? own : this.progressAny;
    if (last === undefined) return undefined;
    const until = last + PACE_MS;
    return until > now ? until : undefined;
  }
}
