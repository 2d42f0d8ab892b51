import type { Logger } from '../log.js';
import { WRITE_PROBE_KEY, type TableDef } from './engine.js';
import { collections, indexSublevelName, tables, type CollectionName } from './keyspace.js';
import { lastPart } from './keys.js';
import { LevelStorage } from './leveldb/engine.js';
import { migrate } from './leveldb/migrate.js';
import { appendMetaKey, PostgresStorage } from './postgres/engine.js';

/** Meta keys that belong to one database and are not copied. */
const LOCAL_META = new Set(['schema_version', WRITE_PROBE_KEY]);
/** Records written per PostgreSQL transaction. */
const CHUNK = 500;
/** Tables whose ids are appended in commit order: the copy sets where the next append continues. */
const APPENDED = ['events'];

export interface CopiedTable {
  table: string;
  /** Records in the LevelDB data dir. */
  source: number;
  /** Records in PostgreSQL after the copy. */
  target: number;
  /** Index entries, source and target, per index. */
  indexes: Record<string, { source: number; target: number }>;
}

export interface CopyReport {
  tables: CopiedTable[];
  /** Meta values copied (generated secrets, consumer positions). */
  meta: number;
}

export class CopyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefusedError';
  }
}

export class CopyMismatchError extends Error {
  constructor(readonly mismatches: string[]) {
    super(`the copy does not match its source: ${mismatches.join('; ')}`);
    this.name = 'CopyMismatchError';
  }
}

function tableDef(name: CollectionName): TableDef {
  return { name, indexes: collections[name].indexes.map((index) => ({ name: index, unique: false })), cache: false };
}

/**
 * Copies a stopped daemon's LevelDB data dir into a PostgreSQL database (migrated first): every record
 * with its index keys as stored, every meta value (secrets included). A row already there is replaced,
 * so the copy can run again; a target holding records the source lacks is refused before anything
 * is written, and afterwards record and index counts must match.
 */
export async function copyToPostgres(dataDir: string, url: string, log: Logger): Promise<CopyReport> {
  const source = await LevelStorage.open(dataDir, log);
  try {
    await migrate(source);
    const target = await PostgresStorage.open(url, log);
    try {
      // Refused before anything is written: a target may hold nothing but an earlier copy of this source.
      const foreign: string[] = [];
      for (const name of Object.keys(collections) as CollectionName[]) {
        let n = 0;
        const records = source.sublevel(name);
        for (
          let after: string | undefined, ids: string[];
          (ids = await target.reader().recordIds(tableDef(name), { gt: after, limit: 1000 })).length > 0;
        ) {
          for (const id of ids) if (records.getSync(id) === undefined) n++;
          after = ids[ids.length - 1];
        }
        if (n > 0) foreign.push(`${name}: ${n}`);
      }
      if (foreign.length > 0)
        throw new CopyRefusedError(
          `the target database holds records that are not in this data dir (${foreign.join(', ')}); copy into an empty database`,
        );
      const report: CopyReport = { tables: [], meta: 0 };
      const mismatches: string[] = [];
      for (const name of Object.keys(collections) as CollectionName[]) {
        const table = tableDef(name);
        // id -> index keys, read from the index sublevels (a unique index maps key -> id, the others
        // end their keys with the id).
        const keysById = new Map<string, Map<string, string>>();
        const sourceIndexes: Record<string, number> = {};
        for (const index of table.indexes) {
          let n = 0;
          for await (const [key, value] of source.sublevel(indexSublevelName(name, index.name)).iterator()) {
            const id = typeof value === 'string' && value !== '' ? value : lastPart(key);
            let keys = keysById.get(id);
            if (keys === undefined) keysById.set(id, (keys = new Map<string, string>()));
            keys.set(index.name, key);
            n++;
          }
          sourceIndexes[index.name] = n;
        }
        let chunk: { id: string; value: unknown; keys: Map<string, string> }[] = [];
        let records = 0;
        for await (const [id, value] of source.sublevel(name).iterator()) {
          chunk.push({ id, value, keys: keysById.get(id) ?? new Map<string, string>() });
          records++;
          if (chunk.length === CHUNK) {
            await target.importRows(table, chunk);
            chunk = [];
          }
        }
        if (chunk.length > 0) await target.importRows(table, chunk);
        const counted = await target.countRows(table);
        const copied: CopiedTable = { table: name, source: records, target: counted.records, indexes: {} };
        if (counted.records !== records)
          mismatches.push(`${name}: ${records} records in the source, ${counted.records} in the target`);
        for (const index of table.indexes) {
          copied.indexes[index.name] = { source: sourceIndexes[index.name], target: counted.indexes[index.name] };
          if (sourceIndexes[index.name] !== counted.indexes[index.name])
            mismatches.push(
              `${name}.${index.name}: ${sourceIndexes[index.name]} index entries in the source, ${counted.indexes[index.name]} in the target`,
            );
        }
        report.tables.push(copied);
      }
      const meta: [string, unknown][] = [];
      for await (const [key, value] of source.sublevel(tables.meta).iterator()) if (!LOCAL_META.has(key)) meta.push([key, value]);
      for (const name of APPENDED) {
        const [last] = await source.sublevel(name).keys({ reverse: true, limit: 1 }).all();
        if (last !== undefined) meta.push([appendMetaKey(name), last]);
      }
      await target.importMeta(meta);
      report.meta = meta.length;
      if (mismatches.length > 0) throw new CopyMismatchError(mismatches);
      return report;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
