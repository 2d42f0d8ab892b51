import { Collection } from './collection.js';
import type { Storage, Tx } from './port.js';

/** One count: what it counts and of whom in its id (`<what>:<subject>`). */
export interface CountRecord {
  id: string;
  count: number;
}

/**
 * Counts kept in the transactions that change what they count, so that a limit check reads one
 * record whatever the count (900 pending invitations cost what 0 do). Writers hold the subject's
 * lock. A count never written yet (data from before counts were kept) is counted once, by `recount`,
 * and stored by the first change.
 */
export class Counters {
  readonly records: Collection<CountRecord>;

  constructor(
    storage: Storage,
    private readonly what: string,
  ) {
    this.records = new Collection<CountRecord>(storage, 'counters', (c) => c.id);
  }

  private idOf(subject: string): string {
    return `${this.what}:${subject}`;
  }

  /** The subject's count as `tx` sees it; `recount` answers it when none is stored yet. */
  async read(tx: Tx, subject: string, recount: () => Promise<number>): Promise<number> {
    const stored = await tx.get(this.records, this.idOf(subject));
    return stored === undefined ? recount() : stored.count;
  }

  /** Queues the subject's new count in `tx`. */
  async write(tx: Tx, subject: string, count: number): Promise<void> {
    await tx.put(this.records, { id: this.idOf(subject), count: Math.max(0, count) });
  }

  /** Adds `delta` to the subject's count in `tx` (read first, recounted when absent). */
  async add(tx: Tx, subject: string, delta: number, recount: () => Promise<number>): Promise<void> {
    if (delta === 0) return;
    await this.write(tx, subject, (await this.read(tx, subject, recount)) + delta);
  }
}
