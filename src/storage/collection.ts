import { AppError } from '../errors.js';
import type { KeyRange, Reader, TableDef } from './engine.js';
import { collections, type CollectionLayout, type CollectionName } from './keyspace.js';
import { compositeKey, decodeCursor, encodeCursor, lastPart, prefixRange, SEP } from './keys.js';
import type { Storage, Tx } from './port.js';
import { checkOutsideTx } from './tx-check.js';

/** An index value: one string, or several for a compound index (e.g. organization, then status). */
export type IndexValue = string | readonly string[];

export interface IndexSpec<T> {
  /** Declared in keyspace.ts under the collection. */
  name: string;
  /** The indexed value; undefined leaves the record out of the index. */
  value: (record: T) => IndexValue | undefined;
  /** Order inside one value (e.g. a creation time); defaults to the record id. */
  sort?: (record: T) => string;
  /** A unique index maps value -> id and refuses a second record with the same value. */
  unique?: boolean;
}

export interface PageOptions {
  limit?: number;
  cursor?: string | null;
  reverse?: boolean;
  /**
   * Without a cursor: start past this sort value (`list`: past this id), in the order read, as a
   * cursor would (a log's reader that remembers the last id it read).
   */
  after?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Bounds on the sort values of one index value (all optional; `limit` caps the entries). */
export interface SortRange {
  /** sort >= from */
  from?: string;
  /** sort > after */
  after?: string;
  /** sort <= upTo */
  upTo?: string;
  /** sort < before */
  before?: string;
  limit?: number;
  reverse?: boolean;
}

/** One entry of a non-unique index: the record's sort value and id. */
export interface IndexEntry {
  sort: string;
  id: string;
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;
/**
 * Keys read per step while collecting distinct sort values: a few at first, more while each step finds
 * mostly new values. A value shared by many keys (a webhook's thousands of due deliveries) then costs
 * a read of a few keys before the next step skips past it, not of hundreds.
 */
const DISTINCT_FIRST_STEP = 16;
const DISTINCT_MAX_STEP = 256;

/** A page's size as the list reads use it: the default when unset, within [1, MAX_PAGE_SIZE]. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  return Math.max(1, Math.min(MAX_PAGE_SIZE, Math.trunc(limit)));
}

function valueParts(value: IndexValue): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

function foreignCursor(): AppError {
  return new AppError('invalid_request', 'cursor does not belong to this list');
}

function cursorKey(cursor: string | null | undefined): string | undefined {
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  const key = decodeCursor(cursor);
  // Base64url decoding skips stray characters and bad UTF-8 silently; only a cursor that
  // re-encodes to itself is one we issued.
  if (key === '' || encodeCursor(key) !== cursor) throw new AppError('invalid_request', 'cursor is not valid');
  return key;
}

export interface CollectionOptions {
  /**
   * Small, hot tables read on every request (identity): the engine may keep decoded records in
   * memory, kept exact by every commit (and, on PostgreSQL, by every other daemon's notifications).
   */
  cache?: boolean;
}

/**
 * A typed table, declared once: records by id, plus secondary indexes kept in step by every write.
 * Reads go through the engine of `storage` (inside a transaction, on its connection). Records read
 * back may be frozen (an engine's cache): copy before changing one.
 */
export class Collection<T extends object> {
  readonly table: TableDef;

  constructor(
    readonly storage: Storage,
    readonly name: CollectionName,
    readonly idOf: (record: T) => string,
    readonly indexes: IndexSpec<T>[] = [],
    options: CollectionOptions = {},
  ) {
    const layout: CollectionLayout = collections[name];
    for (const index of indexes) {
      if (!layout.indexes.includes(index.name)) throw new TypeError(`index ${name}.${index.name} is not declared in keyspace.ts`);
      if ((index.unique === true) !== (layout.unique ?? []).includes(index.name))
        throw new TypeError(`index ${name}.${index.name}: unique here and in keyspace.ts must agree`);
    }
    this.table = {
      name,
      indexes: indexes.map((i) => ({ name: i.name, unique: i.unique === true })),
      cache: options.cache === true,
    };
  }

  /** Set on a transaction's view of the collection (`through`): every read goes there. */
  private readonly fixedReader: Reader | undefined;

  private get reader(): Reader {
    if (this.fixedReader !== undefined) return this.fixedReader;
    checkOutsideTx(`a read of ${this.name}`);
    return this.storage.reader();
  }

