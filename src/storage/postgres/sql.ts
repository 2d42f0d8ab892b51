// The PostgreSQL engine's statements, built without a connection: every function here answers SQL
// text and its parameters, and runs nothing (engine.ts sends them). Table and column names come from
// the keyspace and pass `ident`; every value is a parameter, except where a comment says why not.
import { createHash } from 'node:crypto';
import type { KeyRange, RecordWrite, TableDef } from '../engine.js';

/** SQL text and its parameters ($1 up). */
export interface Statement {
  text: string;
  values: unknown[];
}

/** Rows per upsert statement (a statement takes at most 65,535 parameters; a row is 2 plus one per index). */
export const UPSERT_ROWS = 1_000;

/** A table's name, quoted; anything but a lower-case identifier is refused. */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`not a table or index name: ${name}`);
  return `"${name}"`;
}

/** An index's column (`ix_<index>`), quoted. */
export function column(index: string): string {
  return ident(`ix_${index}`);
}

/** A key as stored: bytea, so that keys sort by their bytes as they do in LevelDB. */
export function bytes(key: string): Buffer {
  return Buffer.from(key, 'utf8');
}

/** A stored key as text. */
export function text(value: Buffer): string {
  return value.toString('utf8');
}

/** A transaction lock key as a 64-bit advisory lock id (sha-256's first 8 bytes). */
export function lockId(key: string): bigint {
  return createHash('sha256').update(key).digest().readBigInt64BE(0);
}

/** " WHERE col > $n AND col < $m ORDER BY col LIMIT $k", with the values appended to `params`. */
export function rangeSql(col: string, range: KeyRange, params: unknown[], order = true): string {
  const where: string[] = [];
  if (range.gt !== undefined) {
    params.push(bytes(range.gt));
    where.push(`${col} > $${params.length}`);
  }
  if (range.lt !== undefined) {
    params.push(bytes(range.lt));
    where.push(`${col} < $${params.length}`);
  }
  if (where.length === 0) where.push(`${col} IS NOT NULL`);
  let sql = ` WHERE ${where.join(' AND ')}`;
  if (order) sql += ` ORDER BY ${col} ${range.reverse === true ? 'DESC' : 'ASC'}`;
  if (range.limit !== undefined) {
    params.push(range.limit);
    sql += ` LIMIT $${params.length}`;
  }
  return sql;
}

/** A range read of ids or of an index's keys (as `k`), with the records (`data`) or without. */
export function rangeSelect(table: TableDef, col: 'id' | { index: string }, range: KeyRange, withData: boolean): Statement {
  const name = col === 'id' ? 'id' : column(col.index);
  const values: unknown[] = [];
  const where = rangeSql(name, range, values);
  return { text: `SELECT ${name} AS k${withData ? ', data' : ''} FROM ${ident(table.name)}${where}`, values };
}

/** One record by id. */
export function selectRecord(table: TableDef, id: string): Statement {
  return { text: `SELECT data FROM ${ident(table.name)} WHERE id = $1`, values: [bytes(id)] };
}

/** Records by id, in no order (the caller puts them in the order it asked). */
export function selectRecords(table: TableDef, ids: readonly string[]): Statement {
  return { text: `SELECT id, data FROM ${ident(table.name)} WHERE id = ANY($1)`, values: [ids.map(bytes)] };
}

/** The id holding `key` in a unique index. */
export function selectUniqueId(table: TableDef, index: string, key: string): Statement {
  return { text: `SELECT id FROM ${ident(table.name)} WHERE ${column(index)} = $1`, values: [bytes(key)] };
}

/** Rows of a table (`index` undefined), or its rows with a key in `index`. */
export function countRows(table: TableDef, index?: string): Statement {
  return { text: `SELECT count(${index === undefined ? '*' : column(index)})::int AS n FROM ${ident(table.name)}`, values: [] };
}

