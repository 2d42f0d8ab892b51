import { Collection } from './collection.js';
import { countId, Counters, type CountRecord } from './counters.js';
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

/** The names of the hourly logs, each a collection of its own (and its counts' id prefix). */
export const HOURLY_LOGS = ['invitation_sends', 'invitation_recipient_sends', 'organization_creates'] as const;
export type HourlyLogName = (typeof HOURLY_LOGS)[number];

/**
 * What a subject has stored in a log, kept in the `counters` collection beside the other counts:
 * how many entries and when the oldest of them was made (null with none). `oldest` is missing from
 * counts written before it was kept; a check then reads the log once and stores it.
 */
export interface HourlyCount extends CountRecord {
  oldest?: string | null;
}

/**
 * A sliding-hour rate limit kept as a log per subject, with what each subject has stored kept beside
 * it (HourlyCount). A check reads that one record: only when its oldest entry has left the hour does
 * it read the log, to delete the entries that left (each entry is deleted once, so this is constant
 * per write over time). A subject with no count has no entries (storage migrations counted every
 * subject once), so a first send reads no log either. Callers run tryConsume in a transaction that
 * locks the subject, with the action it counts, so concurrent attempts (on any daemon) never pass
 * the limit.
 */
export class HourlyLog<T extends HourlyLogEntry> {
  readonly entries: Collection<T>;
  private readonly counts: Counters<HourlyCount>;

  constructor(storage: Storage, name: HourlyLogName) {
    this.entries = new Collection<T>(storage, name, (e) => e.id, [
      { name: 'subject', value: (e) => e.subject, sort: (e) => e.at },
    ]);
    this.counts = new Counters<HourlyCount>(storage, name);
  }

  /** The id of the subject's count (a record of the `counters` collection, read with others by getMany). */
  countIdOf(subject: string): string {
    return this.counts.idOf(subject);
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
    const stored = await this.counts.stored(tx, subject);
    let count = stored?.count ?? 0;
    let oldest = stored === undefined ? null : stored.oldest;
    if (count > 0 && (oldest === undefined || oldest === null || oldest <= windowStart)) {
      // Some entries left the hour (or when the oldest was made is not known): they all go now
      // (reads in `tx` do not see its deletions, so all at once), and the oldest left is read.
      const stale = await entries.range('subject', subject, { upTo: windowStart });
      for (const e of stale) await tx.delete(this.entries, e.id);
      count -= stale.length;
      const [first] = count > 0 ? await entries.range('subject', subject, { after: windowStart, limit: 1 }) : [];
      oldest = first?.sort ?? null;
      if (first === undefined) count = 0;
    }
    if (count >= max) {
      // Oldest first: once the (count - max + 1)-th oldest leaves the window, fewer than max remain.
      let leaving = await entries.range('subject', subject, { after: windowStart, limit: count - max + 1 });
      if (leaving.length < count - max + 1) {
        // The count said more than the log holds: the log decides (a wrong count must not shut a subject out).
        count = await entries.countRange('subject', subject, { after: windowStart });
        leaving = count >= max ? await entries.range('subject', subject, { after: windowStart, limit: count - max + 1 }) : [];
      }
      if (count >= max) return Date.parse(leaving[leaving.length - 1].sort) + HOUR_MS - now;
    }
    const entry = { ...fields, id: newSortableId(), subject, at: new Date(now).toISOString() } as T;
    // A new time-sortable id: no earlier version to read.
    tx.insert(this.entries, entry);
    await this.counts.store(tx, subject, { count: count + 1, oldest: oldest ?? entry.at });
    return null;
  }
}

/**
 * Every subject's count of a log as it stands (entries stored, the oldest's time): what the storage
 * migrations write once, so that a subject with no count has no entries.
 */
export function countSubjects(entries: Iterable<HourlyLogEntry>, log: HourlyLogName): HourlyCount[] {
  const counts = new Map<string, HourlyCount>();
  for (const e of entries) {
    const id = countId(log, e.subject);
    const c = counts.get(id);
    if (c === undefined) counts.set(id, { id, count: 1, oldest: e.at });
    else {
      c.count++;
      if (e.at < c.oldest!) c.oldest = e.at;
    }
  }
  return [...counts.values()];
}
