// The PostgreSQL engine's statements, built without a server (src/storage/postgres/sql.ts): what each
// asks of the database, with which parameters, and the names it refuses. The conformance suite runs
// them against a real server (storage-conformance.test.ts); this pins their text and numbering.
import t from 'tap';
import type { RecordWrite, TableDef } from '../src/storage/engine.js';
import {
  beginWith,
  bytes,
  chainStatements,
  claimSelect,
  countRange,
  countRows,
  deleteRows,
  distinctSortKeys,
  ident,
  inlineStatement,
  lastWrites,
  lockId,
  lockLastAppended,
  MAX_PARAMETERS,
  metaUpsert,
  rangeSelect,
  rangeSql,
  selectUniqueId,
  setLastAppended,
  upsertRows,
} from '../src/storage/postgres/sql.js';

const table: TableDef = {
  name: 'deliveries',
  indexes: [
    { name: 'webhook', unique: false },
    { name: 'key', unique: true },
  ],
  cache: false,
};

t.test('names: lower-case identifiers only, quoted', async (t) => {
  t.equal(ident('deliveries'), '"deliveries"');
  for (const bad of ['Deliveries', 'x"; DROP TABLE meta; --', '1st', 'a-b', ''])
    t.throws(() => ident(bad), { name: 'TypeError' }, `${JSON.stringify(bad)} is refused`);
  t.throws(() => rangeSelect({ ...table, name: 'no such"' }, 'id', {}, false), { name: 'TypeError' });
  t.throws(() => countRows(table, 'Bad'), { name: 'TypeError' }, 'an index name passes the same check');
});

t.test('a key range: exclusive bounds, order and limit as parameters after those already there', async (t) => {
  const params: unknown[] = ['earlier'];
  const sql = rangeSql('"ix_webhook"', { gt: 'a', lt: 'b', limit: 5, reverse: true }, params);
  t.equal(sql, ' WHERE "ix_webhook" > $2 AND "ix_webhook" < $3 ORDER BY "ix_webhook" DESC LIMIT $4');
  t.same(params, ['earlier', bytes('a'), bytes('b'), 5]);
  const open: unknown[] = [];
  t.equal(rangeSql('id', {}, open), ' WHERE id IS NOT NULL ORDER BY id ASC', 'no bound: every non-null key');
  t.same(open, []);
  t.equal(rangeSql('id', { lt: 'z' }, [], false), ' WHERE id < $1', 'unordered');
});

t.test('range reads: ids or index keys as k, with the records or not', async (t) => {
  t.same(rangeSelect(table, 'id', { gt: 'x' }, true), {
    text: 'SELECT id AS k, data FROM "deliveries" WHERE id > $1 ORDER BY id ASC',
    values: [bytes('x')],
  });
  t.same(rangeSelect(table, { index: 'webhook' }, { limit: 3 }, false), {
    text: 'SELECT "ix_webhook" AS k FROM "deliveries" WHERE "ix_webhook" IS NOT NULL ORDER BY "ix_webhook" ASC LIMIT $1',
    values: [3],
  });
});

t.test('counts: ordered only when a limit picks which keys count', async (t) => {
  t.same(countRange(table, 'webhook', { gt: 'a' }), {
    text: 'SELECT count(*)::int AS n FROM (SELECT 1 FROM "deliveries" WHERE "ix_webhook" > $1) AS s',
    values: [bytes('a')],
  });
  t.match(
    countRange(table, 'webhook', { gt: 'a', limit: 10, reverse: true }).text,
    /ORDER BY "ix_webhook" DESC LIMIT \$2\) AS s$/,
  );
  t.equal(countRows(table).text, 'SELECT count(*)::int AS n FROM "deliveries"');
  t.equal(countRows(table, 'key').text, 'SELECT count("ix_key")::int AS n FROM "deliveries"', "an index's non-null keys");
});

