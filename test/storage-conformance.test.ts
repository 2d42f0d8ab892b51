// Contract 11 and issue 10: one conformance suite over the storage port, run against each engine
// (LevelDB in a temp dir; PostgreSQL on a throwaway cluster this file starts). Every behaviour the
// domain relies on is asserted here once: atomicity, unique refusal, index follow-up, pagination and
// cursors, locks, claims and leases, append order without gaps, meta values. PostgreSQL adds what
// only a shared database has: two engines (two daemons) on one database.
import pg from 'pg';
import t, { type Test } from 'tap';
import { createLogger } from '../src/log.js';
import { Collection } from '../src/storage/collection.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { migrate } from '../src/storage/leveldb/migrate.js';
import type { Storage } from '../src/storage/port.js';
import { PostgresStorage, splitPool } from '../src/storage/postgres/engine.js';
import { findPostgres, launchPostgres, type TestPostgres } from './support/postgres.js';

const silent = createLogger('silent');

interface Org {
  id: string;
  slug: string;
  n: number;
}
interface Item {
  id: string;
  group: string;
  created_at: string;
}
interface Job {
  id: string;
  status: 'pending' | 'sending' | 'sent';
  due: string;
  lease_owner: string | null;
  lease_until: string | null;
}
interface Entry {
  id: string;
  kind: string;
  organization_id: string;
  n: number;
}

/** Test tables on real keyspace names, with index rules of the test's own. */
function tablesOf(storage: Storage) {
  return {
    orgs: new Collection<Org>(storage, 'organizations', (o) => o.id, [{ name: 'slug', value: (o) => o.slug, unique: true }], {
      cache: true,
    }),
    items: new Collection<Item>(storage, 'teams', (i) => i.id, [
      { name: 'organization', value: (i) => i.group, sort: (i) => i.created_at },
    ]),
    jobs: new Collection<Job>(storage, 'email_outbox', (j) => j.id, [
      {
        name: 'queue',
        value: (j) => (j.status === 'sent' ? undefined : j.status),
        sort: (j) => (j.status === 'pending' ? j.due : (j.lease_until ?? j.due)),
      },
    ]),
    log: new Collection<Entry>(storage, 'events', (e) => e.id, [
      { name: 'organization', value: (e) => e.organization_id, sort: (e) => e.id },
      { name: 'kind', value: (e) => e.kind, sort: (e) => e.id },
    ]),
  };
}

interface EngineUnderTest {
  name: string;
  /** A fresh, empty store. */
  open(t: Test): Promise<Storage>;
  /** A second engine on the same data (PostgreSQL only): another daemon. */
  openTwin?: (t: Test, first: Storage) => Promise<Storage>;
  /** The ids of `table`'s records that `fn` wrote, as the engine saw it (not as the port says). */
  rewrittenBy(storage: Storage, table: string, ids: string[], fn: () => Promise<unknown>): Promise<string[]>;
}

const level: EngineUnderTest = {
  name: 'leveldb',
  async open(t) {
    const storage = await LevelStorage.open(t.testdir(), silent);
    await migrate(storage);
    t.teardown(() => storage.close());
    return storage;
  },
  // Every batch LevelDB writes is announced on the database with its keys, sublevel prefix included.
  async rewrittenBy(storage, table, ids, fn) {
    const { db } = storage as LevelStorage;
    const keys = new Set<string>();
    const listener = (ops: { key: unknown }[]) => ops.forEach((op) => keys.add(String(op.key)));
    db.on('write', listener);
    try {
      await fn();
    } finally {
      db.off('write', listener);
    }
    return ids.filter((id) => keys.has(`!${table}!${id}`));
  },
};

/** SERVICE_DATABASE_POOL_SIZE of each PostgreSQL engine here. */
const POOL_SIZE = 8;

function postgres(cluster: TestPostgres): EngineUnderTest {
  const urls = new WeakMap<Storage, string>();
  return {
    name: 'postgres',
    async open(t) {
      const url = await cluster.createDatabase();
      const storage = await PostgresStorage.open(url, silent, { poolSize: POOL_SIZE });
      urls.set(storage, url);
      t.teardown(() => storage.close());
      return storage;
    },
    openTwin: async (t, first) => {
      const storage = await PostgresStorage.open(urls.get(first)!, silent, { poolSize: POOL_SIZE });
      t.teardown(() => storage.close());
      return storage;
    },
    // A row's xmin is the transaction that wrote its current version: any write changes it.
    async rewrittenBy(storage, table, ids, fn) {
      const client = new pg.Client({ connectionString: urls.get(storage)! });
      await client.connect();
      try {
        const versions = async () =>
          new Map(
            (await client.query<{ id: Buffer; xmin: string }>(`SELECT id, xmin::text FROM ${table}`)).rows.map((r) => [
              r.id.toString('utf8'),
              r.xmin,
            ]),
          );
        const before = await versions();
        await fn();
        const after = await versions();
        return ids.filter((id) => before.get(id) !== after.get(id));
      } finally {
        await client.end();
      }
    },
  };
}

