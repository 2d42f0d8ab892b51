import { Collection } from './collection.js';
import type { CollectionName } from './keyspace.js';
import { compositeKey, newSortableId, prefixRange, SEP } from './keys.js';
import type { Storage, Tx } from './port.js';

export const HOUR_MS = 3_600_000;
/** Entries that have left the window, pruned per write. */
const PRUNE_BATCH = 100;

/** One counted event: keyed subject, zero-padded epoch ms, sortable id, so key order is time order. */
export interface HourlyLogEntry {
  key: string;
  at: string;
}

/** Epoch milliseconds, zero-padded so that key order is time order. */
function timeKey(ms: number): string {
  return String(Math.max(0, Math.trunc(ms))).padStart(15, '0');
}

/**
 * A sliding-hour rate limit kept as a log per subject (an organization, a principal, an address).
 * A check reads keys only, newest first and at most the limit: never a scan of the subject's history.
 * Callers run tryConsume in a transaction that locks the subject, with the action it counts, so
 * concurrent attempts (on any daemon) never pass the limit.
 */
export class HourlyLog<T extends HourlyLogEntry> {
  readonly entries: Collection<T>;

  constructor(
    private readonly storage: Storage,
    name: CollectionName,
  ) {
    this.entries = new Collection<T>(storage, name, (e) => e.key);
  }

  /** Times (epoch ms) of the subject's entries in the last hour, newest first, at most `max`. */
  async recent(subject: string, now: number, max: number): Promise<number[]> {
    const { lt } = prefixRange(subject);
    const keys = await this.storage
      .reader()
      .recordIds(this.entries.table, { gt: compositeKey(subject, timeKey(now - HOUR_MS)), lt, reverse: true, limit: max });
    return keys.map((k) => Number(k.split(SEP)[1]));
  }

  /**
   * When the subject has fewer than `max` entries in the last hour: queues in `tx` a new entry
   * (with `fields`) and the pruning of entries that left the hour, and returns null. Otherwise
   * returns how long until a slot frees (ms) and queues nothing.
   */
  async tryConsume(tx: Tx, subject: string, max: number, now: number, fields: Omit<T, 'key' | 'at'>): Promise<number | null> {
    const recent = await this.recent(subject, now, max);
    // Newest first: once the max-th newest leaves the window, fewer than max remain.
    if (recent.length >= max) return recent[max - 1] + HOUR_MS - now;
    const { gt } = prefixRange(subject);
    const stale = await this.storage
      .reader()
      .recordIds(this.entries.table, { gt, lt: compositeKey(subject, timeKey(now - HOUR_MS)), limit: PRUNE_BATCH });
    for (const key of stale) await tx.delete(this.entries, key);
    const entry = { ...fields, key: compositeKey(subject, timeKey(now), newSortableId()), at: new Date(now).toISOString() } as T;
    await tx.put(this.entries, entry);
    return null;
  }
}
