// Issue 33 item 2: an hourly limit costs one count read per send, on both engines. The count of a
// subject's entries and its oldest entry's time are kept with each send; the log itself is read only
// once its oldest entry has left the hour. The storage migrations count every subject once, so a
// subject with no count has no entries.
import pg from 'pg';
import t, { type Test } from 'tap';
import { createLogger } from '../src/log.js';
import { Collection } from '../src/storage/collection.js';
import { countId } from '../src/storage/counters.js';
import { HOUR_MS, HourlyLog, type HourlyCount, type HourlyLogEntry } from '../src/storage/hourly-log.js';
import { LevelStorage, SCHEMA_VERSION_KEY } from '../src/storage/leveldb/engine.js';
import { migrate } from '../src/storage/leveldb/migrate.js';
import type { Storage } from '../src/storage/port.js';
import { PostgresStorage } from '../src/storage/postgres/engine.js';
import { sqlMigrations } from '../src/storage/postgres/migrations.js';
import { findPostgres, launchPostgres } from './support/postgres.js';

const silent = createLogger('silent');

interface Engine {
  name: string;
  open(t: Test): Promise<Storage>;
  /** Runs the storage migration that counts every subject of every hourly log. */
  countAll(storage: Storage): Promise<void>;
}

const level: Engine = {
  name: 'LevelDB',
  async open(t) {
    const storage = await LevelStorage.open(t.testdir(), silent);
    await migrate(storage);
    t.teardown(() => storage.close());
    return storage;
  },
  async countAll(storage) {
    const s = storage as LevelStorage;
    await s.writeOps([{ type: 'put', sublevel: s.meta, key: SCHEMA_VERSION_KEY, value: 7 }]);
    await migrate(s);
  },
};

const engines: Engine[] = [level];
const found = findPostgres();
if (!('missing' in found)) {
  const cluster = await launchPostgres();
  t.teardown(() => cluster.stop());
  const urls = new WeakMap<Storage, string>();
  engines.push({
    name: 'PostgreSQL',
    async open(t) {
      const url = await cluster.createDatabase();
      const storage = await PostgresStorage.open(url, silent, { poolSize: 4 });
      urls.set(storage, url);
      t.teardown(() => storage.close());
      return storage;
    },
    async countAll(storage) {
      const client = new pg.Client({ connectionString: urls.get(storage)! });
      await client.connect();
      try {
        await client.query(sqlMigrations.find((m) => m.version === 17)!.sql);
      } finally {
        await client.end();
      }
    },
  });
}

const T0 = Date.parse('2026-11-28T10:00:00.000Z');
const at = (ms: number): string => new Date(ms).toISOString();

for (const engine of engines) {
  t.test(`${engine.name}: a sliding hour kept by counts`, async (t) => {
    const storage = await engine.open(t);
    const log = new HourlyLog<HourlyLogEntry>(storage, 'invitation_sends');
    const counts = new Collection<HourlyCount>(storage, 'counters', (c) => c.id);
    const consume = (subject: string, now: number, max = 3) =>
      storage.transaction({}, (tx) => log.tryConsume(tx, subject, max, now, {}));
    const entries = async (subject: string) => (await log.entries.range('subject', subject)).map((e) => e.sort);

    t.equal(await consume('org-a', T0), null, 'a first send: no count yet, no entries');
    t.same(await counts.get(countId('invitation_sends', 'org-a')), {
      id: 'invitation_sends:org-a',
      count: 1,
      oldest: at(T0),
    });
    t.equal(await consume('org-a', T0 + 1000), null);
    t.equal(await consume('org-a', T0 + 2000), null);
    t.equal(await consume('org-a', T0 + 3000), HOUR_MS - 3000, 'full: a slot frees when the oldest leaves the hour');
    t.same(await entries('org-a'), [at(T0), at(T0 + 1000), at(T0 + 2000)], 'a refused send stores nothing');
    t.equal(await consume('org-b', T0 + 3000), null, 'another subject has its own hour');

    t.equal(await consume('org-a', T0 + HOUR_MS + 1500), null, 'the oldest has left the hour');
    t.same(await entries('org-a'), [at(T0 + 2000), at(T0 + HOUR_MS + 1500)], 'those that left are deleted');
    t.same(await counts.get(countId('invitation_sends', 'org-a')), {
      id: 'invitation_sends:org-a',
      count: 2,
      oldest: at(T0 + 2000),
    });

    t.equal(await consume('org-a', T0 + 3 * HOUR_MS), null, 'all of them left');
    t.same(await entries('org-a'), [at(T0 + 3 * HOUR_MS)]);
    t.same(await counts.get(countId('invitation_sends', 'org-a')), {
      id: 'invitation_sends:org-a',
      count: 1,
      oldest: at(T0 + 3 * HOUR_MS),
    });
  });

  t.test(`${engine.name}: counts from before the oldest was kept, and the migration that counts`, async (t) => {
    const storage = await engine.open(t);
    const log = new HourlyLog<HourlyLogEntry>(storage, 'invitation_recipient_sends');
    const counts = new Collection<HourlyCount>(storage, 'counters', (c) => c.id);
    const id = countId('invitation_recipient_sends', 'a@example.com');
    // Entries written as an older daemon wrote them: a count without `oldest`, and a subject without one.
    await storage.transaction({}, async (tx) => {
      for (const [n, subject] of [
        [0, 'a@example.com'],
        [1, 'a@example.com'],
        [2, 'b@example.com'],
      ] as const)
        await tx.put(log.entries, { id: `e${n}`, subject, at: at(T0 + n * 1000) });
      await tx.put(counts, { id, count: 2 });
    });
    await engine.countAll(storage);
    t.same(await counts.get(id), { id, count: 2, oldest: at(T0) }, 'the migration counts each subject');
    t.same(await counts.get(countId('invitation_recipient_sends', 'b@example.com')), {
      id: 'invitation_recipient_sends:b@example.com',
      count: 1,
      oldest: at(T0 + 2000),
    });

    // A count without `oldest` (written between the two versions): the log is read once.
    await storage.transaction({}, (tx) => tx.put(counts, { id, count: 2 }));
    const max = 2;
    const full = await storage.transaction({}, (tx) => log.tryConsume(tx, 'a@example.com', max, T0 + 5000, {}));
    t.equal(full, HOUR_MS - 5000, 'still full: the log decides');
    t.equal(await storage.transaction({}, (tx) => log.tryConsume(tx, 'a@example.com', max, T0 + HOUR_MS + 500, {})), null);
    t.same(await counts.get(id), { id, count: 2, oldest: at(T0 + 1000) }, 'oldest is known from then on');
  });
}