t.test('one record by a unique key, and a loose index scan with the prefix length in bytes', async (t) => {
  t.same(selectUniqueId(table, 'key', 'k1'), { text: 'SELECT id FROM "deliveries" WHERE "ix_key" = $1', values: [bytes('k1')] });
  const scan = distinctSortKeys(table, 'webhook', { gt: 'p\x00', lt: 'p\x01' }, 'pé', 7);
  t.same(scan.values, [bytes('p\x00'), bytes('p\x01'), 3, 7], 'é is two bytes');
  t.match(scan.text, /^WITH RECURSIVE d\(k\) AS/);
  t.match(scan.text, /SELECT k FROM d WHERE k IS NOT NULL LIMIT \$4$/);
});

t.test('claims skip rows another transaction holds, by id list or by range', async (t) => {
  t.same(claimSelect(table, { ids: ['a', 'b'] }), {
    text: 'SELECT id, data FROM "deliveries" WHERE id = ANY($1) ORDER BY id FOR UPDATE SKIP LOCKED',
    values: [[bytes('a'), bytes('b')]],
  });
  t.same(claimSelect(table, { index: 'webhook', range: { lt: 'due', limit: 2 } }), {
    text: 'SELECT id, data FROM "deliveries" WHERE "ix_webhook" < $1 ORDER BY "ix_webhook" ASC LIMIT $2 FOR UPDATE SKIP LOCKED',
    values: [bytes('due'), 2],
  });
});

t.test('BEGIN goes with the locks, in the order given, and the meta keys read', async (t) => {
  const escape = (s: string) => `'${s.replace(/'/g, "''")}'`;
  t.equal(beginWith([], [], escape), 'BEGIN');
  const locks = [lockId('b'), lockId('a')];
  t.equal(
    beginWith(locks, ["o'k"], escape),
    `BEGIN; SELECT pg_advisory_xact_lock(k) FROM unnest('{${locks.join(',')}}'::bigint[]) AS k; SELECT key, value FROM meta WHERE key IN ('o''k')`,
  );
  t.equal(lockId('a'), lockId('a'), 'a key always takes the same lock');
  t.not(lockId('a'), lockId('b'));
  t.equal(typeof lockId('a'), 'bigint');
});

t.test("a commit set: each record's last write, tables in first-touched order", async (t) => {
  const other: TableDef = { name: 'webhooks', indexes: [], cache: true };
  const write = (tbl: TableDef, id: string, value: object | undefined): RecordWrite => ({
    table: tbl,
    id,
    value,
    keys: new Map(),
    previous: undefined,
  });
  const sets = lastWrites([
    write(table, 'a', { v: 1 }),
    write(other, 'w', { v: 1 }),
    write(table, 'b', { v: 1 }),
    write(table, 'a', undefined),
    write(table, 'b', { v: 2 }),
    write(table, 'a', { v: 3 }),
  ]);
  t.same(
    sets.map((s) => [s.table.name, s.rows.map((r) => [r.id, r.value]), s.deleted]),
    [
      [
        'deliveries',
        [
          ['b', { v: 2 }],
          ['a', { v: 3 }],
        ],
        [],
      ],
      ['webhooks', [['w', { v: 1 }]], []],
    ],
    'a write after a delete writes; the last write of a record decides its place',
  );
  t.same(lastWrites([write(table, 'a', { v: 1 }), write(table, 'a', undefined)])[0].deleted, ['a']);
});

