// LevelDB's read floors (src/storage/leveldb/read-floors.ts): an index read starts past the deletions
// at the front of its range, and never past a key that is there. The bookkeeping is checked on its
// own, then the engine's reads are compared with a plain scan of the same sublevel (no floors) on a
// real LevelDB, while deliveries come and go as they do in the webhook queue and writes race reads.
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { newDelivery } from '../src/domain/webhooks/fanout.js';
import { WebhookStore } from '../src/domain/webhooks/store.js';
import type { Delivery } from '../src/domain/webhooks/types.js';
import { createLogger } from '../src/log.js';
import { prefixRange } from '../src/storage/keys.js';
import { indexSublevelName } from '../src/storage/keyspace.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { ReadFloors } from '../src/storage/leveldb/read-floors.js';

t.test('the bookkeeping', async (t) => {
  const range = { gt: 'q\x00', lt: 'q\x01', limit: 1 };

  t.test('a read that found a key lets the next one start there', async (t) => {
    const floors = new ReadFloors<string>();
    const first = floors.begin('sub', range)!;
    t.same(first.range, range, 'no floor yet: the range as asked');
    floors.end(first.watch, 'q\x00m', range.lt);
    const next = floors.begin('sub', range)!;
    t.same(next.range, { lt: 'q\x01', limit: 1, gte: 'q\x00m' }, 'from the key found, inclusive');
    floors.end(next.watch, 'q\x00m', range.lt);
    t.equal(floors.size('sub'), 1);
    t.equal(floors.size('other'), 0, 'floors are per sublevel');
  });

  t.test('a read that found nothing lets the next start at its upper bound, never lower than it started', async (t) => {
    const floors = new ReadFloors<string>();
    const read = floors.begin('sub', range)!;
    floors.end(read.watch, undefined, range.lt);
    const wider = { gt: 'q\x00', lt: 'q\x02' };
    const next = floors.begin('sub', wider)!;
    t.same(next.range, { lt: 'q\x02', gte: 'q\x01' });
    // A narrower read from that floor learns nothing below it: the floor stays.
    const narrow = floors.begin('sub', { gt: 'q\x00', lt: 'q\x00z' })!;
    t.same(narrow.range, { lt: 'q\x00z', gte: 'q\x01' });
    floors.end(narrow.watch, undefined, 'q\x00z');
    t.same(floors.begin('sub', wider)!.range, { lt: 'q\x02', gte: 'q\x01' });
  });

  t.test('a put between the lower bound and the floor lowers the floor to it', async (t) => {
    const floors = new ReadFloors<string>();
    const read = floors.begin('sub', range)!;
    floors.end(read.watch, 'q\x00m', range.lt);
    const puts = new Map([['sub', ['q\x00c', 'q\x00z', 'p', 'q\x00']]]);
    floors.writingBatch(puts);
    floors.written(puts);
    t.same(floors.begin('sub', range)!.range, { lt: 'q\x01', limit: 1, gte: 'q\x00c' }, 'the lowest put inside wins');
  });

  t.test('a put while a read runs, or being written when it began, caps the floor that read sets', async (t) => {
    const floors = new ReadFloors<string>();
    const inFlight = new Map([['sub', ['q\x00e']]]);
    floors.writingBatch(inFlight);
    const read = floors.begin('sub', range)!;
    floors.written(inFlight);
    const during = new Map([['sub', ['q\x00g']]]);
    floors.writingBatch(during);
    floors.written(during);
    // The read's snapshot may have missed both puts: it found m first.
    floors.end(read.watch, 'q\x00m', range.lt);
    t.same(floors.begin('sub', range)!.range, { lt: 'q\x01', limit: 1, gte: 'q\x00e' });
  });

  t.test('reverse reads, reads with no lower bound and failed reads are left alone', async (t) => {
    const floors = new ReadFloors<string>();
    t.equal(floors.begin('sub', { ...range, reverse: true }), undefined);
    t.equal(floors.begin('sub', { lt: 'q\x01' }), undefined);
    const read = floors.begin('sub', range)!;
    floors.abandon(read.watch);
    t.equal(floors.size('sub'), 0);
    const ok = floors.begin('sub', range)!;
    floors.end(ok.watch, 'q\x00m', range.lt);
    floors.clear();
    t.equal(floors.size('sub'), 0, 'clear() forgets them');
  });
});

async function openStore(t: Test): Promise<{ storage: LevelStorage; store: WebhookStore }> {
  const storage = await LevelStorage.open(t.testdir(), createLogger('silent'));
  t.teardown(() => storage.close());
  return { storage, store: new WebhookStore(storage) };
}

let clock = Date.parse('2031-06-01T00:00:00.000Z');
function delivery(webhookId: string, dueAt?: string): Delivery {
  const at = new Date(clock++).toISOString();
  const d = newDelivery(
    { id: webhookId, active: true, organization_id: 'org' },
    { id: `evt_${clock}`, kind: 'invitation.created', organization_id: 'org' },
    at,
  );
  return dueAt === undefined ? d : { ...d, next_attempt_at: dueAt };
}

/** The queue's keys as a plain scan of the sublevel reads them: no floors, no engine. */
async function plainScan(storage: LevelStorage, index: string, value: string): Promise<string[]> {
  const keys = await storage.sublevel(indexSublevelName('webhook_deliveries', index)).keys(prefixRange(value)).all();
  return keys.map((key) => key.slice(key.lastIndexOf('\x00') + 1));
}