  /** This collection read through `reader` (a transaction's: Tx.read makes and keeps it). */
  through(reader: Reader): Collection<T> {
    const view = Object.create(this) as Collection<T>;
    Object.defineProperty(view, 'fixedReader', { value: reader });
    return view;
  }

  /** The collection as `tx` reads it, or itself when there is no transaction. */
  in(tx: Tx | undefined): Collection<T> {
    return tx === undefined ? this : tx.read(this);
  }

  /** The record with this id. */
  async get(id: string): Promise<T | undefined> {
    if (id === '') return undefined;
    return (await this.reader.record(this.table, id)) as T | undefined;
  }

  /** Several records by id, in the order asked: one read. */
  async getMany(ids: readonly string[]): Promise<(T | undefined)[]> {
    if (ids.length === 0) return [];
    return (await this.reader.recordsById(this.table, ids)) as (T | undefined)[];
  }

  /** The record holding `value` in a unique index. */
  async findUnique(index: string, value: string): Promise<T | undefined> {
    const spec = this.indexSpec(index);
    if (spec.unique !== true) throw new TypeError(`${this.name}.${index} is not unique`);
    if (value === '') return undefined;
    const id = await this.reader.uniqueId(this.table, index, value);
    return id === undefined ? undefined : this.get(id);
  }

  /** How many records have an id after `after`, counted up to `max` (metrics scrapes, not hot paths). */
  async countAfter(after: string, max: number): Promise<number> {
    return (await this.reader.recordIds(this.table, { gt: after === '' ? undefined : after, limit: max })).length;
  }

  /** How many records the table holds: for status calls, not hot paths. */
  async count(): Promise<number> {
    return this.reader.countRecords(this.table);
  }

  /** All records, in id order, one page at a time (a range read from the cursor on). */
  async list(options: PageOptions = {}): Promise<Page<T>> {
    const limit = clampLimit(options.limit);
    const after = cursorKey(options.cursor) ?? (options.after || undefined);
    const reverse = options.reverse === true;
    const range: KeyRange = after === undefined ? {} : reverse ? { lt: after } : { gt: after };
    const entries = await this.reader.records(this.table, { ...range, reverse, limit: limit + 1 });
    const page = entries.slice(0, limit);
    return {
      items: page.map(([, v]) => v as T),
      nextCursor: entries.length > limit ? encodeCursor(page[page.length - 1][0]) : null,
    };
  }

  /**
   * Records with `value` in a non-unique index, in the index's sort order, one page at a time. A
   * compound value (an array) selects on every part, so a filtered list is still one range read.
   */
  async listBy(
    index: string,
    value: IndexValue,
    options: PageOptions & { within?: Pick<SortRange, 'from' | 'before'> } = {},
  ): Promise<Page<T>> {
    const limit = clampLimit(options.limit);
    const parts = valueParts(value);
    const whole = prefixRange(...parts);
    // `within` bounds the sort values (a time window); a cursor or `after` narrows it further.
    let range = options.within === undefined ? whole : sortBounds(parts, options.within);
    const after = cursorKey(options.cursor);
    if (after !== undefined) {
      if (!(after > whole.gt && after < whole.lt)) throw foreignCursor();
      range = narrow(range, options.reverse === true ? { gt: whole.gt, lt: after } : { gt: after, lt: whole.lt });
    } else if (options.after) {
      range = narrow(range, sortBounds(parts, options.reverse === true ? { before: options.after } : { after: options.after }));
    }
    const entries = await this.indexRecords(index, { ...range, reverse: options.reverse === true, limit: limit + 1 });
    const page = entries.slice(0, limit);
    return {
      items: page.map(([, record]) => record).filter((r): r is T => r !== undefined),
      nextCursor: entries.length > limit ? encodeCursor(page[page.length - 1][0]) : null,
    };
  }

  /**
   * Every record under `value` in a non-unique index, in index order, however many there are: idsBy
   * and getMany together, in one read where the engine can (PostgreSQL outside its caches).
   */
  async allBy(index: string, value: IndexValue): Promise<T[]> {
    const entries = await this.indexRecords(index, prefixRange(...valueParts(value)));
    return entries.map(([, record]) => record).filter((r): r is T => r !== undefined);
  }

