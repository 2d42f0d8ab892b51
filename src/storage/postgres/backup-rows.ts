// A PostgreSQL database as backup entries and back: every row of every table read from one snapshot,
// and backed-up rows inserted into an empty database. bytea values travel as base64 under `$bytea`,
// jsonb values as JSON. engine.ts lends the connections.
import type pg from 'pg';
import { WRITE_PROBE_KEY } from '../engine.js';
import { collections } from '../keyspace.js';
import type { BackupEntry } from '../port.js';
import type { Statement } from './sql.js';

/** Rows read per query while a backup is taken. */
const BACKUP_PAGE = 1000;

/** The tables a backup holds: meta, then every collection (schema_migrations is the target's own). */
export function backupTables(): string[] {
  return ['meta', ...Object.keys(collections)];
}

/** A row as JSON: bytea as `{ $bytea: base64 }`, jsonb as it is. */
function encodeRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row))
    out[column] = Buffer.isBuffer(value) ? { $bytea: value.toString('base64') } : value;
  return out;
}

/** A backed-up value for its column: bytea from base64, meta's text key as is, jsonb as JSON text. */
function decodeValue(column: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$bytea' in value && typeof value.$bytea === 'string')
    return Buffer.from(value.$bytea, 'base64');
  if (value === null || column === 'key') return value;
  // node-postgres would send an array as a PostgreSQL array literal; JSON text is unambiguous.
  return JSON.stringify(value);
}

/**
 * Every row of every table (meta first), read on `client` in one REPEATABLE READ transaction: one
 * snapshot, however long the read takes.
 */
export async function* readBackup(client: pg.ClientBase): AsyncIterable<BackupEntry> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  for (const table of backupTables()) {
    const key = table === 'meta' ? 'key' : 'id';
    let after: unknown = undefined;
    for (;;) {
      const { rows } = await client.query<Record<string, unknown>>(
        after === undefined
          ? `SELECT * FROM ${table} ORDER BY ${key} LIMIT ${BACKUP_PAGE}`
          : `SELECT * FROM ${table} WHERE ${key} > $1 ORDER BY ${key} LIMIT ${BACKUP_PAGE}`,
        after === undefined ? [] : [after],
      );
      for (const row of rows) yield { t: table, r: encodeRow(row) };
      if (rows.length < BACKUP_PAGE) break;
      after = rows[rows.length - 1][key];
    }
  }
  await client.query('COMMIT');
}

/** True when no table holds a row (meta's local keys aside). */
export async function holdsNoRows(pool: pg.Pool): Promise<boolean> {
  for (const table of backupTables()) {
    const where = table === 'meta' ? ` WHERE key <> ALL($1)` : '';
    const { rows } = await pool.query(`SELECT 1 FROM ${table}${where} LIMIT 1`, table === 'meta' ? [[WRITE_PROBE_KEY]] : []);
    if (rows.length > 0) return false;
  }
  return true;
}

/** Inserts backed-up rows of one table in one statement; undefined when there are none. */
export function restoreStatement(table: string, rows: readonly Record<string, unknown>[]): Statement | undefined {
  if (rows.length === 0) return undefined;
  if (!backupTables().includes(table)) throw new TypeError(`not a table of this schema: ${table}`);
  const columns = Object.keys(rows[0]);
  for (const c of columns) if (!/^[a-z_][a-z0-9_]*$/.test(c)) throw new TypeError(`not a column name: ${c}`);
  const values: unknown[] = [];
  const tuples = rows.map((row) => `(${columns.map((c) => `$${values.push(decodeValue(c, row[c]))}`).join(', ')})`);
  return { text: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values };
}
