// The storage port: what domain code may use, whichever engine keeps the data (LevelDB in the data
// dir, or PostgreSQL shared by several daemons). Domain code imports this file, collection.ts and
// keys.ts; never an engine. docs/storage.md says what each engine guarantees.

import type { Logger } from '../log.js';
import type { Collection } from './collection.js';
import type { Reader } from './engine.js';
import type { DatabaseFacts } from './postgres/inspect.js';

export type EngineName = 'leveldb' | 'postgres';

export interface TransactionOptions {
  /**
   * Keys this transaction decides on (a record's id, an organization's invitation limit): held from
   * before the first read to after the commit, in a fixed order, against every transaction of every
   * daemon that shares the data. LevelDB: an in-process lock; PostgreSQL: transaction-scoped
   * advisory locks.
   */
  locks?: readonly string[];
  /**
   * Meta keys the transaction reads (`tx.readMeta`), read once its locks are held. PostgreSQL reads
   * them in the round trip that takes the locks; LevelDB reads meta from memory anyway.
   */
  meta?: readonly string[];
}

/** Runs once the transaction is durable (telling subscribers, waking a loop); never on a rollback. */
export type AfterCommit = () => void;

/**
 * One transaction: its writes are buffered and committed together (all or nothing) when its function
 * returns; a thrown error discards them. What the function decides on it reads through the
 * transaction (`get`, `read`, `readMeta`): on PostgreSQL that is the transaction's connection, which
 * sees what was committed before each read and never a cache another daemon's change has not reached
 * yet. A read through a collection itself while the function runs is refused in the tests
 * (storage/tx-check.ts).
 */
export interface Tx {
  /** A record as this transaction will leave it: its buffered write, else the stored one. */
  get<T extends object>(collection: Collection<T>, id: string): Promise<T | undefined>;
  /** The same for several records, in the order asked, with one read of those not yet seen. */
  getMany<T extends object>(collection: Collection<T>, ids: readonly string[]): Promise<(T | undefined)[]>;
  /**
   * The collection read through this transaction: what was committed before each read (not this
   * transaction's buffered writes: `get` has them). `collection.in(tx)` says the same where tx is optional.
   */
  read<T extends object>(collection: Collection<T>): Collection<T>;
  /** A meta value as committed (not this transaction's own `putMeta`). */
  readMeta(key: string): Promise<unknown>;
  /** Writes a record (insert or replace); a unique value another record holds is `conflict`. */
  put<T extends object>(collection: Collection<T>, record: T): Promise<T>;
  /**
   * Writes a record that cannot exist yet (its id was just made, time-sortable and random), without
   * reading for an earlier version. Only for collections without unique indexes.
   */
  insert<T extends object>(collection: Collection<T>, record: T): void;
  /** Deletes a record; a missing one is a no-op. */
  delete<T extends object>(collection: Collection<T>, id: string): Promise<void>;
  /**
   * Tells the transaction what a record is without reading it: the caller knows it, under a lock this
   * transaction holds (a record that never changes once written, kept by the daemon that wrote it).
   * Reads and a delete of it then use this instead of a read.
   */
  saw<T extends object>(collection: Collection<T>, id: string, record: T | undefined): void;
  /**
   * Appends a record whose id is taken at commit, in commit order: `prefix` + a time-sortable id
   * greater than every id appended before it, on any daemon. Readers that remember the last id they
   * read never pass over one (the event log). `build` makes the record once the id is known.
   */
  append<T extends object>(collection: Collection<T>, prefix: string, build: (id: string) => T): void;
  /** Writes a meta value (generated secrets, consumer positions). */
  putMeta(key: string, value: unknown): void;
  /** Tells every daemon's listeners of `topic` once this commits (a loop that has new work). */
  wake(topic: string): void;
  afterCommit(fn: AfterCommit): void;
}

/** A claim's candidates: a range of a queue index, or records the caller chose (from such a range). */
export type ClaimCandidates =
  | {
      /** A non-unique index whose sort value orders the work (e.g. when it is due). */
      index: string;
      value: string | readonly string[];
      /** Only entries whose sort value is at most this are candidates (e.g. now); absent: every entry. */
      upTo?: string;
    }
  | { ids: readonly string[] };

export interface ClaimOptions<T> {
  candidates: ClaimCandidates;
  /** At most this many candidates are looked at (the first ones of `ids`). */
  limit: number;
  /** The lock every read-modify-write of a record takes: a record held by another is skipped. */
  lockOf: (id: string) => string;
  /**
   * Given a candidate, the record leased to this caller, or undefined to leave it. The record itself
   * (the same object) takes it without a write: on exclusive storage a caller may hold its claims in
   * memory, since a restart of the only process that uses the data finds them where they were.
   */
  take: (record: T) => T | undefined;
}

/** One stored item of a backup: a LevelDB key and value (`k`, `v`), or a PostgreSQL table's row (`t`, `r`). */
export type BackupEntry = { k: string; v: string } | { t: string; r: Record<string, unknown> };

/** The storage port. */
export interface Storage {
  readonly engine: EngineName;
  /**
   * True when this process is the only one using the data (LevelDB holds the data dir's lock): a lease
   * held by another instance id was left by a previous run and can be taken over at once.
   */
  readonly exclusive: boolean;
  readonly log: Logger;
  transaction<R>(options: TransactionOptions, fn: (tx: Tx) => Promise<R>): Promise<R>;
  /** Meta values: generated secrets, schema version, consumer positions. */
  readMeta(key: string): Promise<unknown>;
  /** The schema version the stored data is at (the latest migration applied). */
  schemaVersion(): Promise<number>;
  /**
   * Everything stored, as one consistent snapshot, in the engine's own form (storage/backup.ts writes
   * it out and restores it into the same engine): LevelDB's raw keys and values, PostgreSQL's rows.
   */
  backupEntries(): AsyncIterable<BackupEntry>;
  /**
   * Claims work: candidates under `value` in `index` with a sort value up to `upTo` (or the given
   * ids), skipping any another transaction holds, each given to `take`; what it takes is written
   * back in one transaction (unless `take` answered the record unchanged). PostgreSQL: `FOR UPDATE SKIP LOCKED` plus the records' advisory locks.
   */
  claim<T extends object>(collection: Collection<T>, options: ClaimOptions<T>): Promise<T[]>;
  /**
   * This storage for background work (the loops, and what they start), which the areas build their
   * loops' objects on: on PostgreSQL its transactions and claims use connections kept for it, so
   * requests holding every other connection cannot stall it. LevelDB has no pool: the storage itself.
   */
  readonly background: Storage;
  /** Calls `fn` when any daemon commits a transaction that woke `topic`. */
  onWake(topic: string, fn: () => void): () => void;
  /** Whether the last write reached the database. */
  readonly writable: boolean;
  /** After a failed write, tries a small one: whether writes work now. */
  checkWritable(): Promise<boolean>;
  readonly isOpen: boolean;
  close(): Promise<void>;
  /** For collections: the engine's shared reader (on PostgreSQL, with its caches). */
  reader(): Reader;
  /** PostgreSQL only: the database as `switchyard doctor` checks it (postgres/inspect.ts). */
  inspectDatabase?(): Promise<DatabaseFacts>;
}

/**
 * The `upTo` of a claim of leased work: leases that ended by `now`, or, on exclusive storage (one
 * process owns the data, so another instance's lease was left by an earlier run), every lease.
 */
export function leasesTakenOver(storage: Pick<Storage, 'exclusive'>, now: number): string | undefined {
  return storage.exclusive ? undefined : new Date(now).toISOString();
}
