// What an engine offers the engine-agnostic parts of storage (collections, transactions): reads of
// encoded keys and a commit of buffered writes. Both engines store the same keys (keys.ts), so a
// cursor, a range and an order mean the same on each. Domain code never sees this file.

/**
 * The meta key both engines write to find out whether writes work again after one failed (a
 * database-local value: backups and copies leave it out).
 */
export const WRITE_PROBE_KEY = 'write_probe';

/** A key range: bounds are exclusive; `limit` caps the entries read. */
export interface KeyRange {
  gt?: string;
  lt?: string;
  limit?: number;
  reverse?: boolean;
}

/** The declared shape of a table: what an engine needs to lay it out and keep its caches. */
export interface TableDef {
  readonly name: string;
  readonly indexes: readonly { readonly name: string; readonly unique: boolean }[];
  /** Small, hot tables (identity) read on every request: the engine may keep records in memory. */
  readonly cache: boolean;
}

export interface Reader {
  record(table: TableDef, id: string): Promise<unknown>;
  /** Several records by id, in the order asked (undefined where there is none): one round trip. */
  recordsById(table: TableDef, ids: readonly string[]): Promise<unknown[]>;
  /** The id holding `key` in a unique index. */
  uniqueId(table: TableDef, index: string, key: string): Promise<string | undefined>;
  /** Records in id order within `range` (ids as keys). */
  records(table: TableDef, range: KeyRange): Promise<[string, unknown][]>;
  /** Record ids only, in id order within `range`. */
  recordIds(table: TableDef, range: KeyRange): Promise<string[]>;
  /** Keys of a non-unique index within `range`, in key order. */
  indexKeys(table: TableDef, index: string, range: KeyRange): Promise<string[]>;
  /**
   * Optional: the records of a non-unique index's keys within `range`, in key order, as [key,
   * record] pairs, in one read. An engine without it is read as indexKeys, then recordsById.
   */
  indexRecords?(table: TableDef, index: string, range: KeyRange): Promise<[string, unknown][]>;
  /** How many keys of a non-unique index lie in `range` (up to its limit). */
  countIndex(table: TableDef, index: string, range: KeyRange): Promise<number>;
  /**
   * Optional: the first key of each distinct sort value in a non-unique index, within `gt`..`lt`
   * (keys there are `prefix` + sort + SEP + id), up to `limit` of them, in one read. An engine
   * without it is read in steps that skip past each value (Collection.listDistinct).
   */
  distinctSortKeys?(
    table: TableDef,
    index: string,
    range: { gt: string; lt: string },
    prefix: string,
    limit: number,
  ): Promise<string[]>;
  countRecords(table: TableDef): Promise<number>;
  meta(key: string): Promise<unknown>;
}

/** One record written (value) or deleted (undefined), with its index keys before and after. */
export interface RecordWrite {
  table: TableDef;
  id: string;
  value: object | undefined;
  /** Index name -> key of the new value; an index it is not in is absent. */
  keys: Map<string, string>;
  /** The same for the version it replaces (undefined: a new record). */
  previous: Map<string, string> | undefined;
}

/** A record whose id is taken at commit, in commit order (the event log). */
export interface AppendWrite {
  table: TableDef;
  prefix: string;
  build: (id: string) => { id: string; value: object; keys: Map<string, string> };
}

export interface CommitSet {
  writes: RecordWrite[];
  appends: AppendWrite[];
  meta: [string, unknown][];
  wakes: string[];
}

export function isEmpty(set: CommitSet): boolean {
  return set.writes.length === 0 && set.appends.length === 0 && set.meta.length === 0 && set.wakes.length === 0;
}