t.test('writes: rows of one statement, numbered in order', async (t) => {
  const upsert = upsertRows(table, [
    { id: 'r1', value: { n: 1 }, keys: new Map([['webhook', 'w1']]) },
    { id: 'r2', value: { n: 2 }, keys: new Map([['key', 'k2']]) },
  ]);
  t.equal(
    upsert.text,
    'INSERT INTO "deliveries" (id, data, "ix_webhook", "ix_key") VALUES ($1, $2::jsonb, $3, $4), ($5, $6::jsonb, $7, $8) ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, "ix_webhook" = EXCLUDED."ix_webhook", "ix_key" = EXCLUDED."ix_key"',
  );
  t.same(upsert.values, [bytes('r1'), '{"n":1}', bytes('w1'), null, bytes('r2'), '{"n":2}', null, bytes('k2')]);
  t.same(deleteRows(table, ['r1']), { text: 'DELETE FROM "deliveries" WHERE id = ANY($1)', values: [[bytes('r1')]] });
  t.same(
    setLastAppended('last_id:deliveries', '01J'),
    { text: 'UPDATE meta SET value = $1::jsonb WHERE key = $2', values: ['"01J"', 'last_id:deliveries'] },
    "an append's last id moves in its locked meta row",
  );
  t.equal(metaUpsert([]), undefined, 'no meta values, no statement');
  t.same(
    metaUpsert([
      ['a', 1],
      ['b', undefined],
      ['a', 2],
    ]),
    {
      text: 'INSERT INTO meta (key, value) VALUES ($1, $2::jsonb), ($3, $4::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      values: ['a', '2', 'b', 'null'],
    },
    'each key once, with its last value (a statement may not change a row twice)',
  );
  t.equal(
    lockLastAppended("'last_id:deliveries'"),
    "INSERT INTO meta (key, value) VALUES ('last_id:deliveries', 'null'::jsonb) ON CONFLICT (key) DO UPDATE SET value = meta.value RETURNING value",
  );
});

t.test("a commit's writes: one statement, placeholders numbered on, the append lock taken last", async (t) => {
  const del = deleteRows(table, ['r1']);
  const meta = metaUpsert([['cursor:x', 'evt_1']])!;
  const [one] = chainStatements([del, meta]);
  t.equal(
    one.text,
    'WITH w0 AS (DELETE FROM "deliveries" WHERE id = ANY($1)) INSERT INTO meta (key, value) VALUES ($2, $3::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
  );
  t.same(one.values, [[bytes('r1')], 'cursor:x', '"evt_1"']);
  t.same(chainStatements([meta]), [meta], 'one statement stays as it is');
  const [locked] = chainStatements([del, meta], 'last_id:events');
  t.equal(
    locked.text,
    'WITH w0 AS (DELETE FROM "deliveries" WHERE id = ANY($1) RETURNING 1), w1 AS (INSERT INTO meta (key, value) VALUES ($2, $3::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value RETURNING 1) INSERT INTO meta (key, value) SELECT $4, \'null\'::jsonb FROM (SELECT (SELECT count(*) FROM w0) + (SELECT count(*) FROM w1) AS n) AS written ON CONFLICT (key) DO UPDATE SET value = meta.value RETURNING value',
    'the lock reads every write first, so it is taken after them',
  );
  t.same(locked.values, [[bytes('r1')], 'cursor:x', '"evt_1"', 'last_id:events']);
  const big = { text: 'DELETE FROM "deliveries" WHERE id = ANY($1)', values: Array.from({ length: 40_000 }, () => null) };
  const split = chainStatements([big, big, meta], 'last_id:events');
  t.equal(split.length, 2, 'past the parameter limit, a second statement');
  t.ok(split.every((s) => s.values.length <= MAX_PARAMETERS));
  t.match(split[1].text, /RETURNING value$/, 'the lock goes with the last');
});

t.test('a statement with its parameters written in (the tail sent with COMMIT)', async (t) => {
  const escape = (text: string) => `'${text.replace(/'/g, "''")}'`;
  t.equal(
    inlineStatement(deleteRows(table, ['a', 'b']), escape),
    "DELETE FROM \"deliveries\" WHERE id = ANY(ARRAY[decode('61', 'hex'), decode('62', 'hex')])",
  );
  t.equal(
    inlineStatement(upsertRows(table, [{ id: 'r1', value: { q: "it's $1" }, keys: new Map([['webhook', 'w1']]) }]), escape),
    'INSERT INTO "deliveries" (id, data, "ix_webhook", "ix_key") VALUES (decode(\'7231\', \'hex\'), \'{"q":"it\'\'s $1"}\'::jsonb, decode(\'7731\', \'hex\'), NULL) ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, "ix_webhook" = EXCLUDED."ix_webhook", "ix_key" = EXCLUDED."ix_key"',
    'values escaped, and a placeholder inside a value is left alone',
  );
  t.throws(() => inlineStatement({ text: 'SELECT $1', values: [{}] }, escape), { name: 'TypeError' });
});