  /**
   * Entries of a non-unique index under `value` whose sort values lie in `bounds`, in sort order: the
   * named queries of the areas (what is due, what expires when) are ranges of this kind.
   */
  async range(index: string, value: IndexValue, bounds: SortRange = {}): Promise<IndexEntry[]> {
    const parts = valueParts(value);
    const prefix = compositeKey(...parts) + SEP;
    const keys = await this.indexKeys(index, { ...sortBounds(parts, bounds), reverse: bounds.reverse, limit: bounds.limit });
    return keys.map((key) => {
      const rest = key.slice(prefix.length);
      const cut = rest.lastIndexOf(SEP);
      return cut < 0 ? { sort: rest, id: rest } : { sort: rest.slice(0, cut), id: rest.slice(cut + 1) };
    });
  }

  /** The key range of a non-unique index that `range(index, value, bounds)` reads (engines' claims). */
  keyRange(index: string, value: IndexValue, bounds: SortRange = {}): KeyRange {
    this.nonUnique(index);
    return { ...sortBounds(valueParts(value), bounds), reverse: bounds.reverse, limit: bounds.limit };
  }

  /** How many entries of a non-unique index lie in `bounds` (counted up to `bounds.limit`). */
  async countRange(index: string, value: IndexValue, bounds: SortRange = {}): Promise<number> {
    this.nonUnique(index);
    return this.reader.countIndex(this.table, index, { ...sortBounds(valueParts(value), bounds), limit: bounds.limit });
  }

  /**
   * The distinct sort values under `value` in a non-unique index, in order, one page at a time: a
   * sort value several records share (a principal's organization- and team-level memberships of one
   * organization) is listed once, and the cursor resumes past all of them. A read never walks a long
   * run of one sort value: each step resumes past the last value it saw.
   */
  async listDistinct(index: string, value: IndexValue, options: Omit<PageOptions, 'reverse'> = {}): Promise<Page<string>> {
    const spec = this.indexSpec(index);
    if (spec.unique === true || spec.sort === undefined) throw new TypeError(`${this.name}.${index} has no sort values`);
    const limit = clampLimit(options.limit);
    const range: KeyRange = prefixRange(...valueParts(value));
    const prefix = range.gt!;
    const after = cursorKey(options.cursor);
    if (after !== undefined) {
      if (!after.startsWith(prefix) || after.length === prefix.length || after.includes(SEP, prefix.length))
        throw foreignCursor();
      // Keys are value, sort, id: past `sort + SEP + any id` is past `sort + \x01`.
      range.gt = after + '\x01';
    } else if (options.after !== undefined) range.gt = prefix + options.after + '\x01';
    const sorts: string[] = [];
    // Keys are value, sort, id: the sort is what lies between the prefix and the next separator.
    const sortOf = (key: string): string => key.slice(prefix.length, key.indexOf(SEP, prefix.length));
    const reader = this.reader;
    if (reader.distinctSortKeys !== undefined) {
      const keys = await reader.distinctSortKeys(this.table, index, { gt: range.gt!, lt: range.lt! }, prefix, limit + 1);
      for (const key of keys) sorts.push(sortOf(key));
      if (sorts.length <= limit) return { items: sorts, nextCursor: null };
      return { items: sorts.slice(0, limit), nextCursor: encodeCursor(prefix + sorts[limit - 1]) };
    }
    for (let step = DISTINCT_FIRST_STEP; ;) {
      const keys = await this.indexKeys(index, { ...range, limit: step });
      const before = sorts.length;
      for (const key of keys) {
        const sort = sortOf(key);
        if (sort === sorts[sorts.length - 1]) continue;
        // One more distinct value than the page holds: the next page is not empty.
        if (sorts.length === limit) return { items: sorts, nextCursor: encodeCursor(prefix + sorts[limit - 1]) };
        sorts.push(sort);
      }
      if (keys.length < step) return { items: sorts, nextCursor: null };
      range.gt = prefix + sorts[sorts.length - 1] + '\x01';
      step = 2 * (sorts.length - before) >= keys.length ? Math.min(DISTINCT_MAX_STEP, 4 * step) : DISTINCT_FIRST_STEP;
    }
  }