async function writeAll(storage: LevelStorage, store: WebhookStore, put: Delivery[]): Promise<void> {
  await storage.transaction({}, async (tx) => {
    for (const d of put) await tx.put(store.deliveries, d);
  });
}

const sent = (d: Delivery): Delivery => ({ ...d, status: 'delivered', next_attempt_at: null });

t.test('a drained queue: reads skip what was delivered and still find every delivery put back before them', async (t) => {
  const { storage, store } = await openStore(t);
  const all = Array.from({ length: 2000 }, () => delivery('whk_a'));
  await writeAll(storage, store, all);
  const [head] = await store.deliveries.range('queue', 'due', { limit: 1 });
  t.equal(head.id, all[0].id);
  // Delivered, all but the last: their index entries are deletions at the queue's front.
  await writeAll(storage, store, all.slice(0, -1).map(sent));
  t.same(
    (await store.deliveries.range('queue', 'due', { limit: 5 })).map((e) => e.id),
    [all[1999].id],
  );
  t.equal(await store.nextDueAt(), all[1999].next_attempt_at);
  // A retry due before everything left (an earlier time than the floor): the next read finds it.
  const early = delivery('whk_a', '2031-01-01T00:00:00.000Z');
  await writeAll(storage, store, [early]);
  t.same(
    (await store.deliveries.range('queue', 'due', { limit: 5 })).map((e) => e.id),
    [early.id, all[1999].id],
  );
  t.same(await store.dueFor('whk_a', '2032-01-01T00:00:00.000Z', 10), [early.id, all[1999].id]);
  t.equal(await store.deliveries.countRange('queue', 'due'), 2);
  t.same((await store.webhooksWithDue(undefined, undefined, 10)).items, ['whk_a']);
  // Drained whole, then one new one: an empty read's floor is its upper bound, and a put lowers it.
  await writeAll(storage, store, [sent(early), sent(all[1999])]);
  t.equal(await store.deliveries.hasAny('queue', 'due'), false);
  t.same((await store.webhooksWithDue(undefined, undefined, 10)).items, []);
  const again = delivery('whk_b');
  await writeAll(storage, store, [again]);
  t.equal(await store.deliveries.hasAny('queue', 'due'), true);
  t.same((await store.webhooksWithDue(undefined, undefined, 10)).items, ['whk_b']);
  t.same(await store.dueFor('whk_b', '2032-01-01T00:00:00.000Z', 10), [again.id]);
  t.same(await plainScan(storage, 'queue', 'due'), [again.id], 'the plain scan agrees');
});

t.test('reads racing writes never lose a key: each settled read matches a plain scan (random runs)', async (t) => {
  const { storage, store } = await openStore(t);
  const hooks = ['whk_a', 'whk_b', 'whk_c'];
  // Due times in a small window, so new keys land before, among and after the ones read.
  const at = (minute: number) => `2031-06-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
  const live = new Map<string, Delivery>();
  const step = fc.record({
    add: fc.array(fc.record({ hook: fc.constantFrom(...hooks), minute: fc.integer({ min: 0, max: 59 }) }), { maxLength: 6 }),
    deliver: fc.array(fc.nat(), { maxLength: 6 }),
    racing: fc.constantFrom('queue', 'dueFor', 'count', 'distinct'),
    limit: fc.integer({ min: 1, max: 8 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
      for (const s of steps) {
        const put = s.add.map(({ hook, minute }) => delivery(hook, at(minute)));
        const ids = [...live.keys()];
        const done = [...new Set(s.deliver.map((n) => ids[n % Math.max(1, ids.length)]).filter((id) => id !== undefined))];
        // A read begins, then the write goes in while it runs: neither waits for the other.
        const racing =
          s.racing === 'queue'
            ? store.deliveries.range('queue', 'due', { limit: s.limit })
            : s.racing === 'dueFor'
              ? store.dueFor('whk_b', at(59), s.limit)
              : s.racing === 'count'
                ? store.deliveries.countRange('queue', 'due', { limit: s.limit })
                : store.webhooksWithDue(undefined, undefined, s.limit);
        const write = writeAll(storage, store, [...put, ...done.map((id) => sent(live.get(id)!))]);
        await Promise.all([racing, write]);
        for (const d of put) live.set(d.id, d);
        for (const id of done) live.delete(id);
        // Settled: what the engine reads is what is there.
        const expectedQueue = await plainScan(storage, 'queue', 'due');
        const queue = (await store.deliveries.range('queue', 'due', { limit: 200 })).map((e) => e.id);
        if (JSON.stringify(queue) !== JSON.stringify(expectedQueue)) return false;
        if ((await store.deliveries.countRange('queue', 'due')) !== expectedQueue.length) return false;
        const dueB = await store.dueFor('whk_b', at(59), 200);
        if (JSON.stringify(dueB) !== JSON.stringify(await plainScan(storage, 'webhook_due', 'whk_b'))) return false;
        const withDue = (await store.webhooksWithDue(undefined, undefined, 10)).items;
        const expectedHooks = hooks.filter((h) => [...live.values()].some((d) => d.webhook_id === h));
        if (JSON.stringify(withDue) !== JSON.stringify(expectedHooks)) return false;
        const [first] = await store.deliveries.range('queue', 'due', { limit: 1 });
        if (first?.id !== expectedQueue[0]) return false;
      }
      return true;
    }),
    { numRuns: 40 },
  );
  t.pass('every settled read matched the plain scan');
});
