import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Collection } from './collection.js';
import type { CommitSet, Reader } from './engine.js';
import type { AfterCommit, Tx } from './port.js';

/**
 * The engine-agnostic half of a transaction: buffers writes (records with their index keys, appends,
 * meta values, wake-ups) for the engine to commit at once, and refuses a unique value another record
 * holds (stored, or claimed earlier in this transaction). Engines enforce uniqueness again as they
 * commit (PostgreSQL: UNIQUE constraints), so two daemons cannot both pass this check.
 */
export class BufferedTx implements Tx {
  private readonly set: CommitSet = { writes: [], appends: [], meta: [], wakes: [] };
  private readonly pending = new Map<string, object | undefined>();
  /** Records read by this transaction (it holds their locks, so they stay as read). */
  private readonly seen = new Map<string, object | undefined>();
  /** table, index, key -> the id holding it after this transaction's writes (undefined: released). */
  private readonly claims = new Map<string, string | undefined>();
  private readonly callbacks: AfterCommit[] = [];
  private readonly views = new Map<object, object>();

  /** `prefetched`: meta values the engine read with the locks (TransactionOptions.meta). */
  constructor(
    private readonly reader: Reader,
    private readonly prefetched?: ReadonlyMap<string, unknown>,
  ) {}

  read<T extends object>(collection: Collection<T>): Collection<T> {
    let view = this.views.get(collection) as Collection<T> | undefined;
    if (view === undefined) this.views.set(collection, (view = collection.through(this.reader)));
    return view;
  }

  readMeta(key: string): Promise<unknown> {
    if (this.prefetched?.has(key) === true) return Promise.resolve(this.prefetched.get(key));
    return this.reader.meta(key);
  }

  async get<T extends object>(collection: Collection<T>, id: string): Promise<T | undefined> {
    const key = pendingKey(collection.name, id);
    if (this.pending.has(key)) return this.pending.get(key) as T | undefined;
    if (this.seen.has(key)) return this.seen.get(key) as T | undefined;
    const record = (await this.reader.record(collection.table, id)) as T | undefined;
    this.seen.set(key, record);
    return record;
  }

  async getMany<T extends object>(collection: Collection<T>, ids: readonly string[]): Promise<(T | undefined)[]> {
    const unread = ids.filter((id) => {
      const key = pendingKey(collection.name, id);
      return !this.pending.has(key) && !this.seen.has(key);
    });
    if (unread.length > 0) {
      const records = await this.reader.recordsById(collection.table, unread);
      unread.forEach((id, n) => this.seen.set(pendingKey(collection.name, id), records[n] as object | undefined));
    }
    return ids.map((id) => {
      const key = pendingKey(collection.name, id);
      return (this.pending.has(key) ? this.pending.get(key) : this.seen.get(key)) as T | undefined;
    });
  }

  /** Tells the transaction what a record is as read under its lock elsewhere (a claim's locked read). */
  saw<T extends object>(collection: Collection<T>, id: string, record: T | undefined): void {
    this.seen.set(pendingKey(collection.name, id), record);
  }

  insert<T extends object>(collection: Collection<T>, record: T): void {
    const id = collection.idOf(record);
    if (collection.hasUnique) throw new TypeError(`${collection.name} has a unique index: put() checks it`);
    const keys = collection.keysOf(record);
    this.set.writes.push({ table: collection.table, id, value: record, keys, previous: undefined });
    this.pending.set(pendingKey(collection.name, id), record);
  }

  async put<T extends object>(collection: Collection<T>, record: T): Promise<T> {
    const id = collection.idOf(record);
    const previous = await this.get(collection, id);
    const keys = collection.keysOf(record);
    const previousKeys = previous === undefined ? undefined : collection.keysOf(previous);
    for (const [index, key] of keys) {
      if (!collection.isUnique(index) || previousKeys?.get(index) === key) continue;
      const claim = claimKey(collection.name, index, key);
      const holder = this.claims.has(claim) ? this.claims.get(claim) : await this.reader.uniqueId(collection.table, index, key);
      if (holder !== undefined && holder !== id)
        throw new AppError('conflict', `${collection.name} with this ${index} already exists`, { details: { field: index } });
    }
    this.release(collection, id, previousKeys, keys);
    for (const [index, key] of keys) if (collection.isUnique(index)) this.claims.set(claimKey(collection.name, index, key), id);
    this.set.writes.push({ table: collection.table, id, value: record, keys, previous: previousKeys });
    this.pending.set(pendingKey(collection.name, id), record);
    return record;
  }

  async delete<T extends object>(collection: Collection<T>, id: string): Promise<void> {
    const previous = await this.get(collection, id);
    if (previous === undefined) return;
    const previousKeys = collection.keysOf(previous);
    this.release(collection, id, previousKeys, new Map());
    this.set.writes.push({ table: collection.table, id, value: undefined, keys: new Map(), previous: previousKeys });
    this.pending.set(pendingKey(collection.name, id), undefined);
  }

  append<T extends object>(collection: Collection<T>, prefix: string, build: (id: string) => T): void {
    this.set.appends.push({
      table: collection.table,
      prefix,
      build: (id) => {
        const value = build(id);
        return { id: collection.idOf(value), value, keys: collection.keysOf(value) };
      },
    });
  }

  putMeta(key: string, value: unknown): void {
    this.set.meta.push([key, value]);
  }

  wake(topic: string): void {
    if (!this.set.wakes.includes(topic)) this.set.wakes.push(topic);
  }

  afterCommit(fn: AfterCommit): void {
    this.callbacks.push(fn);
  }

  /** What the engine commits. */
  get commitSet(): CommitSet {
    return this.set;
  }

  /** Runs the after-commit callbacks (each isolated: one that throws is logged, the rest still run). */
  committed(log: Logger): void {
    for (const fn of this.callbacks) {
      try {
        fn();
      } catch (err) {
        log.error({ err }, 'after-commit callback failed');
      }
    }
  }

  /** Unique values the previous version held and the next one does not are free again. */
  private release(
    collection: { name: string; isUnique(index: string): boolean },
    id: string,
    before: Map<string, string> | undefined,
    after: Map<string, string>,
  ): void {
    if (before === undefined) return;
    for (const [index, key] of before) {
      if (!collection.isUnique(index) || after.get(index) === key) continue;
      const claim = claimKey(collection.name, index, key);
      if (!this.claims.has(claim) || this.claims.get(claim) === id) this.claims.set(claim, undefined);
    }
  }
}

function pendingKey(table: string, id: string): string {
  return `${table}\x00${id}`;
}

function claimKey(table: string, index: string, key: string): string {
  return `${table}\x00${index}\x00${key}`;
}