  /**
   * Every id under `value` in a non-unique index, in index order, however many there are: for
   * internal reads of sets the domain bounds (a team's memberships, an organization's owners).
   */
  async idsBy(index: string, value: IndexValue): Promise<string[]> {
    const keys = await this.indexKeys(index, prefixRange(...valueParts(value)));
    return keys.map(lastPart);
  }

  /** How many records an index holds for one value (status calls, metrics scrapes). */
  async countBy(index: string, value: IndexValue): Promise<number> {
    return this.countRange(index, value);
  }

  /** Whether any record sits under `value` in a non-unique index: one key read, however many there are. */
  async hasAny(index: string, value: IndexValue): Promise<boolean> {
    return (await this.countRange(index, value, { limit: 1 })) > 0;
  }

  /** How many records sit under `value` in a non-unique index, counted up to `max`: limit checks. */
  async countUpTo(index: string, value: IndexValue, max: number): Promise<number> {
    return this.countRange(index, value, { limit: max });
  }

  /** Every index key of `record` (index name -> key; an index it is not in is absent). */
  keysOf(record: T): Map<string, string> {
    const keys = new Map<string, string>();
    for (const spec of this.indexes) {
      const key = this.indexKey(spec, record);
      if (key !== undefined) keys.set(spec.name, key);
    }
    return keys;
  }

  /** The key `record` has in one index (undefined: not in it): index rebuilds. */
  indexKeyOf(index: string, record: T): string | undefined {
    return this.indexKey(this.indexSpec(index), record);
  }

  isUnique(index: string): boolean {
    return this.indexSpec(index).unique === true;
  }

  /** Whether any index is unique (a write must then check for a holder). */
  get hasUnique(): boolean {
    return this.indexes.some((spec) => spec.unique === true);
  }

  /** [index key, record] pairs within `range`: the engine's one read, else keys and then their records. */
  private async indexRecords(index: string, range: KeyRange): Promise<[string, T | undefined][]> {
    this.nonUnique(index);
    const reader = this.reader;
    if (reader.indexRecords !== undefined) return (await reader.indexRecords(this.table, index, range)) as [string, T][];
    const keys = await reader.indexKeys(this.table, index, range);
    const records = await this.getMany(keys.map(lastPart));
    return keys.map((key, n) => [key, records[n]]);
  }

  private indexKeys(index: string, range: KeyRange): Promise<string[]> {
    this.nonUnique(index);
    return this.reader.indexKeys(this.table, index, range);
  }

  private indexKey(spec: IndexSpec<T>, record: T): string | undefined {
    const value = spec.value(record);
    if (value === undefined) return undefined;
    if (spec.unique === true) return typeof value === 'string' ? value : compositeKey(...value);
    const id = this.idOf(record);
    const parts = valueParts(value);
    return spec.sort === undefined ? compositeKey(...parts, id) : compositeKey(...parts, spec.sort(record), id);
  }

  private nonUnique(name: string): void {
    if (this.indexSpec(name).unique === true) throw new TypeError(`${this.name}.${name} is unique: read it with findUnique`);
  }

  private indexSpec(name: string): IndexSpec<T> {
    const spec = this.indexes.find((i) => i.name === name);
    if (spec === undefined) throw new TypeError(`${this.name} has no index ${name}`);
    return spec;
  }
}

/** The keys two ranges share. */
function narrow(a: { gt: string; lt: string }, b: { gt: string; lt: string }): { gt: string; lt: string } {
  return { gt: a.gt > b.gt ? a.gt : b.gt, lt: a.lt < b.lt ? a.lt : b.lt };
}

/** Key bounds for sort values in `bounds` under one index value (keys are value, sort, id). */
function sortBounds(parts: readonly string[], bounds: SortRange): { gt: string; lt: string } {
  const base = compositeKey(...parts) + SEP;
  const range = { gt: base, lt: compositeKey(...parts) + '\x01' };
  const raise = (gt: string) => (range.gt = gt > range.gt ? gt : range.gt);
  const lower = (lt: string) => (range.lt = lt < range.lt ? lt : range.lt);
  // A key with sort s is base + s + SEP + id: every such key lies between base + s and base + s + \x01.
  if (bounds.from !== undefined) raise(base + bounds.from);
  if (bounds.after !== undefined) raise(base + bounds.after + '\x01');
  if (bounds.upTo !== undefined) lower(base + bounds.upTo + '\x01');
  if (bounds.before !== undefined) lower(base + bounds.before);
  return range;
}
