import { Collection } from '../../storage/collection.js';
import type { Storage, Sublevel } from '../../storage/db.js';
import { indexSublevelName } from '../../storage/keyspace.js';
import { compositeKey, lastPart, prefixRange } from '../../storage/keys.js';
import type { OutboxEntry } from './types.js';

/**
 * Outbox records and indexes. `queue` holds only entries with work to do: pending ones keyed by
 * when they are due, sending ones by when their lease ends; a poll is a range read of its head.
 */
export class OutboxStore {
  readonly entries: Collection<OutboxEntry>;
  private readonly queue: Sublevel;

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
    this.queue = storage.sublevel(indexSublevelName('email_outbox', 'queue'));
  }

  /** Pending entries due at or before `nowIso`, oldest first. */
  async dueIds(nowIso: string, limit: number): Promise<string[]> {
    const { gt } = prefixRange('pending');
    const keys = await this.queue.keys({ gt, lt: compositeKey('pending', nowIso) + '\x01', limit }).all();
    return keys.map(lastPart);
  }

  /** Entries being sent (by this daemon or by one that stopped mid-send), soonest lease end first. */
  async leasedIds(limit: number): Promise<string[]> {
    const keys = await this.queue.keys({ ...prefixRange('sending'), limit }).all();
    return keys.map(lastPart);
  }

  /** When the next pending entry is due (epoch ms), if any. */
  async nextDueAt(): Promise<number | undefined> {
    const [key] = await this.queue.keys({ ...prefixRange('pending'), limit: 1 }).all();
    if (key === undefined) return undefined;
    const at = Date.parse(key.split('\x00')[1] ?? '');
    return Number.isNaN(at) ? undefined : at;
  }
}
