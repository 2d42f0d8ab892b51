// Contract 2 and 11: SERVICE_STORAGE_SYNC. With `on`, every LevelDB commit is flushed to disk before
// it is acknowledged, and concurrent commits share one flushed batch (group commit); with `off` (the
// default) none is flushed. The daemon takes the setting from its configuration.
import t, { type Test } from 'tap';
import { createLogger } from '../src/log.js';
import { Collection } from '../src/storage/collection.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { startTestDaemon, asPrincipal, createOrganizationAs } from './helpers.js';

const silent = createLogger('silent');

/** Opens a store and records each batch LevelDB is asked to write: its size and its sync option. */
async function recorded(t: Test, sync: boolean) {
  const storage = await LevelStorage.open(t.testdir(), silent, { sync });
  t.teardown(() => storage.close());
  const batches: { ops: number; sync: boolean | undefined }[] = [];
  const real = storage.db.batch.bind(storage.db) as (ops: unknown[], options?: { sync?: boolean }) => Promise<void>;
  (storage.db as unknown as { batch: typeof real }).batch = (ops, options) => {
    batches.push({ ops: ops.length, sync: options?.sync });
    return real(ops, options);
  };
  const orgs = new Collection<{ id: string; slug: string }>(storage, 'organizations', (o) => o.id, [
    { name: 'slug', value: (o) => o.slug, unique: true },
  ]);
  return { storage, batches, orgs };
}

t.test('sync on: every batch is flushed, and concurrent commits share batches', async (t) => {
  const { storage, batches, orgs } = await recorded(t, true);
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      storage.transaction({}, async (tx) => void (await tx.put(orgs, { id: `o${i}`, slug: `s${i}` }))),
    ),
  );
  t.ok(
    batches.every((b) => b.sync === true),
    'each write asked LevelDB to sync',
  );
  t.ok(batches.length < 50, `50 commits took ${batches.length} flushed batches`);
  t.equal(
    batches.reduce((n, b) => n + b.ops, 0),
    100,
    'every record and index entry was written',
  );
  t.equal(await orgs.count(), 50);
});

t.test('sync off: nothing is flushed', async (t) => {
  const { storage, batches, orgs } = await recorded(t, false);
  await storage.transaction({}, async (tx) => void (await tx.put(orgs, { id: 'o', slug: 's' })));
  // No options at all (LevelDB's default is not to sync): any option costs every operation of the
  // batch a slow copy in abstract-level (src/storage/leveldb/engine.ts).
  t.same(batches, [{ ops: 2, sync: undefined }]);
});

t.test('a failed group fails each of its commits and keeps none', async (t) => {
  const { storage, orgs } = await recorded(t, true);
  const real = storage.db.batch.bind(storage.db);
  (storage.db as unknown as { batch: () => Promise<void> }).batch = () => Promise.reject(new Error('disk on fire'));
  const results = await Promise.allSettled(
    Array.from({ length: 5 }, (_, i) =>
      storage.transaction({}, async (tx) => void (await tx.put(orgs, { id: `o${i}`, slug: `s${i}` }))),
    ),
  );
  t.ok(
    results.every((r) => r.status === 'rejected'),
    'every commit of the group is refused',
  );
  (storage.db as unknown as { batch: typeof real }).batch = real;
  t.equal(await orgs.count(), 0);
  await storage.transaction({}, async (tx) => void (await tx.put(orgs, { id: 'after', slug: 'after' })));
  t.equal(await orgs.count(), 1, 'the writer goes on once the disk does');
});

t.test('the daemon takes SERVICE_STORAGE_SYNC from its configuration', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_STORAGE_SYNC: 'on' });
  t.equal(daemon.config.storageSync, 'on');
  const db = (daemon.storage as LevelStorage).db;
  const seen: (boolean | undefined)[] = [];
  const real = db.batch.bind(db) as (ops: unknown[], options: { sync?: boolean }) => Promise<void>;
  (db as unknown as { batch: typeof real }).batch = (ops, options) => {
    seen.push(options.sync);
    return real(ops, options);
  };
  await createOrganizationAs(daemon.url, asPrincipal('6a1c2e0b-3d4f-4a5b-8c7d-9e0f1a2b3c4d'), 'synced');
  t.ok(seen.length > 0 && seen.every((s) => s === true), 'its commits are flushed');
});