/** A bounded wait (this file stays clear of the daemon's modules). */
async function waitFor(predicate: () => boolean | Promise<boolean>, { what }: { what: string }): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const iso = (ms: number) => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function suite(t: Test, engine: EngineUnderTest): void {
  t.test('a transaction commits all of its writes, or none when it throws', async (t) => {
    const s = await engine.open(t);
    const { orgs, items } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      await tx.put(orgs, { id: 'o1', slug: 'one', n: 1 });
      await tx.put(items, { id: 'i1', group: 'o1', created_at: iso(1) });
      tx.putMeta('k', { v: 1 });
    });
    t.same(await orgs.get('o1'), { id: 'o1', slug: 'one', n: 1 });
    t.same(await items.idsBy('organization', 'o1'), ['i1']);
    t.same(await s.readMeta('k'), { v: 1 });

    await t.rejects(
      s.transaction({}, async (tx) => {
        await tx.put(orgs, { id: 'o2', slug: 'two', n: 2 });
        await tx.put(items, { id: 'i2', group: 'o2', created_at: iso(2) });
        tx.putMeta('k', { v: 2 });
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    t.equal(await orgs.get('o2'), undefined, 'no record');
    t.same(await items.idsBy('organization', 'o2'), [], 'no index entry');
    t.same(await s.readMeta('k'), { v: 1 }, 'no meta value');
    t.equal(await orgs.findUnique('slug', 'two'), undefined, 'the unique value is free');
  });

  t.test('meta values commit with the records beside them: several keys, one key twice, meta alone', async (t) => {
    const s = await engine.open(t);
    const { orgs } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      await tx.put(orgs, { id: 'm1', slug: 'meta-one', n: 1 });
      tx.putMeta('a', 1);
      tx.putMeta('b', { nested: ['x'] });
      tx.putMeta('a', 2);
    });
    t.same([await s.readMeta('a'), await s.readMeta('b')], [2, { nested: ['x'] }], "each key's last value");
    t.same(await orgs.get('m1'), { id: 'm1', slug: 'meta-one', n: 1 });
    await s.transaction({}, async (tx) => {
      tx.putMeta('b', 'changed');
      tx.putMeta('c', 'alone');
      return Promise.resolve();
    });
    t.same([await s.readMeta('b'), await s.readMeta('c')], ['changed', 'alone'], 'meta alone');
    await t.rejects(
      s.transaction({}, async (tx) => {
        await tx.put(orgs, { id: 'm2', slug: 'meta-one', n: 2 });
        tx.putMeta('c', 'lost');
      }),
      { code: 'conflict' },
    );
    t.equal(await s.readMeta('c'), 'alone', 'a commit that fails writes no meta value either');
  });

  t.test('after-commit callbacks run once committed, never after a rollback', async (t) => {
    const s = await engine.open(t);
    const { orgs } = tablesOf(s);
    const seen: string[] = [];
    await s.transaction({}, async (tx) => {
      await tx.put(orgs, { id: 'o1', slug: 'one', n: 1 });
      tx.afterCommit(() => seen.push('committed'));
      t.same(seen, [], 'not before the commit');
    });
    await s
      .transaction({}, async (tx) => {
        tx.afterCommit(() => seen.push('rolled back'));
        throw new Error('no');
      })
      .catch(() => undefined);
    t.same(seen, ['committed']);
  });

  t.test('unique values: a second holder is conflict, also twice in one transaction; a value can move', async (t) => {
    const s = await engine.open(t);
    const { orgs } = tablesOf(s);
    await s.transaction({}, async (tx) => void (await tx.put(orgs, { id: 'o1', slug: 'taken', n: 1 })));
    await t.rejects(
      s.transaction({}, async (tx) => void (await tx.put(orgs, { id: 'o2', slug: 'taken', n: 2 }))),
      { code: 'conflict', details: { field: 'slug' } },
      'a stored holder',
    );
    await t.rejects(
      s.transaction({}, async (tx) => {
        await tx.put(orgs, { id: 'a', slug: 'fresh', n: 0 });
        await tx.put(orgs, { id: 'b', slug: 'fresh', n: 0 });
      }),
      { code: 'conflict' },
      'two claims in one transaction',
    );
    t.equal(await orgs.get('a'), undefined, 'the first claim of the refused transaction is not written either');
    t.equal(await orgs.findUnique('slug', 'fresh'), undefined);

    // One record gives a value up and another takes it, in either order within the transaction.
    await s.transaction({}, async (tx) => {
      await tx.put(orgs, { id: 'o1', slug: 'renamed', n: 1 });
      await tx.put(orgs, { id: 'o3', slug: 'taken', n: 3 });
    });
    t.equal((await orgs.findUnique('slug', 'taken'))?.id, 'o3');
    t.equal((await orgs.findUnique('slug', 'renamed'))?.id, 'o1');
    await s.transaction({}, async (tx) => await tx.delete(orgs, 'o3'));
    t.equal(await orgs.findUnique('slug', 'taken'), undefined, 'a deleted record frees its value');
  });

  t.test('concurrent claims of one unique value: exactly one wins', async (t) => {
    const s = await engine.open(t);
    const { orgs } = tablesOf(s);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        s.transaction({}, async (tx) => {
          await sleep(i % 3);
          await tx.put(orgs, { id: `o${i}`, slug: 'contested', n: i });
        }),
      ),
    );
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one holder');
    for (const r of results) if (r.status === 'rejected') t.match(r.reason, { code: 'conflict' });
  });

  t.test('indexes follow each write: a moved record leaves its old entry', async (t) => {
    const s = await engine.open(t);
    const { items } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      await tx.put(items, { id: 'i1', group: 'g1', created_at: iso(1) });
      await tx.put(items, { id: 'i2', group: 'g1', created_at: iso(2) });
    });
    await s.transaction({}, async (tx) => void (await tx.put(items, { id: 'i1', group: 'g2', created_at: iso(3) })));
    t.same(await items.idsBy('organization', 'g1'), ['i2']);
    t.same(await items.idsBy('organization', 'g2'), ['i1']);
    await s.transaction({}, async (tx) => await tx.delete(items, 'i2'));
    t.same(await items.idsBy('organization', 'g1'), []);
    t.equal(await items.countBy('organization', 'g2'), 1);
    t.equal(await items.count(), 1);
  });

  t.test(
    'several records in one read: in the order asked, missing ones undefined, a transaction sees its own writes',
    async (t) => {
      const s = await engine.open(t);
      const { items, orgs } = tablesOf(s);
      await s.transaction({}, async (tx) => {
        for (const id of ['a', 'b', 'c']) await tx.put(items, { id, group: 'g', created_at: iso(1) });
      });
      t.same(
        (await items.getMany(['c', 'x', 'a'])).map((i) => i?.id),
        ['c', undefined, 'a'],
      );
      t.same(await items.getMany([]), []);
      await s.transaction({}, async (tx) => {
        await tx.put(items, { id: 'b', group: 'moved', created_at: iso(2) });
        await tx.delete(items, 'c');
        const seen = await tx.getMany(items, ['a', 'b', 'c', 'x']);
        t.same(
          seen.map((i) => i?.group),
          ['g', 'moved', undefined, undefined],
          'buffered writes and deletes first, then the store',
        );
      });
      t.equal((await items.get('b'))?.group, 'moved');

      // insert: a fresh record without a read for an earlier version, indexed like put.
      await s.transaction({}, async (tx) => tx.insert(items, { id: 'n1', group: 'new', created_at: iso(5) }));
      t.same(await items.idsBy('organization', 'new'), ['n1']);
      await t.rejects(
        s.transaction({}, async (tx) => tx.insert(orgs, { id: 'o1', slug: 'x', n: 1 })),
        /unique index/,
        'refused where a unique value must be checked',
      );
    },
  );

  t.test('a claim of named candidates: one transaction, take decides, a record not in the store is skipped', async (t) => {
    const s = await engine.open(t);
    const { jobs } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      for (const id of ['j1', 'j2', 'j3'])
        await tx.put(jobs, { id, status: 'pending', due: iso(1), lease_owner: null, lease_until: null });
    });
    const taken = await s.claim(jobs, {
      candidates: { ids: ['j3', 'missing', 'j1', 'j2'] },
      limit: 3,
      lockOf: (id) => `job:${id}`,
      take: (job) =>
        job.id === 'j1' ? undefined : { ...job, status: 'sending' as const, lease_owner: 'me', lease_until: iso(9) },
    });
    t.same(taken.map((j) => j.id).sort(), ['j3'], 'j1 refused by take; j2 beyond the limit of three candidates');
    t.equal((await jobs.get('j3'))?.lease_owner, 'me');
    t.equal((await jobs.get('j2'))?.lease_owner, null);
  });

  t.test('a claim whose take answers the record itself takes it without writing it', async (t) => {
    const s = await engine.open(t);
    const { jobs } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      for (const id of ['kept', 'leased'])
        await tx.put(jobs, { id, status: 'pending', due: iso(1), lease_owner: null, lease_until: null });
    });
    let taken: Job[] = [];
    const rewritten = await engine.rewrittenBy(s, 'email_outbox', ['kept', 'leased'], async () => {
      taken = await s.claim(jobs, {
        candidates: { index: 'queue', value: 'pending', upTo: iso(Date.now()) },
        limit: 10,
        lockOf: (id) => `job:${id}`,
        take: (job) => (job.id === 'kept' ? job : { ...job, lease_owner: 'me', lease_until: iso(Date.now() + 1000) }),
      });
    });
    t.same(taken.map((j) => j.id).sort(), ['kept', 'leased'], 'both are taken');
    t.same(rewritten, ['leased'], 'only the changed one is written');
    t.same(await jobs.get('kept'), { id: 'kept', status: 'pending', due: iso(1), lease_owner: null, lease_until: null });
    t.equal((await jobs.get('leased'))?.lease_owner, 'me');
  });

  t.test('pages and cursors: forward, reverse, foreign cursors refused, sort ranges', async (t) => {
    const s = await engine.open(t);
    const { items } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      for (let i = 0; i < 25; i++)
        await tx.put(items, { id: `i${String(i).padStart(2, '0')}`, group: 'g', created_at: iso(1000 + i) });
      await tx.put(items, { id: 'other', group: 'h', created_at: iso(1) });
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await items.listBy('organization', 'g', { limit: 10, cursor });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    t.equal(pages, 3);
    t.same(
      seen,
      Array.from({ length: 25 }, (_, i) => `i${String(i).padStart(2, '0')}`),
      'every item once, in sort order',
    );
    const back = await items.listBy('organization', 'g', { limit: 3, reverse: true });
    t.same(
      back.items.map((i) => i.id),
      ['i24', 'i23', 'i22'],
    );
    const first = await items.listBy('organization', 'h', { limit: 1 });
    await t.rejects(items.listBy('organization', 'g', { cursor: back.nextCursor === null ? 'x' : 'Zm9v' }), {
      code: 'invalid_request',
    });
    t.equal(first.nextCursor, null);
    const all = await items.list({ limit: 100 });
    t.equal(all.items.length, 26);
    const inRange = await items.range('organization', 'g', { after: iso(1004), upTo: iso(1007) });
    t.same(
      inRange.map((e) => e.id),
      ['i05', 'i06', 'i07'],
      'after is exclusive, upTo inclusive',
    );
    t.equal(await items.countRange('organization', 'g', { from: iso(1020) }), 5);
    t.equal(await items.countUpTo('organization', 'g', 7), 7);
    t.ok(await items.hasAny('organization', 'h'));
  });

  t.test('distinct sort values: each once, in order, past long runs of one value, paged by cursor', async (t) => {
    const s = await engine.open(t);
    const { items } = tablesOf(s);
    // Group g: 40 sort values; the 3rd has 60 items, the others one each. Group h (after g) and f
    // (before it) must not show up.
    const sorts = Array.from({ length: 40 }, (_, i) => iso(1000 + i));
    await s.transaction({}, async (tx) => {
      for (const [i, at] of sorts.entries()) {
        await tx.put(items, { id: `g${i}`, group: 'g', created_at: at });
        if (i === 2) for (let n = 0; n < 60; n++) await tx.put(items, { id: `g2-${n}`, group: 'g', created_at: at });
      }
      await tx.put(items, { id: 'f0', group: 'f', created_at: iso(5) });
      await tx.put(items, { id: 'h0', group: 'h', created_at: iso(5) });
    });
    for (const limit of [1, 3, 39, 40, 50]) {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const page: { items: string[]; nextCursor: string | null } = await items.listDistinct('organization', 'g', {
          limit,
          cursor,
        });
        pages.push(page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      t.same(pages.flat(), sorts, `limit ${limit}: every sort value once, in order`);
      t.equal(pages.length, Math.ceil(sorts.length / limit), `limit ${limit}: full pages, no empty last one`);
    }
    t.same((await items.listDistinct('organization', 'g', { after: sorts[37] })).items, sorts.slice(38), 'after a sort value');
    t.same(await items.listDistinct('organization', 'none'), { items: [], nextCursor: null }, 'no records: one empty page');
  });

  t.test('reads inside a transaction go through it (tx.read, tx.readMeta); the check refuses any other', async (t) => {
    const s = await engine.open(t);
    const { orgs } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      tx.putMeta('m', 'v1');
      await tx.put(orgs, { id: 'r', slug: 'read', n: 1 });
    });
    await s.transaction({ locks: ['r'] }, async (tx) => {
      await tx.put(orgs, { id: 'r', slug: 'read', n: 2 });
      tx.putMeta('m', 'v2');
      const view = tx.read(orgs);
      t.equal(view, tx.read(orgs), 'one view per collection and transaction');
      t.equal(orgs.in(tx), view, 'in(tx) is that view');
      t.equal((await view.get('r'))?.n, 1, 'the view reads what was committed');
      t.equal((await view.findUnique('slug', 'read'))?.id, 'r');
      t.equal((await tx.get(orgs, 'r'))?.n, 2, "tx.get sees the transaction's own write");
      t.equal(await tx.readMeta('m'), 'v1', 'readMeta reads the committed value');
      // SWITCHYARD_CHECK_TX=1 (.taprc): a read that bypasses the transaction is a bug the tests catch.
      await t.rejects(orgs.get('r'), { name: 'TypeError', message: /while a transaction runs/ });
      await t.rejects(s.readMeta('m'), { name: 'TypeError', message: /while a transaction runs/ });
      await t.rejects(
        s.transaction({ locks: ['r'] }, async () => undefined),
        { name: 'TypeError', message: /inside another/ },
        'a transaction inside another (refused before it waits for the lock the outer one holds)',
      );
    });
    t.equal(orgs.in(undefined), orgs, 'in(undefined) is the collection itself');
    t.equal((await orgs.get('r'))?.n, 2);
    t.equal(await s.readMeta('m'), 'v2');
  });

  t.test('tx.saw: a record the caller knows is taken as told, not read; a delete of it goes by it', async (t) => {
    const s = await engine.open(t);
    const { items } = tablesOf(s);
    const stored: Item = { id: 'k', group: 'g', created_at: iso(1) };
    await s.transaction({}, async (tx) => void (await tx.put(items, stored)));
    // Told something else than what is stored (only to show it): the transaction answers what it was told.
    const told: Item = { ...stored, group: 'told' };
    const read = await s.transaction({}, async (tx) => {
      tx.saw(items, 'k', told);
      return [await tx.get(items, 'k'), (await tx.getMany(items, ['k']))[0]];
    });
    t.same(read, [told, told], 'tx.get and tx.getMany answer the record as told');
    t.same(await items.get('k'), stored, 'nothing was written');
    // Told as it is: deleted, with its index entry.
    await s.transaction({}, async (tx) => {
      tx.saw(items, 'k', stored);
      await tx.delete(items, 'k');
    });
    t.equal(await items.get('k'), undefined, 'deleted');
    t.same((await items.listBy('organization', 'g')).items, [], 'its index entry with it');
    // Told it is missing: a delete of it is a no-op, whatever is stored.
    await s.transaction({}, async (tx) => void (await tx.put(items, stored)));
    await s.transaction({}, async (tx) => {
      tx.saw(items, 'k', undefined);
      await tx.delete(items, 'k');
    });
    t.same(await items.get('k'), stored, 'a record said to be missing is not deleted');
  });

  t.test('a range bound left undefined means no bound: countAfter from the start counts every record', async (t) => {
    const s = await engine.open(t);
    const { log } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      for (const id of ['e1', 'e2', 'e3']) await tx.put(log, { id, organization_id: 'o', kind: 'k', n: 0 });
    });
    t.equal(await log.countAfter('', 10), 3, "after '' (a cursor at the start of an empty log): every record");
    t.equal(await log.countAfter('e1', 10), 2);
    t.equal(await log.countAfter('', 2), 2, 'up to its bound');
    const reader = s.reader();
    t.same(await reader.recordIds(log.table, { gt: undefined, lt: undefined, limit: 10 }), ['e1', 'e2', 'e3'], 'recordIds');
    t.equal((await reader.records(log.table, { gt: undefined, limit: 10 })).length, 3, 'records');
    t.equal((await reader.indexKeys(log.table, 'organization', { gt: undefined, limit: 10 })).length, 3, 'indexKeys');
    t.equal(await reader.countIndex(log.table, 'organization', { gt: undefined, limit: 10 }), 3, 'countIndex');
  });

  t.test('allBy and listBy read records by index, cached or not, through a transaction too', async (t) => {
    const s = await engine.open(t);
    const { items } = tablesOf(s);
    // A cached table with a non-unique index: PostgreSQL reads its keys and serves the records from the cache.
    const cachedItems = new Collection<Item>(
      s,
      'memberships',
      (i) => i.id,
      [{ name: 'organization', value: (i) => i.group, sort: (i) => i.created_at }],
      { cache: true },
    );
    for (const c of [items, cachedItems]) {
      await s.transaction({}, async (tx) => {
        for (const [id, n] of [
          ['b', 2],
          ['a', 1],
          ['c', 3],
        ] as const)
          await tx.put(c, { id, group: 'g', created_at: iso(n) });
        await tx.put(c, { id: 'x', group: 'h', created_at: iso(1) });
      });
      const ids = async (read: Promise<Item[]>) => (await read).map((i) => i.id);
      t.same(await ids(c.allBy('organization', 'g')), ['a', 'b', 'c'], `${c.name}: every record, in sort order`);
      t.same(await c.allBy('organization', 'none'), [], `${c.name}: none`);
      t.same(await ids(c.listBy('organization', 'g', { limit: 2 }).then((p) => p.items)), ['a', 'b']);
      await s.transaction({}, async (tx) => {
        await tx.put(c, { id: 'd', group: 'g', created_at: iso(4) });
        t.same(await ids(tx.read(c).allBy('organization', 'g')), ['a', 'b', 'c'], `${c.name}: what was committed`);
      });
      t.same(
        await ids(c.allBy('organization', 'g')),
        ['a', 'b', 'c', 'd'],
        `${c.name}: the commit is read (and the cache dropped)`,
      );
    }
  });

  t.test('a transaction may name the meta values it reads: read with its locks, as committed', async (t) => {
    const s = await engine.open(t);
    const quoted = "it's";
    await s.transaction({}, async (tx) => {
      tx.putMeta('k1', { a: 1 });
      tx.putMeta(quoted, 'q');
    });
    await s.transaction({ locks: ['m'], meta: ['k1', 'k2', quoted] }, async (tx) => {
      t.same(await tx.readMeta('k1'), { a: 1 });
      t.equal(await tx.readMeta('k2'), undefined, 'absent');
      t.equal(await tx.readMeta(quoted), 'q', 'a key with a quote');
      tx.putMeta('k2', 'v');
      t.equal(await tx.readMeta('k2'), undefined, 'not its own write');
    });
    t.equal(await s.readMeta('k2'), 'v');
    await s.transaction({ meta: ['k2'] }, async (tx) => t.equal(await tx.readMeta('k2'), 'v', 'without locks too'));
  });

  t.test('locks: read-modify-writes on one key never lose an update', async (t) => {
    const s = await engine.open(t);
    const { orgs } = tablesOf(s);
    await s.transaction({}, async (tx) => void (await tx.put(orgs, { id: 'c', slug: 'counter', n: 0 })));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        s.transaction({ locks: ['counter'] }, async (tx) => {
          const current = (await tx.read(orgs).get('c'))!;
          await sleep(1);
          await tx.put(orgs, { ...current, n: current.n + 1 });
        }),
      ),
    );
    t.equal((await orgs.get('c'))!.n, 20);
  });

  t.test('claims: due work only, never twice at once, a lease taken over only once it has expired', async (t) => {
    const s = await engine.open(t);
    const { jobs } = tablesOf(s);
    const now = Date.now();
    await s.transaction({}, async (tx) => {
      for (let i = 0; i < 30; i++)
        await tx.put(jobs, { id: `j${i}`, status: 'pending', due: iso(now - 1000 + i), lease_owner: null, lease_until: null });
      await tx.put(jobs, { id: 'later', status: 'pending', due: iso(now + 60_000), lease_owner: null, lease_until: null });
    });
    const claimer = (owner: string, leaseMs: number) =>
      s.claim(jobs, {
        candidates: { index: 'queue', value: 'pending', upTo: iso(Date.now()) },
        limit: 10,
        lockOf: (id) => `job:${id}`,
        take: (job) =>
          job.status === 'pending'
            ? { ...job, status: 'sending' as const, lease_owner: owner, lease_until: iso(Date.now() + leaseMs) }
            : undefined,
      });
    const rounds = await Promise.all([claimer('a', 10_000), claimer('b', 10_000), claimer('a', 10_000), claimer('b', 10_000)]);
    const ids = rounds.flat().map((j) => j.id);
    t.equal(new Set(ids).size, ids.length, 'no job claimed twice');
    t.equal(ids.length, 30, 'every due job claimed');
    t.notOk(ids.includes('later'), 'work not yet due is left');

    // A claim's clock is its `upTo`: a takeover at a later time is a claim with a later upTo (no sleeping).
    const takeover = (owner: string, at: number) =>
      s.claim(jobs, {
        candidates: { index: 'queue', value: 'sending', upTo: iso(at) },
        limit: 50,
        lockOf: (id) => `job:${id}`,
        take: (job) => (job.status === 'sending' ? { ...job, lease_owner: owner, lease_until: iso(at + 60_000) } : undefined),
      });
    t.same(await takeover('c', Date.now()), [], 'a live lease is not taken over');
    const later = Date.now() + 20_000;
    const taken = await takeover('c', later);
    t.equal(taken.length, 30, 'expired leases are');
    t.ok(
      taken.every((j) => j.lease_owner === 'c'),
      'now held by the new owner',
    );
    t.same(await takeover('d', later + 1000), [], 'and not again while the new lease lives');
  });

  t.test('claims skip a record whose lock another transaction holds', async (t) => {
    const s = await engine.open(t);
    const { jobs } = tablesOf(s);
    await s.transaction({}, async (tx) => {
      await tx.put(jobs, { id: 'busy', status: 'pending', due: iso(1), lease_owner: null, lease_until: null });
      await tx.put(jobs, { id: 'free', status: 'pending', due: iso(2), lease_owner: null, lease_until: null });
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const isHeld = new Promise<void>((r) => (holding = r));
    const holder = s.transaction({ locks: ['job:busy'] }, async () => {
      holding();
      await held;
    });
    await isHeld;
    const claimed = await s.claim(jobs, {
      candidates: { index: 'queue', value: 'pending', upTo: iso(Date.now()) },
      limit: 10,
      lockOf: (id) => `job:${id}`,
      take: (job) => ({ ...job, status: 'sending' as const, lease_owner: 'x', lease_until: iso(Date.now() + 1000) }),
    });
    release();
    await holder;
    t.same(
      claimed.map((j) => j.id),
      ['free'],
    );
  });

  t.test('appends: ids in commit order, so a reader that remembers the last id never misses one', async (t) => {
    const s = await engine.open(t);
    const { log } = tablesOf(s);
    const append = (n: number, delayMs: number) =>
      s.transaction({}, async (tx) => {
        tx.append(log, 'evt_', (id) => ({ id, kind: 'k', organization_id: 'o', n }));
        await sleep(delayMs); // a slow transaction: its event was queued early, it commits late
      });
    // A consumer polls "after the last id I read" the whole time.
    const read: Entry[] = [];
    let last: string | undefined;
    let polling = true;
    const consumer = (async () => {
      while (polling) {
        const page = await log.range('organization', 'o', last === undefined ? {} : { after: last });
        for (const { id } of page) read.push((await log.get(id))!);
        if (page.length > 0) last = page[page.length - 1].id;
        await sleep(2);
      }
    })();
    await Promise.all(Array.from({ length: 30 }, (_, i) => append(i, i % 3 === 0 ? 40 : 0)));
    await sleep(20);
    polling = false;
    await consumer;
    const page = await log.range('organization', 'o', last === undefined ? {} : { after: last });
    for (const { id } of page) read.push((await log.get(id))!);
    t.equal(read.length, 30, 'the consumer read every event');
    t.equal(new Set(read.map((e) => e.id)).size, 30, 'each once');
    // Commit order made observable: a slow transaction appends first and holds until later ones
    // have committed (each awaited before the next starts, so their order is known), then commits.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = s.transaction({}, async (tx) => {
      tx.append(log, 'evt_', (id) => ({ id, kind: 'k', organization_id: 'o', n: 100 }));
      await gate;
    });
    for (const n of [101, 102, 103]) await append(n, 0);
    open();
    await slow;
    const stored = (await log.list({ limit: 100 })).items;
    t.same(
      stored.slice(-4).map((e) => e.n),
      [101, 102, 103, 100],
      'id order is commit order (the transaction that appended first but committed last has the greatest id)',
    );
    t.ok(
      stored.every((e) => e.id.startsWith('evt_')),
      'ids carry the prefix',
    );
    t.same(
      (await log.range('kind', 'k')).map((e) => e.id),
      stored.map((e) => e.id),
      'indexes hold the appended ids',
    );
  });

  t.test('background work has connections of its own: requests holding all of theirs do not stall it', async (t) => {
    const s = await engine.open(t);
    const { items } = tablesOf(s);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Every connection requests have (PostgreSQL: the pool less the loops' quarter), each held by an open transaction.
    const held = engine.name === 'postgres' ? splitPool(POOL_SIZE).foreground : 4;
    let open = 0;
    const holders = Array.from({ length: held }, () =>
      s.transaction({}, async () => {
        open++;
        await gate;
      }),
    );
    try {
      await waitFor(() => open === held, { what: 'the held transactions' });
      const item = { id: 'bg', group: 'g', created_at: iso(1) };
      await s.background.transaction({}, async (tx) => void (await tx.put(items, item)));
      t.same(await items.get('bg'), item, 'a background transaction and a read ran meanwhile');
      const claimed = await s.background.claim(items, {
        candidates: { ids: ['bg'] },
        limit: 1,
        lockOf: (id) => `item:${id}`,
        take: (record) => ({ ...record, group: 'claimed' }),
      });
      t.same(claimed, [{ ...item, group: 'claimed' }], 'a background claim too');
      let answered = false;
      const request = s.transaction({}, async () => undefined).then(() => (answered = true));
      await sleep(100);
      // LevelDB has no pool: nothing waits there.
      t.equal(answered, engine.name === 'leveldb', "a request's transaction waits for one of the requests' connections");
      release();
      await request;
    } finally {
      release();
      await Promise.all(holders);
    }
  });

  t.test('meta values and wake-ups', async (t) => {
    const s = await engine.open(t);
    t.equal(await s.readMeta('missing'), undefined);
    await s.transaction({}, async (tx) => tx.putMeta('secret', 'abc'));
    t.equal(await s.readMeta('secret'), 'abc');
    let woken = 0;
    const off = s.onWake('work', () => woken++);
    await s.transaction({}, async (tx) => tx.wake('work'));
    await waitFor(() => woken === 1, { what: 'the wake-up' });
    off();
    await s.transaction({}, async (tx) => tx.wake('work'));
    await sleep(20);
    t.equal(woken, 1, 'an unsubscribed listener hears nothing');
  });

  if (engine.name === 'postgres')
    t.test("PostgreSQL: BEGIN goes with a transaction's first statement; one that sends nothing sends no BEGIN", async (t) => {
      const s = await engine.open(t);
      const { items, log } = tablesOf(s);
      await s.transaction({}, async (tx) => void (await tx.put(items, { id: 'x', group: 'g', created_at: iso(1) })));
      // Every statement the engine sends while one transaction runs (nothing else runs on this engine).
      const sent: string[] = [];
      // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, called with its `this`
      const query = pg.Client.prototype.query;
      const spy = function (this: pg.Client, ...args: unknown[]) {
        const text = args[0];
        sent.push((typeof text === 'string' ? text : (text as { text: string }).text).slice(0, 60));
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      };
      const counted = async (fn: () => Promise<unknown>): Promise<string[]> => {
        sent.length = 0;
        pg.Client.prototype.query = spy as typeof query;
        try {
          await fn();
        } finally {
          pg.Client.prototype.query = query;
        }
        return [...sent];
      };
      const append = await counted(() =>
        s.transaction({}, async (tx) => tx.append(log, 'evt_', (id) => ({ id, kind: 'k', organization_id: 'p', n: 1 }))),
      );
      t.equal(
        append.length,
        1,
        `an append alone: BEGIN, its id taken in SQL, its row, notice and COMMIT (${append.join(' | ')})`,
      );
      t.match(append[0], /^BEGIN; INSERT INTO meta/);
      // Writes to several tables, meta values and an append, under a lock: the lock with BEGIN, every
      // write with the append's lock in one statement, the appended rows with the COMMIT.
      const mixed = await counted(() =>
        s.transaction({ locks: ['mixed'] }, async (tx) => {
          await tx.put(items, { id: 'y', group: 'g', created_at: iso(2) });
          await tx.put(items, { id: 'z', group: 'g', created_at: iso(3) });
          await tx.delete(items, 'x');
          tx.insert(log, { id: 'evt_inserted', kind: 'k', organization_id: 'q', n: 0 });
          tx.putMeta('mixed', 1);
          tx.append(log, 'evt_', (id) => ({ id, kind: 'k', organization_id: 'p', n: 2 }));
        }),
      );
      const reads = mixed.filter((sql) => sql.startsWith('SELECT'));
      t.equal(mixed.length - reads.length, 3, `lock, writes, commit (${mixed.join(' | ')})`);
      t.match(mixed[0], /^BEGIN; SELECT pg_advisory_xact_lock/);
      t.match(mixed[mixed.length - 2], /^WITH w0 AS \(DELETE FROM "teams"/);
      t.match(mixed[mixed.length - 1], /^INSERT INTO meta \(key, value\) VALUES \('last_id:events'/);
      t.equal(await items.get('x'), undefined, 'the delete committed');
      t.same(
        (await items.range('organization', 'g')).map((e) => e.id),
        ['y', 'z'],
        'the upserts committed',
      );
      t.equal(await s.readMeta('mixed'), 1, 'the meta value committed');
      t.equal((await log.range('organization', 'q')).length, 1, 'the inserted row committed');
      t.same(await counted(() => s.transaction({}, async () => undefined)), [], 'nothing to do: nothing sent');
      const read = await counted(() => s.transaction({}, async (tx) => void (await tx.read(items).get('x'))));
      t.equal(read[0], 'BEGIN', 'a read first: BEGIN just before it');
      t.equal(read[read.length - 1], 'COMMIT');
      const ids = (await log.range('organization', 'p')).map((e) => e.id);
      t.equal(ids.length, 2, 'each append committed once');
      t.ok(ids[0] < ids[1], 'in commit order');
      // The id is taken in SQL: the fresh one when it sorts after the last, else the last plus one
      // (a last id from a clock ahead of this one, or one taken by a transaction that began later).
      const appendAfter = async (last: string) => {
        const org = `r:${last}`;
        await s.transaction({}, async (tx) => tx.putMeta('last_id:events', last));
        await s.transaction({}, async (tx) => tx.append(log, 'evt_', (id) => ({ id, kind: 'k', organization_id: org, n: 3 })));
        const [newest] = await log.range('organization', org, { reverse: true, limit: 1 });
        t.same(await log.get(newest.id), { id: newest.id, kind: 'k', organization_id: org, n: 3 }, 'the record holds its id');
        t.equal(await s.readMeta('last_id:events'), newest.id, 'the last id moved');
        return newest.id;
      };
      t.equal(await appendAfter('evt_7ZZZZZZZZZ0000000000000009'), 'evt_7ZZZZZZZZZ000000000000000A');
      t.equal(await appendAfter('evt_7ZZZZZZZZZ00000000000000ZZ'), 'evt_7ZZZZZZZZZ0000000000000100', 'a carry past Z');
      const past = await appendAfter('evt_01ARZ3NDEKTSV4RRFFQ69G5FAV');
      t.ok(
        past > 'evt_01ARZ3NDEKTSV4RRFFQ69G5FAV' && past.slice(4, 14) !== '01ARZ3NDEK',
        `a last id in the past: a fresh one (${past})`,
      );
    });

  if (engine.openTwin !== undefined) {
    const openTwin = engine.openTwin;
    t.test('two daemons on one database', async (t) => {
      const a = await engine.open(t);
      const b = await openTwin(t, a);
      const ta = tablesOf(a);
      const tb = tablesOf(b);

      t.test('a change through one is seen by the other, cache included', async (t) => {
        await a.transaction({}, async (tx) => void (await tx.put(ta.orgs, { id: 'o', slug: 'shared', n: 1 })));
        t.equal((await tb.orgs.get('o'))?.n, 1, 'b reads it (and caches it)');
        t.equal((await tb.orgs.findUnique('slug', 'shared'))?.id, 'o');
        await a.transaction({}, async (tx) => void (await tx.put(ta.orgs, { id: 'o', slug: 'moved', n: 2 })));
        // The writer returns once every peer has acknowledged dropping what it changed.
        t.equal((await tb.orgs.get('o'))?.n, 2, "b's very next read sees the change");
        t.equal(await tb.orgs.findUnique('slug', 'shared'), undefined, 'the old unique value is gone from b too');
      });

      t.test('unique values hold across daemons', async (t) => {
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? a : b).transaction(
              {},
              async (tx) => void (await tx.put(ta.orgs, { id: `x${i}`, slug: 'race', n: i })),
            ),
          ),
        );
        t.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      });

      t.test('locks hold across daemons', async (t) => {
        await a.transaction({}, async (tx) => void (await tx.put(ta.orgs, { id: 'c', slug: 'count', n: 0 })));
        await Promise.all(
          Array.from({ length: 20 }, (_, i) => {
            const [s, tables] = i % 2 === 0 ? [a, ta] : [b, tb];
            return s.transaction({ locks: ['c'] }, async (tx) => {
              const current = (await tx.read(tables.orgs).get('c'))!;
              await sleep(1);
              await tx.put(tables.orgs, { ...current, n: current.n + 1 });
            });
          }),
        );
        t.equal((await ta.orgs.get('c'))!.n, 20);
      });

      t.test('appends from both keep one order with no gaps', async (t) => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? a : b).transaction({}, async (tx) => {
              tx.append(ta.log, 'evt_', (id) => ({ id, kind: 'both', organization_id: 'p', n: i }));
              await sleep(i % 4 === 0 ? 30 : 0);
            }),
          ),
        );
        const ids = (await ta.log.range('organization', 'p')).map((e) => e.id);
        t.equal(ids.length, 20);
        t.same([...ids].sort(), ids, 'one order');
      });

      t.test('a wake-up reaches the other daemon', async (t) => {
        let woken = 0;
        b.onWake('outbox', () => woken++);
        await a.transaction({}, async (tx) => tx.wake('outbox'));
        await waitFor(() => woken === 1, { what: 'b to be woken' });
        t.pass('woken');
      });
    });
  }
}

t.test('leveldb', async (t) => suite(t, level));

const found = findPostgres();
if ('missing' in found) {
  t.test('postgres', { skip: `PostgreSQL conformance skipped: missing ${found.missing}` }, async () => {});
} else {
  const cluster = await launchPostgres();
  t.teardown(() => cluster.stop());
  t.test('postgres', async (t) => suite(t, postgres(cluster)));
}
