import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AbstractSublevel } from 'abstract-level';
import { Level } from 'level';
import { AppError } from '../../errors.js';
import { createLogThrottle } from '../../log-throttle.js';
import type { Logger } from '../../log.js';
import type { Collection } from '../collection.js';
import { WRITE_PROBE_KEY, type CommitSet, type KeyRange, type Reader, type TableDef } from '../engine.js';
import { collections, indexSublevelName, tables } from '../keyspace.js';
import { sortableIdAfter } from '../keys.js';
import type { BackupEntry, ClaimOptions, Storage, TransactionOptions, Tx } from '../port.js';
import { remember } from '../read-cache.js';
import { StorageLockedError, StorageOpenError } from '../errors.js';
import { BufferedTx } from '../transaction.js';
import { KeyedLock } from './lock.js';
import { ReadFloors, type BatchPuts } from './read-floors.js';
import { checkNotNested, checkOutsideTx, runChecked } from '../tx-check.js';
import { WakeTopics } from '../wake-topics.js';

export type Db = Level<string, unknown>;
export type Sublevel = AbstractSublevel<Db, string | Buffer | Uint8Array, string, unknown>;
export interface BatchOp {
  type: 'put' | 'del';
  sublevel: Sublevel;
  key: string;
  value?: unknown;
}

const declared = new Set<string>([
  ...Object.values(tables),
  ...Object.entries(collections).flatMap(([name, spec]) => [name, ...spec.indexes.map((i) => indexSublevelName(name, i))]),
]);

/** The same storage failure is logged at most once per this many milliseconds (with a count). */
const FAILURE_LOG_INTERVAL_MS = 10_000;

/** Most records a read cache holds per sublevel; the oldest entry goes first when it is full. */
export const READ_CACHE_MAX_ENTRIES = 20_000;
/** Index keys read per step when counting (see countKeys), and per step of a long range read. */
const COUNT_BATCH = 1000;
/**
 * Entries of a range read's first step, eight times more each next step (up to COUNT_BATCH).
 * classic-level reserves native room for a whole step (64 bytes an entry) and keeps it, with the
 * keys last read, until V8 collects the closed iterator, which may be many thousands of reads later:
 * abstract-level's all() asks for 1,000 at a time, so a read that found nothing held 64 KB outside
 * the V8 heap (RssAnon grew by 50 MiB per 1,000 invitations). Most reads find a few entries.
 */
const FIRST_STEP = 16;

export interface LevelOptions {
  /** SERVICE_STORAGE_SYNC=on: every commit is flushed to disk (fsync) before it is acknowledged. */
  sync?: boolean;
}

