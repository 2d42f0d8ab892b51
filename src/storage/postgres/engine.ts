import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppError } from '../../errors.js';
import { createLogThrottle } from '../../log-throttle.js';
import type { Logger } from '../../log.js';
import { redactDatabaseUrl } from '../../redact.js';
import type { Collection } from '../collection.js';
import { WRITE_PROBE_KEY, type AppendWrite, type CommitSet, type Reader, type TableDef } from '../engine.js';
import { NewerSchemaError, StorageOpenError } from '../errors.js';
import { newSortableId, sortableIdAfter } from '../keys.js';
import type { BackupEntry, ClaimOptions, Storage, TransactionOptions, Tx } from '../port.js';
import { BufferedTx } from '../transaction.js';
import { checkNotNested, checkOutsideTx, runChecked } from '../tx-check.js';
import { WakeTopics } from '../wake-topics.js';
import { holdsNoRows, readBackup, restoreStatement } from './backup-rows.js';
import { makeReader, RecordCaches, type Query } from './cached-reader.js';
import { inspectDatabase, type DatabaseFacts } from './inspect.js';
import type { MigrationContext } from '../migration-context.js';
import { applySqlMigrations, sqlMigrations, type SqlMigration } from './migrations.js';
import { NoticeListener } from './listener.js';
import { AckWaits, CHANNEL, LISTENER_NAME, noticePayload, type AckWait, type Notice } from './notices.js';
import {
  beginWith,
  claimSelect,
  countRows,
  deleteRows,
  lastWrites,
  lockId,
  lockLastAppended,
  metaUpsert,
  setLastAppended,
  text,
  appendInSql,
  chainStatements,
  inlineStatement,
  upsertRows,
  UPSERT_ROWS,
  type Row,
  type Statement,
} from './sql.js';

/** The session advisory lock migrations run under (an arbitrary constant: "switchyard schema"). */
const MIGRATION_LOCK = '7453796172640001';
/** Deadlock and serialization failures: the transaction is run again from its start. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;
const UNIQUE_VIOLATION = '23505';
const FAILURE_LOG_INTERVAL_MS = 10_000;
const APPEND_META_PREFIX = 'last_id:';

/** The meta key holding the last id appended to `table` (the row its appenders lock). */
export function appendMetaKey(table: string): string {
  return APPEND_META_PREFIX + table;
}

export interface PostgresOptions {
  /** Connections in the pool (SERVICE_DATABASE_POOL_SIZE). */
  poolSize?: number;
  /**
   * How long a transaction or read waits for a connection, free in the pool or newly opened
   * (SERVICE_DATABASE_CONNECT_TIMEOUT_MS); past it the caller gets `unavailable` (503).
   */
  connectTimeoutMs?: number;
  /** What data migrations read of the configuration (defaults: the configuration's). */
  migrationContext?: MigrationContext;
}

/** Default of SERVICE_DATABASE_CONNECT_TIMEOUT_MS. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Seconds a client is told to wait (Retry-After) when no database connection came free. */
const BUSY_RETRY_AFTER_S = 1;

/**
 * node-postgres's two connect timeouts: pg-pool's wait for a free connection ("timeout exceeded
 * when trying to connect") and a new connection the server did not accept in time. Neither has a code.
 */
function isConnectTimeout(err: Error): boolean {
  return (
    err.message === 'timeout exceeded when trying to connect' || err.message === 'Connection terminated due to connection timeout'
  );
}

