// The scaffolding of a migration test: records an older daemon stored (without the index entries a
// later schema added), then today's daemon opening that storage. The LevelDB side writes them at
// schema `before` and migrates; the PostgreSQL side applies the SQL migrations up to `before` and
// inserts the rows. Each test then checks what the new indexes find, on both engines.
import pg from 'pg';
import type { Test } from 'tap';
import { createLogger } from '../../src/log.js';
import { LevelStorage } from '../../src/storage/leveldb/engine.js';
import { migrate, migrations, readSchemaVersion } from '../../src/storage/leveldb/migrate.js';
import { PostgresStorage } from '../../src/storage/postgres/engine.js';
import type { MigrationContext } from '../../src/storage/migration-context.js';
import { applySqlMigrations, sqlMigrations } from '../../src/storage/postgres/migrations.js';
import { startPostgres } from './postgres.js';

const silent = createLogger('silent');

/** A LevelDB storage whose `rows` of `sublevel` a schema-`before` daemon wrote, migrated to the latest schema. */
export async function levelStoredBefore(
  t: Test,
  before: number,
  sublevel: string,
  rows: { id: string }[],
  /** Rows of other sublevels that daemon wrote too. */
  more: Record<string, { id: string }[]> = {},
  context?: MigrationContext,
): Promise<LevelStorage> {
  const dir = t.testdir();
  const old = await LevelStorage.open(dir, silent);
  await migrate(
    old,
    migrations.filter((m) => m.version <= before),
  );
  t.equal(await readSchemaVersion(old), before);
  // Written as that daemon would: the record, without the later index entries.
  await old.writeOps(
    Object.entries({ ...more, [sublevel]: rows }).flatMap(([name, records]) =>
      records.map((r) => ({ type: 'put' as const, sublevel: old.sublevel(name), key: r.id, value: r })),
    ),
  );
  await old.close();

  const storage = await LevelStorage.open(dir, silent);
  t.teardown(() => storage.close());
  t.same(await migrate(storage, undefined, context), { from: before, to: migrations.at(-1)!.version });
  return storage;
}

/**
 * A fresh PostgreSQL database laid out by the SQL migrations up to `before`, `rows` inserted into
 * `table` as that daemon wrote them, then opened by today's engine (which applies the rest). The
 * client stays open to read the index columns the migrations filled.
 */
export async function postgresStoredBefore(
  t: Test,
  before: number,
  table: string,
  rows: { id: string }[],
  /** Rows of other tables that daemon wrote too. */
  more: Record<string, { id: string }[]> = {},
  context?: MigrationContext,
): Promise<{ storage: PostgresStorage; client: pg.Client }> {
  const cluster = await startPostgres(t);
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  t.teardown(() => client.end());
  await applySqlMigrations(
    client,
    sqlMigrations.filter((m) => m.version <= before),
  );
  for (const [name, records] of Object.entries({ ...more, [table]: rows }))
    for (const r of records)
      await client.query(`INSERT INTO ${name} (id, data) VALUES ($1, $2::jsonb)`, [Buffer.from(r.id), JSON.stringify(r)]);

  const storage = await PostgresStorage.open(cluster.url, silent, { migrationContext: context });
  t.teardown(() => storage.close());
  return { storage, client };
}