/** How many index keys lie in `range`, up to its limit (ordered only when limited: the order picks which). */
export function countRange(table: TableDef, index: string, range: KeyRange): Statement {
  const values: unknown[] = [];
  const where = rangeSql(column(index), range, values, range.limit !== undefined);
  return { text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${ident(table.name)}${where}) AS s`, values };
}

/**
 * The first key of each distinct sort value of an index within `gt`..`lt` (keys there are `prefix` +
 * sort + SEP + id), up to `limit`: a loose index scan in one statement, each step one probe of the
 * column's btree for the first key past the previous key's sort value (sort + SEP + id sorts below
 * sort + \x01).
 */
export function distinctSortKeys(
  table: TableDef,
  index: string,
  range: { gt: string; lt: string },
  prefix: string,
  limit: number,
): Statement {
  const col = column(index);
  const t = ident(table.name);
  return {
    text: `WITH RECURSIVE d(k) AS (
             (SELECT ${col} FROM ${t} WHERE ${col} > $1 AND ${col} < $2 ORDER BY ${col} LIMIT 1)
             UNION ALL
             SELECT (SELECT ${col} FROM ${t}
                      WHERE ${col} > substring(d.k FROM 1 FOR $3 + position(decode('00', 'hex') IN substring(d.k FROM $3 + 1)) - 1) || decode('01', 'hex')
                        AND ${col} < $2 ORDER BY ${col} LIMIT 1)
             FROM d WHERE d.k IS NOT NULL
           )
           SELECT k FROM d WHERE k IS NOT NULL LIMIT $4`,
    values: [bytes(range.gt), bytes(range.lt), Buffer.byteLength(prefix, 'utf8'), limit],
  };
}

/** Candidates of a claim, by id list or index range, skipping rows another transaction holds. */
export function claimSelect(
  table: Pick<TableDef, 'name'>,
  candidates: { ids: readonly string[] } | { index: string; range: KeyRange },
): Statement {
  const values: unknown[] = [];
  const where =
    'ids' in candidates
      ? ` WHERE id = ANY($${values.push(candidates.ids.map(bytes))}) ORDER BY id`
      : rangeSql(column(candidates.index), candidates.range, values);
  return { text: `SELECT id, data FROM ${ident(table.name)}${where} FOR UPDATE SKIP LOCKED`, values };
}

/**
 * BEGIN, then each advisory lock in the order given (callers sort them: two transactions never
 * deadlock on them), then the meta values asked for: one round trip. Lock ids are integers made
 * here, so they are written inline; meta keys are literals escaped by the connection's `escape`.
 */
export function beginWith(locks: readonly bigint[], metaKeys: readonly string[], escape: (literal: string) => string): string {
  let sql =
    locks.length === 0 ? 'BEGIN' : `BEGIN; SELECT pg_advisory_xact_lock(k) FROM unnest('{${locks.join(',')}}'::bigint[]) AS k`;
  if (metaKeys.length > 0) sql += `; SELECT key, value FROM meta WHERE key IN (${metaKeys.map(escape).join(', ')})`;
  return sql;
}

/** A record as a row: its id, value and index keys. */
export interface Row {
  id: string;
  value: object;
  keys: Map<string, string>;
}

/** Each record's last write in a commit set, per table in first-touched order: rows to upsert and ids to delete. */
export function lastWrites(writes: readonly RecordWrite[]): { table: TableDef; rows: Row[]; deleted: string[] }[] {
  const tables = new Map<string, { table: TableDef; last: Map<string, RecordWrite> }>();
  for (const w of writes) {
    let entry = tables.get(w.table.name);
    if (entry === undefined) tables.set(w.table.name, (entry = { table: w.table, last: new Map() }));
    entry.last.delete(w.id);
    entry.last.set(w.id, w);
  }
  return [...tables.values()].map(({ table, last }) => {
    const rows: Row[] = [];
    const deleted: string[] = [];
    for (const w of last.values()) {
      if (w.value === undefined) deleted.push(w.id);
      else rows.push({ id: w.id, value: w.value, keys: w.keys });
    }
    return { table, rows, deleted };
  });
}

/** Deletes records by id. */
export function deleteRows(table: TableDef, ids: readonly string[]): Statement {
  return { text: `DELETE FROM ${ident(table.name)} WHERE id = ANY($1)`, values: [ids.map(bytes)] };
}

/** Sets meta values, each key's last value (a statement may not change a row twice). */
export function metaUpsert(entries: readonly [string, unknown][]): Statement | undefined {
  if (entries.length === 0) return undefined;
  const values: unknown[] = [];
  const tuples = [...new Map(entries)].map(
    ([key, value]) => `($${values.push(key)}, $${values.push(JSON.stringify(value ?? null))}::jsonb)`,
  );
  return {
    text: `INSERT INTO meta (key, value) VALUES ${tuples.join(', ')} ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    values,
  };
}

