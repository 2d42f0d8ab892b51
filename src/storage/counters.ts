import { Collection } from './collection.js';
import type { Storage, Tx } from './port.js';

/** One count: what it counts and of whom in its id (`<what>:<subject>`). */
export interface CountRecord {
  id: string;
  count: number;
}

/** A count's id: what it counts, then whose. */
export function countId(what: string, subject: string): string {
  return `${what}:${subject}`;
}

/**
 * Counts kept in the transactions that change what they count, so that a limit check reads one
 * record whatever the count (900 pending invitations cost what 0 do). Writers hold the subject's
 * lock. A count never written yet (data from before counts were kept) is counted once, by `recount`,
 * and stored by the first change.
 */
export class Counters<R extends CountRecord = CountRecord> {
  readonly records: Collection<R>;

  constructor(
    storage: Storage,
    private readonly what: string,
  ) {
    this.records = new Collection<R>(storage, 'counters', (c) => c.id);
  }

  /** The id of the subject's record. */
  idOf(subject: string): string {
    return countId(this.what, subject);
  }

  /** The subject's record as `tx` sees it (undefined: none written yet). */
  stored(tx: Tx, subject: string): Promise<R | undefined> {
    return tx.get(this.records, countId(this.what, subject));
  }

  /** Queues the subject's record in `tx` (its count never below 0). */
  async store(tx: Tx, subject: string, fields: Omit<R, 'id'>): Promise<void> {
    await tx.put(this.records, { ...fields, id: countId(this.what, subject), count: Math.max(0, fields.count) } as R);
  }

  /** The subject's count as `tx` sees it; `recount` answers it when none is stored yet. */
  async read(tx: Tx, subject: string, recount: () => Promise<number>): Promise<number> {
    const stored = await this.stored(tx, subject);
    return stored === undefined ? recount() : stored.count;
  }

  /** Queues the subject's new count in `tx`. */
  async write(tx: Tx, subject: string, count: number): Promise<void> {
    await this.store(tx, subject, { count } as Omit<R, 'id'>);
  }

  /** Adds `delta` to the subject's count in `tx` (read first, recounted when absent). */
  async add(tx: Tx, subject: string, delta: number, recount: () => Promise<number>): Promise<void> {
    if (delta === 0) return;
    await this.write(tx, subject, (await this.read(tx, subject, recount)) + delta);
  }
}
