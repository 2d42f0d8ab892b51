// Issue 36 item 3: the PostgreSQL tables and storage/keyspace.ts cannot drift. A database migrated
// from scratch must hold one table per collection (plus meta and schema_migrations), each with its
// `id` and `data` and exactly one `ix_<index>` column per index the keyspace declares; every index
// column is indexed, and the unique ones (and only they) carry a UNIQUE constraint. The stores'
// Collections are held to the keyspace at construction (storage/collection.ts), so with this test the
// three agree.
import pg from 'pg';
import t from 'tap';
import { collections, tables, type CollectionLayout } from '../src/storage/keyspace.js';
import { applySqlMigrations, sqlMigrations } from '../src/storage/postgres/migrations.js';
import { findPostgres, startPostgres } from './support/postgres.js';

const found = findPostgres();
if ('missing' in found) {
  t.pass(`skipped: missing ${found.missing}`);
} else {
  const cluster = await startPostgres(t);
  const client = new pg.Client({ connectionString: await cluster.createDatabase('keyspace') });
  await client.connect();
  t.teardown(() => client.end());
  await applySqlMigrations(client, sqlMigrations);

  const columns = new Map<string, Set<string>>();
  for (const row of (
    await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    )
  ).rows) {
    const set = columns.get(row.table_name) ?? new Set<string>();
    set.add(row.column_name);
    columns.set(row.table_name, set);
  }
  // Every index of the public schema with the columns it covers and whether it is unique (a UNIQUE
  // constraint is backed by a unique index of its own name).
  const indexes = (
    await client.query<{ table: string; name: string; column: string; unique: boolean; primary: boolean }>(
      `SELECT t.relname AS table, i.relname AS name, a.attname AS column, x.indisunique AS unique, x.indisprimary AS primary
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (x.indkey)
        WHERE n.nspname = 'public'`,
    )
  ).rows;

  t.test('one table per collection, and nothing else', async (t) => {
    const expected = [...Object.keys(collections), ...Object.values(tables), 'schema_migrations'].sort();
    t.same([...columns.keys()].sort(), expected);
  });

  for (const [name, layout] of Object.entries(collections) as [string, CollectionLayout][]) {
    t.test(name, async (t) => {
      const have = columns.get(name) ?? new Set<string>();
      t.same(
        [...have].sort(),
        ['data', 'id', ...layout.indexes.map((index) => `ix_${index}`)].sort(),
        'id, data and one column per declared index',
      );
      t.ok(
        indexes.some((x) => x.table === name && x.column === 'id' && x.primary),
        'the id is the primary key',
      );
      for (const index of layout.indexes) {
        const on = indexes.filter((x) => x.table === name && x.column === `ix_${index}`);
        t.ok(on.length > 0, `ix_${index} is indexed`);
        const unique = (layout.unique ?? []).includes(index);
        t.equal(
          on.some((x) => x.unique),
          unique,
          `ix_${index} ${unique ? 'is' : 'is not'} unique`,
        );
      }
    });
  }
}