/** Which connections a transaction or claim uses: the requests' or those kept for background work. */
type Lane = 'foreground' | 'background';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * SERVICE_DATABASE_POOL_SIZE split between requests and background work (the loops): a quarter
 * (at least one connection) is kept for the loops, so requests that hold every other connection (a
 * burst of writes queued on the event log's append lock) cannot stall deliveries, mail and expiry.
 */
export function splitPool(size: number): { foreground: number; background: number } {
  const background = Math.max(1, Math.round(size / 4));
  return { foreground: Math.max(1, size - background), background };
}

/** Whether a pool has no idle connection and may open no more. */
function saturated(pool: pg.Pool): boolean {
  return pool.idleCount === 0 && pool.totalCount >= pool.options.max;
}

/**
 * The PostgreSQL engine: any number of daemons share one database. Records are JSONB rows with each
 * index key in a column of its own; transactions take their locks as transaction-scoped advisory
 * locks; claims skip rows another transaction holds (FOR UPDATE SKIP LOCKED); appended ids are taken
 * under a row lock held to commit, so id order is commit order across daemons. Hot tables are cached
 * in memory, and every commit tells every daemon (LISTEN/NOTIFY) what to drop.
 */
export class PostgresStorage implements Storage {
  readonly engine = 'postgres' as const;
  readonly exclusive = false;
  /** Identifies this daemon's notices (it applies its own at commit, not when they echo back). */
  private readonly instance = randomUUID();
  /** This storage for background work: its transactions and claims use `backgroundPool`. */
  readonly background: Storage = new BackgroundLane(this);
  private readonly sharedReader: Reader;
  /** The shared reader's caches: on only while the notification connection is up. */
  private readonly caches = new RecordCaches();
  /** Who waits for which topic (tests count a topic's listeners). */
  readonly wakeTopics: WakeTopics;
  private readonly failures = createLogThrottle(FAILURE_LOG_INTERVAL_MS);
  private readonly listener: NoticeListener;
  private closed = false;
  private lastWriteOk = true;
  private notices = 0;
  /** Notices of this daemon waiting for their peers' acknowledgements: notice id -> peers that acked. */
  private readonly ackWaits: AckWaits;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly backgroundPool: pg.Pool,
    private readonly url: string,
    readonly log: Logger,
  ) {
    this.wakeTopics = new WakeTopics(log);
    this.ackWaits = new AckWaits(log);
    this.listener = new NoticeListener(url, this.instance, this.ackWaits, log, {
      connected: () => this.caches.switchOn(),
      lost: () => this.caches.switchOff(),
      notice: (notice) => this.apply(notice, false),
      unreadable: () => this.caches.dropAll(),
    });
    this.sharedReader = makeReader(
      (sql, values) =>
        this.readPool()
          .query(sql, values)
          .catch((err: unknown) => {
            throw this.translate(err);
          }),
      this.caches,
    );
  }

  static async open(url: string, log: Logger, options: PostgresOptions = {}): Promise<PostgresStorage> {
    const { foreground, background } = splitPool(options.poolSize ?? 10);
    const newPool = (max: number): pg.Pool => {
      const pool = new pg.Pool({
        connectionString: url,
        max,
        connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        application_name: 'switchyard',
      });
      // An idle client that loses its server is dropped by the pool; the error must not crash the daemon.
      pool.on('error', (err) => log.warn({ err: err.message }, 'idle PostgreSQL connection closed'));
      return pool;
    };
    const storage = new PostgresStorage(newPool(foreground), newPool(background), url, log);
    try {
      await storage.migrate(options.migrationContext);
      await storage.listener.start();
    } catch (err) {
      await storage.close();
      if (err instanceof NewerSchemaError) throw err;
      throw new StorageOpenError(`cannot open PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    log.debug({ url: redactDatabaseUrl(url) }, 'storage open');
    return storage;
  }

  /** Applies the SQL migrations above the database's version, under a session advisory lock. */
  private async migrate(context?: MigrationContext, list: SqlMigration[] = sqlMigrations): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK]);
      try {
        await applySqlMigrations(
          client,
          list,
          (m) => this.log.info({ version: m.version, migration: m.name }, 'migration applied'),
          context,
        );
      } finally {
        await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK]);
      }
    } finally {
      client.release();
    }
  }

  /** The database as `switchyard doctor` checks it, from a connection of its own. */
  inspectDatabase(): Promise<DatabaseFacts> {
    return inspectDatabase(this.url);
  }

  /** The schema version the database is at (the latest applied SQL migration). */
  async schemaVersion(): Promise<number> {
    const { rows } = await this.pool.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    return rows[0].version ?? 0;
  }

  /**
   * Every row of every table (meta first), read in one REPEATABLE READ transaction: one snapshot,
   * however long the read takes (backup-rows.ts).
   */
  async *backupEntries(): AsyncIterable<BackupEntry> {
    const client = await this.pool.connect();
    let done = false;
    try {
      yield* readBackup(client);
      done = true;
    } finally {
      // A reader that stopped early (a failed write of the file) leaves the read-only transaction
      // open: that connection is closed, not handed to the next caller mid-transaction.
      client.release(!done);
    }
  }

  /** True when no table holds a row (meta's local keys aside). */
  isEmpty(): Promise<boolean> {
    return holdsNoRows(this.pool);
  }

  /** Inserts backed-up rows of one table in one statement (a restore into an empty database). */
  async restoreRows(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    const insert = restoreStatement(table, rows);
    if (insert !== undefined) await this.pool.query(insert);
  }

  reader(): Reader {
    return this.sharedReader;
  }

  transaction<R>(options: TransactionOptions, fn: (tx: BufferedTx) => Promise<R>): Promise<R> {
    return this.transactionIn('foreground', options, fn, true);
  }

  /**
   * A transaction on `lane`'s connections; `fn` gets the engine's own transaction type and the
   * connection, so the engine's own callers (claims, imports) reach its internals. `deferBegin`: `fn`
   * sends nothing on the connection itself (only through `tx`), so BEGIN may wait for the first
   * statement (below).
   */
  async transactionIn<R>(
    lane: Lane,
    options: TransactionOptions,
    fn: (tx: BufferedTx, client: pg.PoolClient) => Promise<R>,
    deferBegin = false,
  ): Promise<R> {
    checkNotNested();
    const locks = [...new Set((options.locks ?? []).map(lockId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const metaKeys = options.meta ?? [];
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect(lane);
      let broken: Error | undefined;
      let acks: AckWait | undefined;
      // Without locks or meta values to read, BEGIN waits for the transaction's first statement and
      // goes with it: in the same round trip when that statement has no parameters (an append's lock),
      // else just before it. A transaction that sends nothing sends no BEGIN and has nothing to commit.
      let beginPending = deferBegin && locks.length === 0 && metaKeys.length === 0;
      const send: Query = async (sql, values) => {
        if (!beginPending) return client.query(sql, values);
        beginPending = false;
        if (values === undefined) {
          const results = (await client.query(`BEGIN; ${sql}`)) as unknown as pg.QueryResult[];
          return results[results.length - 1];
        }
        await client.query('BEGIN');
        return client.query(sql, values);
      };
      try {
        let prefetched: Map<string, unknown> | undefined;
        if (!beginPending) {
          // BEGIN, every lock (sorted above) and the meta values asked for, in one round trip.
          const begun: pg.QueryResult | pg.QueryResult[] = await client.query(
            beginWith(locks, metaKeys, (literal) => client.escapeLiteral(literal)),
          );
          if (metaKeys.length > 0) {
            const { rows } = (Array.isArray(begun) ? begun[begun.length - 1] : begun) as pg.QueryResult<{
              key: string;
              value: unknown;
            }>;
            prefetched = new Map(metaKeys.map((k) => [k, undefined]));
            for (const row of rows) prefetched.set(row.key, row.value ?? undefined);
          }
        }
        // One statement at a time on the transaction's connection, whoever reads through it (a
        // collection's getMany reads in parallel): pg queues overlapping queries but deprecates it.
        let last: Promise<unknown> = Promise.resolve();
        const serial: Query = (sql, values) => {
          const next = last.then(
            () => send(sql, values),
            () => send(sql, values),
          );
          last = next;
          return next;
        };
        const tx = new BufferedTx(makeReader(serial), prefetched);
        const result = await runChecked(() => fn(tx, client));
        const flushed = await this.flush(serial, (literal) => client.escapeLiteral(literal), tx.commitSet);
        const { notice, payload, tail, settle } = flushed;
        const notify =
          payload === undefined ? [] : [`SELECT pg_notify(${client.escapeLiteral(CHANNEL)}, ${client.escapeLiteral(payload)})`];
        const all = (r: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] => (Array.isArray(r) ? r : [r]);
        if (beginPending && tail.length === 0) {
          // Nothing was sent, so nothing to commit; a notice (wake-ups only) goes on its own.
          if (payload !== undefined) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
        } else {
          // An append alone (its id taken in SQL) is the transaction's only query: BEGIN goes with it.
          const begin = beginPending ? ['BEGIN'] : [];
          beginPending = false;
          if (notice?.n !== undefined) {
            // Peers acknowledge the notice once it is delivered (at COMMIT): count them before committing.
            const sent = all(await client.query([...begin, ...tail, ...notify].join('; ')));
            settle?.(sent);
            acks = await this.expectAcks(client, notice.n);
            await client.query('COMMIT');
          } else {
            // The appended rows, the notice and the COMMIT: one round trip.
            const sent = all(await client.query([...begin, ...tail, ...notify, 'COMMIT'].join('; ')));
            settle?.(sent);
          }
        }
        this.lastWriteOk = true;
        if (notice !== undefined) this.apply(notice, true);
        client.release();
        // A revoked key or a changed role applies on the next request whichever daemon answers it:
        // the caller hears of this commit once every peer has dropped what it changed.
        if (acks !== undefined) await acks.settled;
        tx.committed(this.log);
        return result;
      } catch (err) {
        acks?.cancel();
        if (!beginPending) await client.query('ROLLBACK').catch((e: unknown) => (broken = e as Error));
        const code = (err as { code?: string }).code;
        if (code !== undefined && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) {
          await sleep(Math.random() * 10 * attempt);
          continue;
        }
        client.release(broken);
        throw this.translate(err);
      }
    }
  }

  /**
   * Before a commit that changed cached records: counts the peers listening on this database and
   * returns a promise that resolves once each has acknowledged the notice (at most ACK_TIMEOUT_MS; a
   * peer that does not answer in time is logged, and its own reconnect drops its caches).
   */
  private async expectAcks(client: pg.PoolClient, notice: string): Promise<AckWait | undefined> {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid <> $2',
      [LISTENER_NAME, this.listener.pid],
    );
    const expected = rows[0].n;
    return expected === 0 ? undefined : this.ackWaits.expect(notice, expected);
  }

  async readMeta(key: string): Promise<unknown> {
    checkOutsideTx(`readMeta(${key})`);
    return this.reader().meta(key);
  }

  claim<T extends object>(collection: Collection<T>, options: ClaimOptions<T>): Promise<T[]> {
    return this.claimIn('foreground', collection, options);
  }

  async claimIn<T extends object>(lane: Lane, collection: Collection<T>, options: ClaimOptions<T>): Promise<T[]> {
    return this.transactionIn(lane, {}, async (tx, client) => {
      const { candidates } = options;
      let select: Statement;
      if ('ids' in candidates) {
        const ids = candidates.ids.slice(0, options.limit);
        if (ids.length === 0) return [];
        select = claimSelect(collection, { ids });
      } else {
        const range = collection.keyRange(candidates.index, candidates.value, { upTo: candidates.upTo, limit: options.limit });
        select = claimSelect(collection, { index: candidates.index, range });
      }
      const { rows } = await client.query<{ id: Buffer; data: T }>(select.text, select.values);
      if (rows.length === 0) return [];
      // The records' own locks too, in one statement: whoever holds one read the record and is about to write it.
      const { rows: locked } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_xact_lock(k) AS ok FROM unnest($1::bigint[]) WITH ORDINALITY AS l(k, n) ORDER BY n',
        [rows.map((row) => lockId(options.lockOf(text(row.id))).toString())],
      );
      const claimed: T[] = [];
      for (const [n, row] of rows.entries()) {
        if (!locked[n].ok) continue;
        // Read under its row lock here: the write below needs no second read of it.
        tx.saw(collection, text(row.id), row.data);
        const next = options.take(row.data);
        if (next === undefined) continue;
        if (next !== row.data) await tx.put(collection, next);
        claimed.push(next);
      }
      return claimed;
    });
  }

  onWake(topic: string, fn: () => void): () => void {
    return this.wakeTopics.on(topic, fn);
  }

  get writable(): boolean {
    return this.lastWriteOk;
  }

  async checkWritable(): Promise<boolean> {
    if (this.lastWriteOk) return true;
    try {
      await this.pool.query(metaUpsert([[WRITE_PROBE_KEY, new Date().toISOString()]])!);
      this.lastWriteOk = true;
    } catch {
      // still failing
    }
    return this.lastWriteOk;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.caches.switchOff();
    await this.listener.close();
    await Promise.all([this.pool.end(), this.backgroundPool.end()]);
  }

  /**
   * The pool a read outside a transaction uses: the requests' while one of its connections is free,
   * else background work's, even when those are busy too. The loops hold theirs for short
   * transactions, while requests may hold every one of theirs for as long as a lock keeps them
   * waiting: a read queued there (a loop's, or a request's) could wait for the pool's whole connect
   * timeout. A read holds a connection for one statement, so it does not stall the loops.
   */
  private readPool(): pg.Pool {
    return saturated(this.pool) ? this.backgroundPool : this.pool;
  }

  /**
   * Offline copy (`switchyard storage copy`): writes rows as they are, ids, values and index keys, in
   * one transaction; a row already there is replaced, so a copy can run again.
   */
  async importRows(table: TableDef, rows: { id: string; value: unknown; keys: Map<string, string> }[]): Promise<void> {
    await this.transactionIn('foreground', {}, async (_tx, client) => {
      const all = rows.map((row) => ({ id: row.id, value: row.value as object, keys: row.keys }));
      for (let i = 0; i < all.length; i += UPSERT_ROWS) await client.query(upsertRows(table, all.slice(i, i + UPSERT_ROWS)));
    });
  }

  /** Offline copy: meta values as they are. */
  async importMeta(entries: [string, unknown][]): Promise<void> {
    await this.transaction({}, (tx) => {
      for (const [key, value] of entries) tx.putMeta(key, value);
      return Promise.resolve();
    });
  }

  /** Rows of a table, and of each of its indexes (non-null keys): what a copy is verified by. */
  async countRows(table: TableDef): Promise<{ records: number; indexes: Record<string, number> }> {
    const records = await this.sharedReader.countRecords(table);
    const indexes: Record<string, number> = {};
    for (const index of table.indexes) {
      const { rows } = await this.pool.query<{ n: number }>(countRows(table, index.name));
      indexes[index.name] = rows[0].n;
    }
    return { records, indexes };
  }

  /** How many records a table's cache holds (undefined: it has none). */
  cachedEntries(table: string): number | undefined {
    return this.caches.entries(table);
  }

  private async connect(lane: Lane): Promise<pg.PoolClient> {
    try {
      return await (lane === 'background' ? this.backgroundPool : this.pool).connect();
    } catch (err) {
      throw this.translate(err);
    }
  }

  /**
   * A unique violation is `conflict`; no connection within the connect timeout is `unavailable`
   * (503, Retry-After), logged rate-limited; a lost server is logged (rate-limited) and marks writes failing.
   */
  private translate(err: unknown): unknown {
    const e = err as Error & { code?: string; constraint?: string };
    if (isConnectTimeout(e)) {
      const waited = this.pool.options.connectionTimeoutMillis;
      this.failures.error(this.log, { connect_timeout_ms: waited }, `no PostgreSQL connection within ${waited} ms: ${e.message}`);
      return new AppError('unavailable', `storage is busy: no database connection within ${waited} ms; try again`, {
        retryAfterSeconds: BUSY_RETRY_AFTER_S,
        cause: err,
      });
    }
    if (e.code === UNIQUE_VIOLATION) {
      const [table, index] = (e.constraint ?? '').split('__');
      return new AppError('conflict', `${table || 'record'} with this ${index || 'value'} already exists`, {
        details: { field: index || 'unknown' },
      });
    }
    if (e instanceof AppError || e instanceof TypeError) return err;
    if (e.code !== undefined && /^(08|57P|53|ECONN|ETIMEDOUT|EPIPE)/.test(e.code)) {
      this.lastWriteOk = false;
      this.failures.error(this.log, { code: e.code }, `storage write failed: ${e.message}`, e.code);
    }
    return err;
  }

  /**
   * Writes the commit set on the transaction's connection. Answers the notice to send (if any) with
   * its payload, and `tail`: the last statements, parameters written in, for the caller to send in
   * the round trip of the notice and the COMMIT.
   */
  private async flush(
    query: Query,
    escape: (literal: string) => string,
    set: CommitSet,
  ): Promise<{ notice?: Notice; payload?: string; tail: string[]; settle?: (results: pg.QueryResult[]) => void }> {
    const notice: Notice = { i: this.instance, c: {}, w: set.wakes };
    const touch = (table: TableDef, id: string, keys: Iterable<[string, string]>): void => {
      if (!table.cache) return;
      const entry = (notice.c[table.name] ??= { ids: [], keys: [] });
      if (entry === '*') return;
      entry.ids.push(id);
      for (const [index, key] of keys) if (table.indexes.some((i) => i.name === index && i.unique)) entry.keys.push([index, key]);
    };
    for (const w of set.writes) touch(w.table, w.id, [...(w.previous ?? []), ...w.keys]);
    // Every write in one statement (chainStatements), not one per record nor per table: each
    // record's last write, upserts in rows of one statement, deletes by id list, the meta values
    // (each key's last value). UNIQUE constraints are checked at commit, so order is free.
    const writes: Statement[] = [];
    for (const { table, rows, deleted } of lastWrites(set.writes)) {
      if (deleted.length > 0) writes.push(deleteRows(table, deleted));
      for (let i = 0; i < rows.length; i += UPSERT_ROWS) writes.push(upsertRows(table, rows.slice(i, i + UPSERT_ROWS)));
    }
    const meta = metaUpsert(set.meta);
    if (meta !== undefined) writes.push(meta);
    const send = (statement: Statement) => query(statement.text, statement.values);
    // Appends last, so the append row lock is held for as short a time as possible: taken at the
    // end of the writes' statement (after them), released at COMMIT, which the rows built under it
    // go with (`tail`). A second appender waits for it and takes a greater id after this one commits.
    const tables = [...new Set(set.appends.map((a) => a.table.name))].sort();
    // One append (the usual: one event) to a table not cached takes its id in SQL, in the query
    // that commits (appendInSql): the lock is taken and released there, across no round trip.
    let inSql: { row: Row; appended: AppendWrite } | undefined;
    if (set.appends.length === 1 && !set.appends[0].table.cache) {
      const appended = set.appends[0];
      const row = appended.build(newSortableId(appended.prefix));
      // The id is set on the record once known: records that carry it under `id` (the event log's);
      // others are built again below, the usual way.
      if ((row.value as { id?: unknown }).id === row.id) inSql = { row, appended };
    }
    const lockWith = inSql === undefined && tables.length > 0 ? appendMetaKey(tables[0]) : undefined;
    // Without writes, the lock goes alone, parameters written in (BEGIN may go with it).
    const chained = writes.length === 0 ? [] : chainStatements(writes, lockWith);
    let lockedLast: unknown;
    for (const statement of chained) lockedLast = (await send(statement)).rows[0];
    const tail: string[] = [];
    let settle: ((results: pg.QueryResult[]) => void) | undefined;
    if (inSql !== undefined) {
      const { row, appended } = inSql;
      tail.push(...appendInSql(appended.table, appendMetaKey(appended.table.name), appended.prefix, row, escape));
      settle = (results) => {
        const id = results.find((r) => r.rows[0] !== undefined && 'appended_id' in r.rows[0])?.rows[0] as
          { appended_id: string } | undefined;
        if (id === undefined) throw new Error('the appended row was not written');
        (row.value as { id: string }).id = id.appended_id;
      };
    }
    const slow = inSql === undefined ? tables : [];
    for (const [n, name] of slow.entries()) {
      const metaKey = appendMetaKey(name);
      const locked: unknown =
        n === 0 && writes.length > 0 ? lockedLast : (await query(lockLastAppended(escape(metaKey)))).rows[0];
      let last = (locked as { value: string | null }).value ?? undefined;
      const appends = set.appends.filter((a) => a.table.name === name);
      const table = appends[0].table;
      const built: Row[] = [];
      for (const a of appends) {
        const row = a.build(sortableIdAfter(a.prefix, last));
        last = row.id;
        built.push(row);
        touch(a.table, row.id, row.keys);
      }
      tail.push(inlineStatement(setLastAppended(metaKey, last!), escape));
      for (let i = 0; i < built.length; i += UPSERT_ROWS)
        tail.push(inlineStatement(upsertRows(table, built.slice(i, i + UPSERT_ROWS)), escape));
    }
    if (Object.keys(notice.c).length === 0 && notice.w.length === 0) return { tail, settle };
    if (Object.keys(notice.c).length > 0) notice.n = `${this.instance}:${++this.notices}`;
    return { notice, payload: noticePayload(notice), tail, settle };
  }

  /** Drops what a commit changed from the caches and wakes its topics' listeners. */
  private apply(notice: Notice, local: boolean): void {
    if (!local && notice.i === this.instance) return;
    this.caches.drop(notice.c);
    this.wakeTopics.wake(notice.w);
  }
}

/**
 * A PostgreSQL storage's background lane (Storage.background): the same data, caches and listeners;
 * its transactions and claims take connections from the pool kept for the loops.
 */
class BackgroundLane implements Storage {
  readonly engine = 'postgres' as const;
  readonly exclusive = false;

  constructor(private readonly storage: PostgresStorage) {}

  get log(): Logger {
    return this.storage.log;
  }

  get background(): Storage {
    return this;
  }

  get writable(): boolean {
    return this.storage.writable;
  }

  get isOpen(): boolean {
    return this.storage.isOpen;
  }

  transaction<R>(options: TransactionOptions, fn: (tx: Tx) => Promise<R>): Promise<R> {
    return this.storage.transactionIn('background', options, fn, true);
  }

  claim<T extends object>(collection: Collection<T>, options: ClaimOptions<T>): Promise<T[]> {
    return this.storage.claimIn('background', collection, options);
  }

  readMeta(key: string): Promise<unknown> {
    return this.storage.readMeta(key);
  }

  schemaVersion(): Promise<number> {
    return this.storage.schemaVersion();
  }

  backupEntries(): AsyncIterable<BackupEntry> {
    return this.storage.backupEntries();
  }

  onWake(topic: string, fn: () => void): () => void {
    return this.storage.onWake(topic, fn);
  }

  checkWritable(): Promise<boolean> {
    return this.storage.checkWritable();
  }

  close(): Promise<void> {
    return this.storage.close();
  }

  reader(): Reader {
    return this.storage.reader();
  }
}