interface QueuedCommit {
  set: CommitSet;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The embedded engine: LevelDB in `<data dir>/db`, one daemon per data dir (LevelDB's lock). Every
 * commit goes through one writer that takes whatever has queued meanwhile and writes it as one
 * batch (group commit): with sync on, concurrent transactions share one fsync. Appended ids are taken
 * in that writer, so id order is commit order. Point reads are synchronous (getSync, about 1 us
 * against about 20 us through the libuv pool) and hot tables keep a read cache that every commit
 * keeps exact: this process is the only writer.
 */
/** The meta key holding the data's schema version (leveldb/migrate.ts writes it). */
export const SCHEMA_VERSION_KEY = 'schema_version';

export class LevelStorage implements Storage {
  readonly engine = 'leveldb' as const;
  readonly exclusive = true;
  readonly locks = new KeyedLock();
  private readonly sublevels = new Map<string, Sublevel>();
  /** Read-through caches of hot sublevels (decoded values, frozen), invalidated by every batch. */
  private readonly caches = new Map<Sublevel, Map<string, unknown>>();
  /** Where the live keys of index ranges begin (read-floors.ts): reads skip the deletions before them. */
  private readonly floors = new ReadFloors<Sublevel>();
  private readonly failures = createLogThrottle(FAILURE_LOG_INTERVAL_MS);
  /** Who waits for which topic (tests count a topic's listeners). */
  readonly wakeTopics: WakeTopics;
  private readonly lastAppended = new Map<string, string | undefined>();
  private queue: QueuedCommit[] = [];
  private writing = false;
  private lastWriteOk = true;
  private probing: Promise<boolean> | undefined;
  readonly sharedReader: Reader;

  private constructor(
    readonly db: Db,
    readonly log: Logger,
    private readonly sync: boolean,
  ) {
    this.sharedReader = this.makeReader();
    this.wakeTopics = new WakeTopics(log);
  }

  static async open(dataDir: string, log: Logger, options: LevelOptions = {}): Promise<LevelStorage> {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const location = path.join(dataDir, 'db');
    const db: Db = new Level<string, unknown>(location, { valueEncoding: 'json' });
    try {
      await db.open();
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') throw new StorageLockedError(location);
      const reason = (cause as { message?: string } | undefined)?.message ?? (err as Error).message;
      throw new StorageOpenError(`cannot open the database in ${location}: ${reason.split('\n')[0]}`, { cause: err });
    }
    log.debug({ location, sync: options.sync === true }, 'storage open');
    const storage = new LevelStorage(db, log, options.sync === true);
    // Every declared sublevel is open before the daemon serves, so point reads can be synchronous.
    await Promise.all([...declared].map((name) => storage.sublevel(name).open()));
    return storage;
  }

  /** A sublevel by its keyspace name; undeclared names are a programmer error. */
  sublevel(name: string): Sublevel {
    if (!declared.has(name)) throw new TypeError(`sublevel "${name}" is not declared in storage/keyspace.ts`);
    let sub = this.sublevels.get(name);
    if (sub === undefined) {
      sub = this.db.sublevel<string, unknown>(name, { valueEncoding: 'json' });
      this.sublevels.set(name, sub);
    }
    return sub;
  }

  async schemaVersion(): Promise<number> {
    const version = await this.meta.get(SCHEMA_VERSION_KEY);
    return typeof version === 'number' ? version : 0;
  }

  /** Every key and value as stored (sublevel prefixes included); an iterator reads the state it was made in. */
  async *backupEntries(): AsyncIterable<BackupEntry> {
    for await (const [k, v] of this.db.iterator<string, string>({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) yield { k, v };
  }

  /** Writes raw keys and values (a restore into an empty database). */
  async restoreEntries(entries: readonly { k: string; v: string }[]): Promise<void> {
    this.floors.clear();
    await this.db.batch<string, string>(
      entries.map((e) => ({ type: 'put' as const, key: e.k, value: e.v })),
      { keyEncoding: 'utf8', valueEncoding: 'utf8', sync: true },
    );
  }

  /** True when nothing at all is stored. */
  async isEmpty(): Promise<boolean> {
    for await (const _ of this.db.keys({ limit: 1 })) return false;
    return true;
  }

  get meta(): Sublevel {
    return this.sublevel(tables.meta);
  }

  reader(): Reader {
    return this.sharedReader;
  }

  async transaction<R>(options: TransactionOptions, fn: (tx: Tx) => Promise<R>): Promise<R> {
    checkNotNested();
    return this.locks.runAll([...(options.locks ?? [])], async () => {
      const tx = new BufferedTx(this.sharedReader);
      const result = await runChecked(() => fn(tx));
      await this.commit(tx.commitSet);
      tx.committed(this.log);
      return result;
    });
  }

  readMeta(key: string): Promise<unknown> {
    return Promise.resolve().then(() => {
      checkOutsideTx(`readMeta(${key})`);
      return this.meta.getSync(key);
    });
  }

  async claim<T extends object>(collection: Collection<T>, options: ClaimOptions<T>): Promise<T[]> {
    // One claim of a collection at a time, so a second claimer reads past what the first took (as
    // SKIP LOCKED does on PostgreSQL) instead of finding the same candidates taken.
    return this.locks.run(`claim\x00${collection.name}`, () => this.claimNow(collection, options));
  }

  private async claimNow<T extends object>(collection: Collection<T>, options: ClaimOptions<T>): Promise<T[]> {
    const { candidates, limit } = options;
    const ids =
      'ids' in candidates
        ? candidates.ids.slice(0, limit)
        : (await collection.range(candidates.index, candidates.value, { upTo: candidates.upTo, limit })).map((e) => e.id);
    // Skip locked: whoever holds one is changing that record now. The rest are taken in one transaction.
    const free = ids.filter((id) => !this.locks.isHeld(options.lockOf(id)));
    if (free.length === 0) return [];
    return this.transaction({ locks: free.map(options.lockOf) }, async (tx) => {
      const claimed: T[] = [];
      for (const record of await tx.getMany(collection, free)) {
        const next = record === undefined ? undefined : options.take(record);
        if (next === undefined) continue;
        if (next !== record) await tx.put(collection, next);
        claimed.push(next);
      }
      return claimed;
    });
  }

  get background(): Storage {
    return this;
  }

  onWake(topic: string, fn: () => void): () => void {
    return this.wakeTopics.on(topic, fn);
  }

  /** Queues the set for the writer; resolves once it is written (and synced, with sync on). */
  commit(set: CommitSet): Promise<void> {
    if (set.writes.length === 0 && set.appends.length === 0 && set.meta.length === 0) {
      this.wakeTopics.wake(set.wakes);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ set, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  /** Raw batch operations, written through the writer (index rebuilds, tests). */
  async writeOps(ops: BatchOp[]): Promise<void> {
    if (ops.length === 0) return;
    await this.batch(ops);
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue;
        this.queue = [];
        const ops: BatchOp[] = [];
        const accepted: QueuedCommit[] = [];
        // Unique values claimed by earlier commits of this group (index sublevel + key -> id).
        const claimed = new Map<string, string | undefined>();
        for (const item of group) {
          try {
            ops.push(...(await this.opsOf(item.set, claimed)));
            accepted.push(item);
          } catch (err) {
            item.reject(err);
          }
        }
        try {
          await this.batch(ops);
          for (const item of accepted) {
            this.wakeTopics.wake(item.set.wakes);
            item.resolve();
          }
        } catch (err) {
          // Appended ids taken for a batch that failed are not reused: the next commit reads past them.
          this.lastAppended.clear();
          for (const item of accepted) item.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** Batch operations of one commit: records and index entries, appends with their ids, meta values. */
  private async opsOf(set: CommitSet, claimed: Map<string, string | undefined>): Promise<BatchOp[]> {
    const ops: BatchOp[] = [];
    const local = new Map(claimed);
    for (const w of set.writes) {
      for (const index of w.table.indexes) {
        const sub = this.sublevel(indexSublevelName(w.table.name, index.name));
        const oldKey = w.previous?.get(index.name);
        const newKey = w.keys.get(index.name);
        if (oldKey === newKey) continue;
        if (oldKey !== undefined) {
          ops.push({ type: 'del', sublevel: sub, key: oldKey });
          if (index.unique) local.set(`${sub.prefix}${oldKey}`, undefined);
        }
        if (newKey === undefined) continue;
        if (index.unique) {
          // Checked again as it is written: the engine, not the callers' locks, keeps a value unique.
          const slot = `${sub.prefix}${newKey}`;
          const holder = local.has(slot) ? local.get(slot) : (sub.getSync(newKey) as string | undefined);
          if (holder !== undefined && holder !== w.id)
            throw new AppError('conflict', `${w.table.name} with this ${index.name} already exists`, {
              details: { field: index.name },
            });
          local.set(slot, w.id);
        }
        ops.push({ type: 'put', sublevel: sub, key: newKey, value: index.unique ? w.id : '' });
      }
      const records = this.sublevel(w.table.name);
      ops.push(
        w.value === undefined
          ? { type: 'del', sublevel: records, key: w.id }
          : { type: 'put', sublevel: records, key: w.id, value: w.value },
      );
    }
    for (const a of set.appends) {
      const records = this.sublevel(a.table.name);
      if (!this.lastAppended.has(a.table.name)) {
        const [last] = await records.keys({ reverse: true, limit: 1 }).all();
        this.lastAppended.set(a.table.name, last);
      }
      const id = sortableIdAfter(a.prefix, this.lastAppended.get(a.table.name));
      this.lastAppended.set(a.table.name, id);
      const built = a.build(id);
      for (const [index, key] of built.keys) {
        ops.push({ type: 'put', sublevel: this.sublevel(indexSublevelName(a.table.name, index)), key, value: '' });
      }
      ops.push({ type: 'put', sublevel: records, key: built.id, value: built.value });
    }
    for (const [key, value] of set.meta) ops.push({ type: 'put', sublevel: this.meta, key, value });
    for (const [slot, id] of local) claimed.set(slot, id);
    return ops;
  }

  private async batch(ops: BatchOp[]): Promise<void> {
    if (ops.length === 0) return;
    const puts: BatchPuts<Sublevel> = new Map();
    for (const op of ops) {
      if (op.type !== 'put') continue;
      const keys = puts.get(op.sublevel);
      if (keys === undefined) puts.set(op.sublevel, [op.key]);
      else keys.push(op.key);
    }
    this.floors.writingBatch(puts);
    try {
      const operations = ops as unknown as Parameters<typeof this.db.batch<string, unknown>>[0];
      // No options object unless it says something: abstract-level copies a batch's options into
      // every operation (`{ ...options, ...op }`), and with any property in them V8 takes its slow
      // path, about 4 us an operation instead of 0.1 (a delivery's 11 operations cost 120 us of
      // main-thread time with `{ sync: false }`, 35 us without it).
      await (this.sync ? this.db.batch(operations, { sync: true }) : this.db.batch(operations));
      this.lastWriteOk = true;
    } catch (err) {
      this.lastWriteOk = false;
      const e = err as Error & { code?: string; cause?: { message?: string } };
      this.failures.error(this.log, { code: e.code, cause: e.cause?.message }, `storage write failed: ${e.message}`, e.code);
      throw err;
    } finally {
      this.floors.written(puts);
      // Also after a failure: whether any of it reached the disk is not known here.
      if (this.caches.size > 0) for (const op of ops) this.caches.get(op.sublevel)?.delete(op.key);
    }
  }

  /** Whether the last write reached the database (true until one fails, again after one succeeds). */
  get writable(): boolean {
    return this.lastWriteOk;
  }

  /**
   * After a failed write, tries a small one (meta/write_probe), so that readiness comes back once the
   * disk does even when no client writes (a load balancer sends none to a daemon it took out).
   * One probe at a time; answers whether writes work now.
   */
  async checkWritable(): Promise<boolean> {
    if (this.lastWriteOk) return true;
    this.probing ??= this.batch([{ type: 'put', sublevel: this.meta, key: WRITE_PROBE_KEY, value: new Date().toISOString() }])
      .then(
        () => true,
        () => false,
      )
      .finally(() => (this.probing = undefined));
    return this.probing;
  }

  get isOpen(): boolean {
    return this.db.status === 'open';
  }

  /** How many values a table's read cache holds (undefined: it has none). */
  cachedEntries(table: string): number | undefined {
    return this.caches.get(this.sublevel(table))?.size;
  }

  async close(): Promise<void> {
    // Commits already queued are written first.
    while (this.writing) await new Promise((r) => setTimeout(r, 5));
    for (const cache of this.caches.values()) cache.clear();
    if (this.db.status === 'open' || this.db.status === 'opening') await this.db.close();
  }

  private cacheOf(sub: Sublevel): Map<string, unknown> {
    let cache = this.caches.get(sub);
    if (cache === undefined) this.caches.set(sub, (cache = new Map<string, unknown>()));
    return cache;
  }

  /**
   * A synchronous point read, answered from the sublevel's read cache when the table keeps one.
   * Cached values are frozen: callers copy before they change a record.
   */
  private read(sub: Sublevel, key: string, cached: boolean): unknown {
    if (!cached) return sub.getSync(key);
    const cache = this.cacheOf(sub);
    let value = cache.get(key);
    if (value !== undefined) return value;
    value = sub.getSync(key);
    if (value === undefined) return undefined;
    return remember(cache, key, value, READ_CACHE_MAX_ENTRIES);
  }

  private makeReader(): Reader {
    // Sublevels by table object, found once: point reads are the hot path (no name lookups per read).
    const resolved = new WeakMap<TableDef, { records: Sublevel; indexes: Map<string, Sublevel> }>();
    const subs = (table: TableDef) => {
      let found = resolved.get(table);
      if (found === undefined) resolved.set(table, (found = { records: this.sublevel(table.name), indexes: new Map() }));
      return found;
    };
    const records = (table: TableDef) => subs(table).records;
    const index = (table: TableDef, name: string) => {
      const indexes = subs(table).indexes;
      let sub = indexes.get(name);
      if (sub === undefined) indexes.set(name, (sub = this.sublevel(indexSublevelName(table.name, name))));
      return sub;
    };
    // Keys read in batches: `for await` over the iterator costs a promise per key, and a limit check
    // (countUpTo: a principal's grants, up to 1,000) counts a long run of them on every write.
    const countKeys = async (sub: Sublevel, range: KeyRange): Promise<{ n: number; first: string | undefined }> => {
      const keys = sub.keys(range);
      // Small steps first, as readAll: classic-level's native room for a step outlives the read.
      const max = range.limit === undefined || range.limit < 0 ? Infinity : range.limit;
      try {
        let n = 0;
        let first: string | undefined;
        for (let step = FIRST_STEP; n < max; step = Math.min(COUNT_BATCH, step * 8)) {
          const batch = await keys.nextv(Math.min(step, max - n));
          if (batch.length === 0) break;
          first ??= batch[0];
          n += batch.length;
        }
        return { n, first };
      } finally {
        await keys.close();
      }
    };
    // An index range read from the floor of its lower bound, which the read then moves up to the
    // first key it found (read-floors.ts): queues' reads skip the deletions at their front.
    const floored = async <R>(
      sub: Sublevel,
      range: KeyRange,
      read: (range: KeyRange) => Promise<{ result: R; first: string | undefined }>,
    ): Promise<R> => {
      const begun = this.floors.begin(sub, range);
      if (begun === undefined) return (await read(range)).result;
      let out: { result: R; first: string | undefined };
      try {
        out = await read(begun.range);
      } catch (err) {
        this.floors.abandon(begun.watch);
        throw err;
      }
      this.floors.end(begun.watch, out.first, range.lt);
      return out.result;
    };
    return {
      record: (table, id) => Promise.resolve(this.read(records(table), id, table.cache)),
      recordsById: (table, ids) => Promise.resolve(ids.map((id) => this.read(records(table), id, table.cache))),
      uniqueId: (table, name, key) => Promise.resolve(this.read(index(table, name), key, table.cache) as string | undefined),
      records: (table, range) => {
        const r = defined(range);
        return readAll(records(table).iterator(r), r.limit);
      },
      recordIds: (table, range) => {
        const r = defined(range);
        return readAll(records(table).keys(r), r.limit);
      },
      indexKeys: (table, name, range) => {
        const sub = index(table, name);
        return floored(sub, defined(range), async (r) => {
          const keys = await readAll(sub.keys(r), r.limit);
          return { result: keys, first: keys[0] };
        });
      },
      countIndex: (table, name, range) => {
        const sub = index(table, name);
        return floored(sub, defined(range), async (r) => {
          const { n, first } = await countKeys(sub, r);
          return { result: n, first };
        });
      },
      countRecords: async (table) => (await countKeys(records(table), {})).n,
      meta: (key) => Promise.resolve(this.meta.getSync(key)),
    };
  }
}

/**
 * The range without its undefined bounds: abstract-level reads `{ gt: undefined }` as a bound (the
 * read finds nothing), where the port means no bound. A consumer whose cursor was '' (the log was
 * empty when it started) counted no events behind it (the fan-out's lag), 2026-11-28.
 */
function defined(range: KeyRange): KeyRange {
  const out: KeyRange = {};
  for (const [key, value] of Object.entries(range) as [keyof KeyRange, KeyRange[keyof KeyRange]][])
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

/** Everything an iterator yields (up to `limit`), in steps from FIRST_STEP up; closes it. */
async function readAll<T>(iterator: { nextv(size: number): Promise<T[]>; close(): Promise<void> }, limit?: number): Promise<T[]> {
  const max = limit === undefined || limit < 0 ? Infinity : limit;
  const out: T[] = [];
  try {
    for (let step = FIRST_STEP; out.length < max; step = Math.min(COUNT_BATCH, step * 8)) {
      const batch = await iterator.nextv(Math.min(step, max - out.length));
      if (batch.length === 0) break;
      for (const item of batch) out.push(item);
    }
    return out;
  } finally {
    await iterator.close();
  }
}
