import type { Collection } from './collection.js';
import type { BatchOp, Storage, Sublevel } from './db.js';

type AfterCommit = () => void;

/**
 * Gathers puts and deletes across collections (records, their indexes, events) and commits them
 * as one LevelDB batch: all of it is written or none of it. Callbacks registered with afterCommit
 * run only once the batch is durable (e.g. telling event subscribers).
 */
export class UnitOfWork {
  private readonly ops: BatchOp[] = [];
  private readonly pending = new Map<string, object | undefined>();
  private readonly callbacks: AfterCommit[] = [];
  private committed = false;

  constructor(readonly storage: Storage) {}

  /** Writes a record (insert or replace), updating its indexes against the stored or pending version. */
  async put<T extends object>(collection: Collection<T>, record: T): Promise<T> {
    const previous = await this.current(collection, collection.idOf(record));
    this.ops.push(...collection.writeOps(record, previous, this.queued));
    this.pending.set(this.pendingKey(collection, collection.idOf(record)), record);
    return record;
  }

  /** Deletes a record and its index entries; a missing record is a no-op. */
  async delete<T extends object>(collection: Collection<T>, id: string): Promise<void> {
    const previous = await this.current(collection, id);
    if (previous === undefined) return;
    this.ops.push(...collection.writeOps(undefined, previous, this.queued));
    this.pending.set(this.pendingKey(collection, id), undefined);
  }

  /** A raw key-value write to a plain table (meta, cursors). */
  putRaw(sublevel: Sublevel, key: string, value: unknown): void {
    this.ops.push({ type: 'put', sublevel, key, value });
  }

  /** A raw delete from a plain table or an index sublevel (an index rebuild clears it first). */
  delRaw(sublevel: Sublevel, key: string): void {
    this.ops.push({ type: 'del', sublevel, key });
  }

  afterCommit(fn: AfterCommit): void {
    this.callbacks.push(fn);
  }

  async commit(): Promise<void> {
    if (this.committed) throw new TypeError('unit of work already committed');
    this.committed = true;
    await this.storage.batch(this.ops);
    for (const fn of this.callbacks) {
      try {
        fn();
      } catch (err) {
        this.storage.log.error({ err }, 'after-commit callback failed');
      }
    }
  }

  /** The last queued write to `key`, if any: a later op in one batch wins, as in LevelDB. */
  private readonly queued = (sublevel: Sublevel, key: string): { found: boolean; value?: unknown } => {
    for (let i = this.ops.length - 1; i >= 0; i--) {
      const op = this.ops[i];
      if (op.sublevel === sublevel && op.key === key) return { found: true, value: op.type === 'put' ? op.value : undefined };
    }
    return { found: false };
  };

  /** A record as this unit of work will leave it: its queued write if any, else the stored one. */
  async get<T extends object>(collection: Collection<T>, id: string): Promise<T | undefined> {
    return this.current(collection, id);
  }

  private async current<T extends object>(collection: Collection<T>, id: string): Promise<T | undefined> {
    const key = this.pendingKey(collection, id);
    if (this.pending.has(key)) return this.pending.get(key) as T | undefined;
    return collection.get(id);
  }

  private pendingKey(collection: { name: string }, id: string): string {
    return `${collection.name}\x00${id}`;
  }
}

/** Runs `fn` with a fresh unit of work and commits it. */
export async function inUnitOfWork<R>(storage: Storage, fn: (uow: UnitOfWork) => Promise<R>): Promise<R> {
  const uow = new UnitOfWork(storage);
  const result = await fn(uow);
  await uow.commit();
  return result;
}
