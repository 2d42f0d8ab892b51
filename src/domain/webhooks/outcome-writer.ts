import type { Logger } from '../../log.js';
import { isoAt, newSortableId } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { deliveryLock, handOffLock } from './service.js';
import { DELIVERIES_TOPIC, type WebhookStore } from './store.js';
import type { Delivery, HandOffBatch } from './types.js';

/** Outcomes written per transaction at most. */
const RECORD_BATCH = 256;

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
 * Writes attempts' outcomes to their delivery records, those that finish together in one transaction,
 * and keeps this daemon's hand-off batches (fanout.ts) until each of their deliveries has its record.
 * An outcome is written only while its claim is still this daemon's: the delivery's lease, or for a
 * handed-off delivery's first attempt, its batch's.
 */
export class OutcomeWriter {
  /** Outcomes waiting to be written, and whether a batch of them is being written now. */
  private readonly outcomes: QueuedOutcome[] = [];
  private recording = false;
  /**
   * This daemon's hand-off batches from creation until every attempt is settled: `open`, the outcomes
   * neither written nor given up; `abandoned`, whether one was given up (its write failed), so the
   * stored batch stays for a takeover to write that delivery pending.
   */
  private readonly batches = new Map<string, { record: HandOffBatch; open: number; abandoned: boolean }>();

  constructor(
    private readonly storage: Storage,
    private readonly store: WebhookStore,
    private readonly instanceId: string,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  /** Whether the batch is this daemon's and not settled yet (a takeover leaves it alone). */
  knows(batchId: string): boolean {
    return this.batches.has(batchId);
  }

  /** The record a fan-out step's handed-off deliveries are written as: leased to this daemon. */
  openBatch(deliveries: Delivery[], now: string): HandOffBatch {
    const record: HandOffBatch = {
      id: newSortableId('hof_'),
      lease_owner: this.instanceId,
      lease_until: isoAt(Date.now() + this.leaseMs),
      created_at: now,
      deliveries: deliveries.map((d) => ({
        id: d.id,
        webhook_id: d.webhook_id,
        organization_id: d.organization_id,
        webhook_organization_id: d.webhook_organization_id,
        event_id: d.event_id,
        event_kind: d.event_kind,
      })),
    };
    // Known here before its transaction commits, so a takeover never mistakes it for an abandoned one.
    this.batches.set(record.id, { record, open: deliveries.length, abandoned: false });
    return record;
  }

  /** A hand-off batch whose transaction did not commit. */
  dropBatch(batchId: string): void {
    this.batches.delete(batchId);
  }

  /**
   * A handed-off delivery whose outcome could not be written: its batch stays stored, and once none of
   * its attempts runs here a takeover writes the deliveries without a record pending (at once on
   * exclusive storage, after the lease elsewhere).
   */
  abandon(batchId: string): void {
    const batch = this.batches.get(batchId);
    if (batch === undefined) return;
    batch.abandoned = true;
    if (--batch.open <= 0) this.batches.delete(batchId);
  }

  /**
   * Writes the outcome under the delivery's lock, if the lease is still this daemon's (a handed-off
   * delivery's first: under its batch's lock, if the batch is still this daemon's). Outcomes that
   * finish while another batch commits are written together, in one transaction. Answers the record
   * written, or undefined when the claim was lost.
   */
  record(
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
    const store = this.store;
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
   * Whether the stored delivery is still the attempt's to record: pending, at the attempt it was
   * claimed at, and leased to this daemon, or (exclusive storage, where claims are held in memory)
   * not held meanwhile.
   */
  private stillClaimed(current: Delivery | undefined, claimed: Delivery): current is Delivery {
    if (current?.status !== 'pending' || current.attempt !== claimed.attempt) return false;
    return current.lease_owner === this.instanceId || (this.storage.exclusive && !current.held);
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
}
