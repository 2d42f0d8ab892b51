import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { OutboxEntry } from './types.js';

/**
 * Outbox records and indexes. `queue` holds only entries with work to do: pending ones keyed by
 * when they are due, sending ones by when their lease ends; a poll is a range read of its head.
 */
export class OutboxStore {
  readonly entries: Collection<OutboxEntry>;

  constructor(storage: Storage) {
    this.entries = new Collection<OutboxEntry>(storage, 'email_outbox', (e) => e.id, [
      {
        name: 'queue',
        value: (e) => (e.status === 'pending' || e.status === 'sending' ? e.status : undefined),
        sort: (e) => (e.status === 'pending' ? (e.next_attempt_at ?? e.created_at) : (e.lease_until ?? e.updated_at)),
      },
      { name: 'status', value: (e) => e.status, sort: (e) => e.created_at },
      { name: 'organization', value: (e) => e.organization_id, sort: (e) => e.created_at },
      { name: 'created', value: () => '-', sort: (e) => e.created_at },
      { name: 'organization_status', value: (e) => [e.organization_id, e.status], sort: (e) => e.created_at },
    ]);
  }

  /** Pending entries due at or before `nowIso`, oldest first. */
  async dueIds(nowIso: string, limit: number): Promise<string[]> {
    const due = await this.entries.range('queue', 'pending', { upTo: nowIso, limit });
    return due.map((e) => e.id);
  }

  /** When the next pending entry is due (epoch ms), if any. */
  async nextDueAt(): Promise<number | undefined> {
    const [next] = await this.entries.range('queue', 'pending', { limit: 1 });
    if (next === undefined) return undefined;
    const at = Date.parse(next.sort);
    return Number.isNaN(at) ? undefined : at;
  }
}
