import { AppError } from '../errors.js';
import type { BatchOp, Storage, Sublevel } from './db.js';
import { collections, indexSublevelName, type CollectionName } from './keyspace.js';
import { compositeKey, decodeCursor, encodeCursor, lastPart, prefixRange } from './keys.js';
import type { UnitOfWork } from './unit-of-work.js';

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
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

function clampLimit(limit: number | undefined): number {
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

/** What a unit of work has already queued for a key: found=false when it has not touched it. */
export type PendingLookup = (sublevel: Sublevel, key: string) => { found: boolean; value?: unknown };

export interface CollectionOptions {
  /**
   * Keep decoded records (and unique-index entries) in memory, for small, hot tables read on every
   * request (identity). Writes through a unit of work keep the cache exact.
   */
  cache?: boolean;
}

/** A typed table: records by id, plus secondary indexes kept in step by every write. */
export class Collection<T extends object> {
  readonly records: Sublevel;
  private readonly indexSublevels = new Map<string, Sublevel>();

  constructor(
    readonly storage: Storage,
    readonly name: CollectionName,
    readonly idOf: (record: T) => string,
    readonly indexes: IndexSpec<T>[] = [],
    options: CollectionOptions = {},
  ) {
    this.records = storage.sublevel(name);
    if (options.cache === true) storage.cache(this.records);
    const declaredIndexes: readonly string[] = collections[name].indexes;
    for (const index of indexes) {
      if (!declaredIndexes.includes(index.name))
        throw new TypeError(`index ${name}.${index.name} is not declared in keyspace.ts`);
      const sub = storage.sublevel(indexSublevelName(name, index.name));
      if (options.cache === true && index.unique === true) storage.cache(sub);
      this.indexSublevels.set(index.name, sub);
    }
  }

  // Point reads are synchronous (Storage.read: LevelDB's getSync, or the read cache): about 1 us of
  // CPU against about 20 us for the async path (measured, docs/benchmarks.md). A block-cache miss
  // blocks the event loop for one disk read, which on this daemon's small working set is the cheaper
  // trade. Records read back may be frozen (cached): copy before changing one.

  /** The record with this id, read synchronously. */
  read(id: string): T | undefined {
    if (id === '') return undefined;
    return this.storage.read(this.records, id) as T | undefined;
  }

  /** The record holding `value` in a unique index, read synchronously. */
  readUnique(index: string, value: string): T | undefined {
    const spec = this.indexSpec(index);
    if (spec.unique !== true) throw new TypeError(`${this.name}.${index} is not unique`);
    const id = this.storage.read(this.indexSublevels.get(index)!, value) as string | undefined;
    return id === undefined ? undefined : this.read(id);
  }

  /** read() for call sites that await (the read itself is the same, synchronous one). */
  get(id: string): Promise<T | undefined> {
    return Promise.resolve(this.read(id));
  }

  async getMany(ids: string[]): Promise<(T | undefined)[]> {
    return Promise.all(ids.map((id) => this.get(id)));
  }

  /** readUnique() for call sites that await (the same read). */
  findUnique(index: string, value: string): Promise<T | undefined> {
    return Promise.resolve(this.readUnique(index, value));
  }

  /** How many records the table holds: walks the keys (no values), for status calls, not hot paths. */
  async count(): Promise<number> {
    let n = 0;
    for await (const _key of this.records.keys()) n++;
    return n;
  }

  /** All records, in id order, one page at a time (a range read from the cursor on). */
  async list(options: PageOptions = {}): Promise<Page<T>> {
    const limit = clampLimit(options.limit);
    const after = cursorKey(options.cursor);
    const range =
      options.reverse === true ? (after === undefined ? {} : { lt: after }) : after === undefined ? {} : { gt: after };
    const entries = await this.records.iterator({ ...range, reverse: options.reverse === true, limit: limit + 1 }).all();
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
  async listBy(index: string, value: IndexValue, options: PageOptions = {}): Promise<Page<T>> {
    const limit = clampLimit(options.limit);
    const sub = this.indexSublevel(index);
    const range = prefixRange(...valueParts(value));
    const after = cursorKey(options.cursor);
    if (after !== undefined) {
      if (!(after > range.gt && after < range.lt)) throw foreignCursor();
      if (options.reverse === true) range.lt = after;
      else range.gt = after;
    }
    const keys = await sub.keys({ ...range, reverse: options.reverse === true, limit: limit + 1 }).all();
    const pageKeys = keys.slice(0, limit);
    const records = await this.getMany(pageKeys.map(lastPart));
    return {
      items: records.filter((r): r is T => r !== undefined),
      nextCursor: keys.length > limit ? encodeCursor(pageKeys[pageKeys.length - 1]) : null,
    };
  }

  /**
   * The distinct sort values under `value` in a non-unique index, in order, one page at a time: a
   * sort value several records share (a principal's organization- and team-level memberships of one
   * organization) is listed once, and the cursor resumes past all of them.
   */
  async listDistinct(index: string, value: IndexValue, options: Omit<PageOptions, 'reverse'> = {}): Promise<Page<string>> {
    const spec = this.indexSpec(index);
    if (spec.unique === true || spec.sort === undefined) throw new TypeError(`${this.name}.${index} has no sort values`);
    const limit = clampLimit(options.limit);
    const parts = valueParts(value);
    const range = prefixRange(...parts);
    const prefix = range.gt;
    const after = cursorKey(options.cursor);
    if (after !== undefined) {
      if (!after.startsWith(prefix) || after.length === prefix.length || after.includes('\x00', prefix.length))
        throw foreignCursor();
      // Keys are value, sort, id: past `sort + SEP + any id` is past `sort + \x01`.
      range.gt = after + '\x01';
    }
    const sorts: string[] = [];
    for await (const key of this.indexSublevel(index).keys(range)) {
      const sort = key.slice(prefix.length, key.indexOf('\x00', prefix.length));
      if (sort === sorts[sorts.length - 1]) continue;
      // One more distinct value than the page holds: the next page is not empty.
      if (sorts.length === limit) return { items: sorts, nextCursor: encodeCursor(prefix + sorts[limit - 1]) };
      sorts.push(sort);
    }
    return { items: sorts, nextCursor: null };
  }

  /**
   * Every id under `value` in a non-unique index, in index order, however many there are: for
   * internal reads of sets the domain bounds (a team's memberships, an organization's owners).
   */
  async idsBy(index: string, value: IndexValue): Promise<string[]> {
    const keys = await this.indexSublevel(index)
      .keys(prefixRange(...valueParts(value)))
      .all();
    return keys.map(lastPart);
  }

  /** How many records an index holds for one value: walks keys only (status calls, metrics scrapes). */
  async countBy(index: string, value: IndexValue): Promise<number> {
    let n = 0;
    for await (const _key of this.indexSublevel(index).keys(prefixRange(...valueParts(value)))) n++;
    return n;
  }

  /** Whether any record sits under `value` in a non-unique index: one key read, however many there are. */
  async hasAny(index: string, value: IndexValue): Promise<boolean> {
    const keys = await this.indexSublevel(index)
      .keys({ ...prefixRange(...valueParts(value)), limit: 1 })
      .all();
    return keys.length > 0;
  }

  /** How many records sit under `value` in a non-unique index, counted up to `max` (keys only): limit checks. */
  async countUpTo(index: string, value: IndexValue, max: number): Promise<number> {
    const keys = await this.indexSublevel(index)
      .keys({ ...prefixRange(...valueParts(value)), limit: max })
      .all();
    return keys.length;
  }

  /**
   * Queues in `uow` a fresh build of one index from every stored record: the migration that adds
   * an index (or changes what it holds) over existing data. Returns how many entries it wrote.
   */
  async rebuildIndex(uow: UnitOfWork, index: string): Promise<number> {
    const spec = this.indexSpec(index);
    // A unique index refuses duplicates as records are written; a rebuild could only hide one.
    if (spec.unique === true) throw new TypeError(`${this.name}.${index} is unique: it cannot be rebuilt`);
    const sub = this.indexSublevel(index);
    for await (const key of sub.keys()) uow.delRaw(sub, key);
    let written = 0;
    for await (const record of this.records.values()) {
      const key = this.indexKey(spec, record as T);
      if (key === undefined) continue;
      uow.putRaw(sub, key, '');
      written++;
    }
    return written;
  }

  /**
   * Batch operations that write `next` (replacing `previous`) and keep every index in step.
   * `pending` lets a unit of work show its queued writes, so two records in one batch cannot
   * both claim a unique value.
   */
  writeOps(next: T | undefined, previous: T | undefined, pending?: PendingLookup): BatchOp[] {
    const ops: BatchOp[] = [];
    const id = this.idOf((next ?? previous)!);
    for (const spec of this.indexes) {
      const sub = this.indexSublevel(spec.name);
      const oldKey = previous === undefined ? undefined : this.indexKey(spec, previous);
      const newKey = next === undefined ? undefined : this.indexKey(spec, next);
      if (oldKey === newKey) continue;
      if (oldKey !== undefined) ops.push({ type: 'del', sublevel: sub, key: oldKey });
      if (newKey !== undefined) {
        if (spec.unique === true) {
          const queued = pending?.(sub, newKey);
          const holder = (queued?.found === true ? queued.value : this.storage.read(sub, newKey)) as string | undefined;
          if (holder !== undefined && holder !== id) {
            throw new AppError('conflict', `${this.name} with this ${spec.name} already exists`, {
              details: { field: spec.name },
            });
          }
        }
        ops.push({ type: 'put', sublevel: sub, key: newKey, value: spec.unique === true ? id : '' });
      }
    }
    ops.push(
      next === undefined
        ? { type: 'del', sublevel: this.records, key: id }
        : { type: 'put', sublevel: this.records, key: id, value: next },
    );
    return ops;
  }

  private indexKey(spec: IndexSpec<T>, record: T): string | undefined {
    const value = spec.value(record);
    if (value === undefined) return undefined;
    if (spec.unique === true) return typeof value === 'string' ? value : compositeKey(...value);
    const id = this.idOf(record);
    const parts = valueParts(value);
    return spec.sort === undefined ? compositeKey(...parts, id) : compositeKey(...parts, spec.sort(record), id);
  }

  private indexSpec(name: string): IndexSpec<T> {
    const spec = this.indexes.find((i) => i.name === name);
    if (spec === undefined) throw new TypeError(`${this.name} has no index ${name}`);
    return spec;
  }

  private indexSublevel(name: string): Sublevel {
    this.indexSpec(name);
    return this.indexSublevels.get(name)!;
  }
}
