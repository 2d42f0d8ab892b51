// Reads of the PostgreSQL engine: every Reader method as the statements of sql.ts, and the caches
// that answer the shared reader's reads of cached tables (organizations, keys, ...) from memory. A
// cache is trusted only while this daemon hears every other daemon's commits (the notification
// connection, listener.ts): each notice drops what it changed, and a lost connection drops all.
import type pg from 'pg';
import type { KeyRange, Reader, TableDef } from '../engine.js';
import { lastPart } from '../keys.js';
import { remember } from '../read-cache.js';
import type { Notice } from './notices.js';
import {
  countRange,
  countRows,
  distinctSortKeys,
  rangeSelect,
  selectRecord,
  selectRecords,
  selectUniqueId,
  text,
  type Statement,
} from './sql.js';

/** One statement on a connection, a pool, or a transaction's serialised connection. */
export type Query = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

/** Most records a table's cache holds; the oldest entry goes first when it is full. */
const CACHE_MAX_ENTRIES = 20_000;

/**
 * The caches of cached tables: records by id (named by the table) and ids by unique key (named
 * `table\0index`). They answer only while switched on, and a read that raced an invalidation of its
 * table is not kept (each table's generation is bumped by every invalidation).
 */
export class RecordCaches {
  private readonly caches = new Map<string, Map<string, unknown>>();
  private readonly generations = new Map<string, number>();
  private on = false;

  /** True while reads may be answered from memory. */
  get active(): boolean {
    return this.on;
  }

  /** Anything cached before now may have missed a notice: drops it all, then answers from memory. */
  switchOn(): void {
    this.dropAll();
    this.on = true;
  }

  /** Stops answering from memory and drops everything (notifications lost, or storage closing). */
  switchOff(): void {
    this.on = false;
    this.dropAll();
  }

  /** Drops what a commit changed (a notice's `c`). */
  drop(changes: Notice['c']): void {
    for (const [table, change] of Object.entries(changes)) {
      this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
      if (change === '*') {
        for (const [name, cache] of this.caches) if (name === table || name.startsWith(`${table}\x00`)) cache.clear();
        continue;
      }
      const records = this.caches.get(table);
      for (const id of change.ids) records?.delete(id);
      for (const [index, key] of change.keys) this.caches.get(`${table}\x00${index}`)?.delete(key);
    }
  }

  dropAll(): void {
    for (const cache of this.caches.values()) cache.clear();
    for (const table of this.generations.keys()) this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
  }

  /** How many entries a cache holds (undefined: it has none). */
  entries(name: string): number | undefined {
    return this.caches.get(name)?.size;
  }

  /** A table's record cache while active, to look ids up in (undefined: read them all). */
  records(table: TableDef): ReadonlyMap<string, unknown> | undefined {
    return table.cache && this.on ? this.caches.get(table.name) : undefined;
  }

  /** `key` of cache `name` from memory, else loaded and kept unless an invalidation raced the load. */
  async read(table: TableDef, name: string, key: string, load: () => Promise<unknown>): Promise<unknown> {
    if (!table.cache || !this.on) return load();
    let cache = this.caches.get(name);
    if (cache === undefined) this.caches.set(name, (cache = new Map<string, unknown>()));
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generations.get(table.name) ?? 0;
    const value = await load();
    if (value === undefined || generation !== (this.generations.get(table.name) ?? 0) || !this.on) return value;
    return remember(cache, key, value, CACHE_MAX_ENTRIES);
  }
}

/**
 * A Reader sending its statements through `query`. With `caches` (the shared reader) cached tables
 * are answered from memory while they are active; without (a transaction's reader) every read asks
 * the database, so a decision is made on committed data.
 */
export function makeReader(query: Query, caches?: RecordCaches): Reader {
  const cachedRead = (table: TableDef, name: string, key: string, load: () => Promise<unknown>): Promise<unknown> =>
    caches === undefined ? load() : caches.read(table, name, key, load);
  const send = (statement: Statement) => query(statement.text, statement.values);
  const keysOf = async (table: TableDef, col: 'id' | { index: string }, range: KeyRange): Promise<string[]> => {
    const { rows } = await send(rangeSelect(table, col, range, false));
    return rows.map((r: { k: Buffer }) => text(r.k));
  };
  const keyedRecords = async (table: TableDef, col: 'id' | { index: string }, range: KeyRange) => {
    const { rows } = await send(rangeSelect(table, col, range, true));
    return rows.map((r: { k: Buffer; data: unknown }) => [text(r.k), r.data] as [string, unknown]);
  };
  const reader: Reader = {
    record: (table, id) =>
      cachedRead(table, table.name, id, async () => {
        const { rows } = await send(selectRecord(table, id));
        return (rows[0] as { data: unknown } | undefined)?.data;
      }),
    recordsById: async (table, ids) => {
      const found = new Map<string, unknown>();
      const cache = caches?.records(table);
      const missing = ids.filter((id) => {
        const hit = cache?.get(id);
        if (hit !== undefined) found.set(id, hit);
        return hit === undefined;
      });
      if (missing.length > 0) {
        const { rows } = await send(selectRecords(table, missing));
        for (const row of rows as { id: Buffer; data: unknown }[]) found.set(text(row.id), row.data);
      }
      return ids.map((id) => found.get(id));
    },
    uniqueId: async (table, index, key) =>
      (await cachedRead(table, `${table.name}\x00${index}`, key, async () => {
        const { rows } = await send(selectUniqueId(table, index, key));
        const row = rows[0] as { id: Buffer } | undefined;
        return row === undefined ? undefined : text(row.id);
      })) as string | undefined,
    records: (table, range) => keyedRecords(table, 'id', range),
    recordIds: (table, range) => keysOf(table, 'id', range),
    indexKeys: (table, index, range) => keysOf(table, { index }, range),
    // Keys and records in one statement, unless the records would come from the cache.
    indexRecords: async (table, index, range) => {
      if (caches?.active === true && table.cache) {
        const keys = await keysOf(table, { index }, range);
        const records = await reader.recordsById(table, keys.map(lastPart));
        return keys.map((key, n) => [key, records[n]]);
      }
      return keyedRecords(table, { index }, range);
    },
    countIndex: async (table, index, range) => {
      const { rows } = await send(countRange(table, index, range));
      return (rows[0] as { n: number }).n;
    },
    distinctSortKeys: async (table, index, range, prefix, limit) => {
      const { rows } = await send(distinctSortKeys(table, index, range, prefix, limit));
      return rows.map((r: { k: Buffer }) => text(r.k));
    },
    countRecords: async (table) => {
      const { rows } = await send(countRows(table));
      return (rows[0] as { n: number }).n;
    },
    meta: async (key) => {
      const { rows } = await query('SELECT value FROM meta WHERE key = $1', [key]);
      return (rows[0] as { value: unknown } | undefined)?.value ?? undefined;
    },
  };
  return reader;
}
