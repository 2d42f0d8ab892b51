// The PostgreSQL engine's read caches (src/storage/postgres/cached-reader.ts), without a server: a
// reader with caches answers a cached table from memory only while they are on, a notice drops what it
// names, a read that raced an invalidation is not kept, and a transaction's reader always asks. The
// statements each read sends are recorded by a query function that answers like the database.
import t from 'tap';
import type { TableDef } from '../src/storage/engine.js';
import { makeReader, RecordCaches, type Query } from '../src/storage/postgres/cached-reader.js';

const orgs: TableDef = { name: 'organizations', indexes: [{ name: 'slug', unique: true }], cache: true };
const grants: TableDef = { name: 'grants', indexes: [], cache: false };

/** A query function holding one row per id: counts the statements and can hold one until released. */
function database(rows: Record<string, unknown>) {
  const sent: string[] = [];
  let hold: Promise<void> | undefined;
  const query: Query = async (sql, values) => {
    sent.push(sql);
    if (hold !== undefined) await hold;
    const first = values?.[0];
    const id = Buffer.isBuffer(first) || typeof first === 'string' ? first.toString() : '';
    const data = rows[id];
    // A unique key's row holds the id it points at; a record's row, its data.
    const answer =
      data === undefined ? [] : [typeof data === 'string' ? { id: Buffer.from(data) } : { data, id: Buffer.from(id) }];
    return { rows: answer, rowCount: answer.length, command: 'SELECT', oid: 0, fields: [] };
  };
  return {
    query,
    sent,
    holdNext(): () => void {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

t.test('cached tables come from memory only while the caches are on', async (t) => {
  const db = database({ o1: { name: 'one' } });
  const caches = new RecordCaches();
  const reader = makeReader(db.query, caches);
  t.same(await reader.record(orgs, 'o1'), { name: 'one' });
  t.same(await reader.record(orgs, 'o1'), { name: 'one' });
  t.equal(db.sent.length, 2, 'off (no notifications yet): every read asks');
  t.equal(caches.entries('organizations'), undefined);

  caches.switchOn();
  await reader.record(orgs, 'o1');
  await reader.record(orgs, 'o1');
  t.equal(db.sent.length, 3, 'on: the second read is answered from memory');
  t.equal(caches.entries('organizations'), 1);
  t.same(await reader.recordsById(orgs, ['o1']), [{ name: 'one' }]);
  t.equal(db.sent.length, 3, 'a read of several ids takes the cached ones from memory');

  await reader.record(grants, 'o1');
  await reader.record(grants, 'o1');
  t.equal(db.sent.length, 5, 'a table that is not cached always asks');

  caches.switchOff();
  t.equal(caches.entries('organizations'), 0, 'switched off: dropped');
  await reader.record(orgs, 'o1');
  t.equal(db.sent.length, 6);
});

t.test('a notice drops the records and unique keys it names, or the whole table', async (t) => {
  const db = database({ o1: { name: 'one' }, o2: { name: 'two' }, acme: 'o1' });
  const caches = new RecordCaches();
  caches.switchOn();
  const reader = makeReader(db.query, caches);
  await reader.record(orgs, 'o1');
  await reader.record(orgs, 'o2');
  t.equal(await reader.uniqueId(orgs, 'slug', 'acme'), 'o1');
  t.equal(await reader.uniqueId(orgs, 'slug', 'acme'), 'o1');
  t.equal(db.sent.length, 3, 'a unique key is cached too');
  caches.drop({ organizations: { ids: ['o1'], keys: [['slug', 'acme']] } });
  t.equal(caches.entries('organizations'), 1, 'o1 is gone, o2 stays');
  t.equal(caches.entries('organizations\x00slug'), 0, "o1's slug is gone");
  caches.drop({ organizations: '*' });
  t.equal(caches.entries('organizations'), 0, "'*' drops the table");
});

t.test('a read that raced an invalidation of its table is not kept', async (t) => {
  const db = database({ o1: { name: 'old' } });
  const caches = new RecordCaches();
  caches.switchOn();
  const reader = makeReader(db.query, caches);
  const release = db.holdNext();
  const reading = reader.record(orgs, 'o1');
  caches.drop({ organizations: { ids: ['o1'], keys: [] } });
  release();
  t.same(await reading, { name: 'old' }, 'the caller gets what it read');
  t.equal(caches.entries('organizations'), 0, 'but it is not cached: a newer value may exist');
  await reader.record(orgs, 'o1');
  t.equal(caches.entries('organizations'), 1, 'the next read is kept');
});

t.test("a transaction's reader never uses the caches", async (t) => {
  const db = database({ o1: { name: 'one' } });
  const reader = makeReader(db.query);
  await reader.record(orgs, 'o1');
  await reader.record(orgs, 'o1');
  t.equal(db.sent.length, 2);
});
