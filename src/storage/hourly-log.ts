import { Collection } from './collection.js';
import type { CollectionName } from './keyspace.js';
import { newSortableId } from './keys.js';
import type { Storage, Tx } from './port.js';

export const HOUR_MS = 3_600_000;
/** Entries that have left the window, pruned per write. */
const PRUNE_BATCH = 100;

/** One counted event of a subject (an organization, a principal, an address), at a time. */
export interface HourlyLogEntry {
  id: string;
  subject: string;
  /** ISO 8601: its fixed width makes string order time order. */
  at: string;
}

/**
 * A sliding-hour rate limit kept as a log per subject. A check reads index keys only, newest first
 * and at most the limit: never a scan of the subject's history. Callers run tryConsume in a
 * transaction that locks the subject, with the action it counts, so concurrent attempts (on any
 * daemon) never pass the limit.
 */
export class HourlyLog<T extends HourlyLogEntry> {
  readonly entries: Collection<T>;

  constructor(storage: Storage, name: CollectionName) {
    this.entries = new Collection<T>(storage, name, (e) => e.id, [
      { name: 'subject', value: (e) => e.subject, sort: (e) => e.at },
    ]);
  }

  /** Times (epoch ms) of the subject's entries in the last hour, newest first, at most `max`. */
  async recent(subject: string, now: number, max: number, tx?: Tx): Promise<number[]> {
    const entries = await this.entries.in(tx).range('subject', subject, {
      after: new Date(now - HOUR_MS).toISOString(),
      reverse: true,
      limit: max,
    });
    return entries.map((e) => Date.parse(e.sort));
  }

  /**
   * When the subject has fewer than `max` entries in the last hour: queues in `tx` a new entry
   * (with `fields`) and the pruning of entries that left the hour, and returns null. Otherwise
   * returns how long until a slot frees (ms) and queues nothing.
   */
  async tryConsume(
    tx: Tx,
    subject: string,
    max: number,
    now: number,
    fields: Omit<T, 'id' | 'subject' | 'at'>,
  ): Promise<number | null> {
    const recent = await this.recent(subject, now, max, tx);
    // Newest first: once the max-th newest leaves the window, fewer than max remain.
    if (recent.length >= max) return recent[max - 1] + HOUR_MS - now;
    const stale = await tx.read(this.entries).range('subject', subject, {
      upTo: new Date(now - HOUR_MS).toISOString(),
      limit: PRUNE_BATCH,
    });
    for (const { id } of stale) await tx.delete(this.entries, id);
    const entry = { ...fields, id: newSortableId(), subject, at: new Date(now).toISOString() } as T;
    await tx.put(this.entries, entry);
    return null;
  }
}