/**
 * Inserts or replaces rows of one table (at most UPSERT_ROWS) in one statement. A commit's other
 * writes join it through chainStatements, not here.
 */
export function upsertRows(table: TableDef, rows: readonly Row[]): Statement {
  const cols = table.indexes.map((i) => column(i.name));
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const cells = [
      bytes(row.id),
      JSON.stringify(row.value),
      ...table.indexes.map((i) => (row.keys.has(i.name) ? bytes(row.keys.get(i.name)!) : null)),
    ];
    const first = values.length;
    values.push(...cells);
    return `(${cells.map((_, n) => `$${first + n + 1}${n === 1 ? '::jsonb' : ''}`).join(', ')})`;
  });
  const updates = ['data = EXCLUDED.data', ...cols.map((c) => `${c} = EXCLUDED.${c}`)];
  return {
    text: `INSERT INTO ${ident(table.name)} (id, data${cols.map((c) => `, ${c}`).join('')}) VALUES ${tuples.join(', ')} ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
    values,
  };
}

/**
 * Makes an append's meta row if missing, locks it and reads the last id, in one statement (an upsert
 * that changes nothing returns the value as it stands once any other appender has committed). Its
 * key is an escaped literal, so BEGIN can go with it when it is the transaction's first statement.
 */
export function lockLastAppended(escapedMetaKey: string): string {
  return `INSERT INTO meta (key, value) VALUES (${escapedMetaKey}, 'null'::jsonb) ON CONFLICT (key) DO UPDATE SET value = meta.value RETURNING value`;
}

/** Moves an append's last id (its row is locked by lockLastAppended). */
export function setLastAppended(metaKey: string, last: string): Statement {
  return { text: 'UPDATE meta SET value = $1::jsonb WHERE key = $2', values: [JSON.stringify(last), metaKey] };
}

/** The most parameters one statement may carry (the protocol's limit is 65,535). */
export const MAX_PARAMETERS = 65_535;

/** `statement`'s text with its placeholders numbered from `offset` + 1 (a chain's later member). */
function renumber(statement: Statement, offset: number): string {
  return offset === 0 ? statement.text : statement.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/**
 * Data-modifying statements (no WITH of their own) run as one statement, so one round trip: all but
 * the last become WITH clauses (PostgreSQL runs each to completion, on one snapshot; they may not
 * change one row twice, and a commit set changes each row once). As many statements as fit in the
 * parameter limit go together; the answer is one statement per group, in order.
 *
 * `lockMetaKey`: the chain ends by taking an append's lock (lockLastAppended, here a parameter) and
 * returns its row's value; it reads the others' RETURNING first, so the lock is taken once every
 * other write of the statement is done (a write that waits for another transaction's row lock never
 * waits while holding the append lock, which every event-writing commit wants).
 */
export function chainStatements(statements: readonly Statement[], lockMetaKey?: string): Statement[] {
  const groups: Statement[][] = [[]];
  let params = lockMetaKey === undefined ? 0 : 1;
  for (const s of statements) {
    if (s.values.length + params > MAX_PARAMETERS && groups[groups.length - 1].length > 0) {
      groups.push([]);
      params = 0;
    }
    groups[groups.length - 1].push(s);
    params += s.values.length;
  }
  const out = groups.map((group, n): Statement => {
    const last = n === groups.length - 1;
    const values: unknown[] = [];
    const parts = group.map((s) => {
      const text = renumber(s, values.length);
      values.push(...s.values);
      return text;
    });
    if (last && lockMetaKey !== undefined) {
      const key = `$${values.push(lockMetaKey)}`;
      if (parts.length === 0) return { text: lockLastAppendedAt(key), values };
      const ctes = parts.map((text, i) => `w${i} AS (${text} RETURNING 1)`);
      const written = parts.map((_, i) => `(SELECT count(*) FROM w${i})`).join(' + ');
      return {
        text: `WITH ${ctes.join(', ')} INSERT INTO meta (key, value) SELECT ${key}, 'null'::jsonb FROM (SELECT ${written} AS n) AS written ON CONFLICT (key) DO UPDATE SET value = meta.value RETURNING value`,
        values,
      };
    }
    if (parts.length === 1) return { text: parts[0], values };
    const ctes = parts.slice(0, -1).map((text, i) => `w${i} AS (${text})`);
    return { text: `WITH ${ctes.join(', ')} ${parts[parts.length - 1]}`, values };
  });
  return out.filter((s) => s.text !== '');
}

/** lockLastAppended with its key as `placeholder` (a parameter). */
function lockLastAppendedAt(placeholder: string): string {
  return `INSERT INTO meta (key, value) VALUES (${placeholder}, 'null'::jsonb) ON CONFLICT (key) DO UPDATE SET value = meta.value RETURNING value`;
}

/** One parameter value as an SQL literal (the kinds the statements here pass: bytea, text, numbers, null). */
function literal(value: unknown, escape: (text: string) => string): string {
  if (value === null || value === undefined) return 'NULL';
  if (Buffer.isBuffer(value)) return `decode('${value.toString('hex')}', 'hex')`;
  if (typeof value === 'string') return escape(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map((v) => literal(v, escape)).join(', ')}]`;
  throw new TypeError(`cannot write ${typeof value} as an SQL literal`);
}

