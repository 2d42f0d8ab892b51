import { Collection } from './collection.js';
import { Counters } from './counters.js';
import type { CollectionName } from './keyspace.js';
import { newSortableId } from './keys.js';
import type { Storage, Tx } from './port.js';

export const HOUR_MS = 3_600_000;
/** One counted event of a subject (an organization, a principal, an address), at a time. */
export interface HourlyLogEntry {
  id: string;
  subject: string;
  /** ISO 8601: its fixed width makes string order time order. */
  at: string;
}

/**
 * A sliding-hour rate limit kept as a log per subject, with the number of entries each subject has
 * stored kept beside it (storage/counters.ts). A check deletes the entries that left the hour (each
 * entry is deleted once, so this is constant per write over time) and then reads that count: never
 * a count of the subject's history, which cost a read of up to `max` keys on every write (a
 * thousand on an organization sending its thousand invitations an hour). Callers run tryConsume in
 * a transaction that locks the subject, with the action it counts, so concurrent attempts (on any
 * daemon) never pass the limit.
 */
export class HourlyLog<T extends HourlyLogEntry> {
  readonly entries: Collection<T>;
  private readonly stored: Counters;

  constructor(storage: Storage, name: CollectionName) {
    this.entries = new Collection<T>(storage, name, (e) => e.id, [
      { name: 'subject', value: (e) => e.subject, sort: (e) => e.at },
    ]);
    this.stored = new Counters(storage, name);
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
   * (with `fields`) and the deletion of entries that left the hour, and returns null. Otherwise
   * returns how long until a slot frees (ms) and queues nothing that counts.
   */
  async tryConsume(
    tx: Tx,
    subject: string,
    max: number,
    now: number,
    fields: Omit<T, 'id' | 'subject' | 'at'>,
  ): Promise<number | null> {
    const windowStart = new Date(now - HOUR_MS).toISOString();
    const entries = tx.read(this.entries);
    let count = await this.stored.read(tx, subject, () => entries.countBy('subject', subject));
    // Every entry that left the hour goes now (reads in `tx` do not see its deletions, so all at once).
    const stale = await entries.range('subject', subject, { upTo: windowStart });
    for (const { id } of stale) await tx.delete(this.entries, id);
    count -= stale.length;
    if (count >= max) {
      // Oldest first: once the (count - max + 1)-th oldest leaves the window, fewer than max remain.
      let oldest = await entries.range('subject', subject, { after: windowStart, limit: count - max + 1 });
      if (oldest.length < count - max + 1) {
        // The count said more than the log holds: the log decides (a wrong count must not shut a subject out).
        count = await entries.countRange('subject', subject, { after: windowStart });
        oldest = count >= max ? await entries.range('subject', subject, { after: windowStart, limit: count - max + 1 }) : [];
      }
      if (count >= max) return Date.parse(oldest[oldest.length - 1].sort) + HOUR_MS - now;
    }
    const entry = { ...fields, id: newSortableId(), subject, at: new Date(now).toISOString() } as T;
    await tx.put(this.entries, entry);
    await this.stored.write(tx, subject, count + 1);
    return null;
  }
}
