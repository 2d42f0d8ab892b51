// The notices daemons on one database exchange (src/storage/postgres/notices.ts), without a server:
// a notice stays under pg_notify's bound by saying less, and a commit's wait for its peers ends when
// each has acknowledged, when it times out (logged), or when the commit gives up. The conformance
// suite's two-daemon tests run them against a real server.
import t from 'tap';
import { createLogger } from '../src/log.js';
import { AckWaits, noticePayload, type Notice } from '../src/storage/postgres/notices.js';

function logCapture() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

t.test('a notice under the bound goes as it is', async (t) => {
  const notice: Notice = { i: 'd1', n: 'd1:1', c: { api_keys: { ids: ['k1'], keys: [['hash', 'h1']] } }, w: ['run:r1'] };
  t.same(JSON.parse(noticePayload(notice)), notice);
});

t.test('too many records: whole tables; too many topics: whole families', async (t) => {
  const ids = Array.from({ length: 400 }, (_, n) => `record-${n}-${'x'.repeat(10)}`);
  const manyRecords: Notice = {
    i: 'd1',
    n: 'd1:2',
    c: { api_keys: { ids, keys: [] }, members: { ids: ['m'], keys: [] } },
    w: ['jobs'],
  };
  const payload = noticePayload(manyRecords);
  t.ok(payload.length <= 7_000, `${payload.length} characters`);
  t.same(JSON.parse(payload), { i: 'd1', n: 'd1:2', c: { api_keys: '*', members: '*' }, w: ['jobs'] });
  t.same(manyRecords.c, { api_keys: '*', members: '*' }, 'the committing daemon applies what its peers get');

  const runs = Array.from({ length: 300 }, (_, n) => `run:0000000000000000000000${n}`);
  const manyTopics: Notice = { i: 'd1', c: {}, w: [...runs, 'jobs', 'stream:a'] };
  t.same(JSON.parse(noticePayload(manyTopics)).w, ['run:*', 'jobs', 'stream:*'], 'each family once');
});

t.test('a commit waits for each peer once, and no longer', async (t) => {
  const { log, lines } = logCapture();
  const waits = new AckWaits(log, 60_000);
  const wait = waits.expect('d1:7', 2);
  let settled = false;
  void wait.settled.then(() => (settled = true));
  waits.acknowledged(JSON.stringify({ n: 'd1:7', i: 'd2' }));
  waits.acknowledged(JSON.stringify({ n: 'd1:7', i: 'd2' }));
  waits.acknowledged('not json');
  waits.acknowledged(JSON.stringify({ n: 'd1:8', i: 'd3' }));
  waits.acknowledged(JSON.stringify({ n: 'd1:7' }));
  await new Promise((r) => setImmediate(r));
  t.notOk(settled, 'one peer twice, unreadable, another notice and no sender do not count');
  waits.acknowledged(JSON.stringify({ n: 'd1:7', i: 'd3' }));
  await wait.settled;
  t.equal(waits.size, 0, 'nothing kept once settled');
  t.same(lines, [], 'nothing logged');
});

t.test('a peer that never answers: the wait ends at the timeout, logged', async (t) => {
  const { log, lines } = logCapture();
  const waits = new AckWaits(log, 20);
  const wait = waits.expect('d1:9', 2);
  waits.acknowledged(JSON.stringify({ n: 'd1:9', i: 'd2' }));
  // The wait's timer does not hold the process open (unref): this one does, while the test waits.
  const hold = setTimeout(() => undefined, 5_000);
  await wait.settled;
  clearTimeout(hold);
  t.equal(waits.size, 0);
  t.match(lines, [{ msg: 'a peer daemon did not acknowledge a cache change in time', expected: 2, acknowledged: 1 }]);
});

t.test('a commit that gives up stops waiting', async (t) => {
  const { log, lines } = logCapture();
  const waits = new AckWaits(log, 20);
  waits.expect('d1:10', 1).cancel();
  t.equal(waits.size, 0);
  await new Promise((r) => setTimeout(r, 40));
  t.same(lines, [], 'its timer is gone too');
});