/**
 * `statement` with its parameters written in as literals (`escape`: the connection's escapeLiteral),
 * so that it can go in one simple query with other statements: the last ones of a commit go with
 * its COMMIT, a round trip less while the append lock is held.
 */
export function inlineStatement(statement: Statement, escape: (text: string) => string): string {
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => literal(statement.values[Number(n) - 1], escape));
}

/** Crockford's base32, as ULIDs are written. */
const BASE32 = "'0123456789ABCDEFGHJKMNPQRSTVWXYZ'";

/**
 * One appended row whose id is taken in SQL, under the append lock, in the simple query that
 * commits (so the lock spans no round trip): `row` was built with `row.id`, a fresh time-sortable id
 * (`prefix` + ULID), taken as the id when it sorts after the last one appended, else the last one
 * plus one (as sortableIdAfter does when the clock has not moved past it). The id is put in place of
 * `row.id` in the record and its index keys. The statements, in order: make the meta row if missing;
 * lock it and move the last id (an UPDATE that waited for another appender's commit evaluates its
 * new value on the row that one left); insert the row, returning its id as `appended_id`.
 */
export function appendInSql(
  table: TableDef,
  metaKey: string,
  prefix: string,
  row: Row,
  escape: (text: string) => string,
): string[] {
  const key = escape(metaKey);
  const fresh = escape(row.id);
  const p = escape(prefix);
  const v = `(value #>> '{}')`;
  const kept = `length(rtrim(${v}, 'Z'))`;
  const plusOne = `left(${v}, ${kept} - 1) || substr(${BASE32}, strpos(${BASE32}, substr(${v}, ${kept}, 1)) + 1, 1) || repeat('0', length(${v}) - ${kept})`;
  const next = `CASE WHEN ${v} IS NULL OR left(${v}, length(${p})) <> ${p} OR ${fresh} COLLATE "C" > ${v} COLLATE "C" THEN ${fresh} ELSE ${plusOne} END`;
  const freshHex = `'${bytes(row.id).toString('hex')}'`;
  const swapped = (key: string | undefined) =>
    key === undefined
      ? 'NULL'
      : `decode(replace('${bytes(key).toString('hex')}', ${freshHex}, encode(convert_to(n.id, 'UTF8'), 'hex')), 'hex')`;
  const cols = table.indexes.map((i) => `, ${column(i.name)}`).join('');
  const keys = table.indexes.map((i) => `, ${swapped(row.keys.get(i.name))}`).join('');
  return [
    `INSERT INTO meta (key, value) VALUES (${key}, 'null'::jsonb) ON CONFLICT (key) DO NOTHING`,
    `UPDATE meta SET value = to_jsonb(${next}) WHERE key = ${key}`,
    `INSERT INTO ${ident(table.name)} (id, data${cols}) SELECT convert_to(n.id, 'UTF8'), replace(${escape(JSON.stringify(row.value))}, ${fresh}, n.id)::jsonb${keys} FROM (SELECT value #>> '{}' AS id FROM meta WHERE key = ${key}) AS n RETURNING convert_from(id, 'UTF8') AS appended_id`,
  ];
}
