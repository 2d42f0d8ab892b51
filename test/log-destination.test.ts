// The daemon's log destination (src/log-destination.ts) and the access line it carries: lines come
// out whole and in order, within 50 ms without an exit, and as the same bytes whether the access
// line is encoded into the buffer or logged through log.info; a reader that stops reading never blocks
// the process, and what could not wait is counted and said.
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import t, { type Test } from 'tap';
import { AccessLog, type AccessEntry } from '../src/http/access-log.js';
import { createDaemonLogger, destinationOf } from '../src/log.js';
import { LogDestination } from '../src/log-destination.js';
import { PATIENCE_MS, spawnOwned, waitFor } from './helpers.js';

function fileDestination(t: Test): { destination: LogDestination; read: () => string } {
  const file = path.join(t.testdir(), 'log');
  const fd = openSync(file, 'w');
  t.teardown(() => closeSync(fd));
  return { destination: new LogDestination(fd), read: () => readFileSync(file, 'utf8') };
}

const entries: AccessEntry[] = [
  { requestId: 'abc-1', method: 'GET', url: '/v1/organizations/o1', status: 200, ms: 0.4321 },
  { requestId: 'abc-2', method: 'POST', url: '/v1/api-keys?x=1', status: 201, ms: 12 },
  { requestId: 'abc-3', method: 'GET', url: '/v1/x', status: 404, ms: 0.4 },
  { requestId: 'abc-4', method: 'GET', url: '/v1/x', status: 500, ms: 1234.5 },
  { requestId: 'abc-5', method: 'GET', url: '/v1/x', status: 204, ms: 0.004 },
  // Fields that need escaping take the string path: a quote, a backslash, a control and a non-ASCII character.
  { requestId: 'abc-6', method: 'GET', url: '/v1/"quoted"\\back', status: 400, ms: 0.01 },
  { requestId: 'id-\u0001', method: 'GET', url: '/v1/caf\u00e9/\u2603', status: 400, ms: 3.07 },
];

t.test('access lines encoded into the buffer are the bytes the string path writes', async (t) => {
  const { destination, read } = fileDestination(t);
  // The daemon's logger options (ISO time), at debug so that log.debug writes on the string path.
  const options = { base: { service: 'switchyard' }, timestamp: pino.stdTimeFunctions.isoTime, level: 'debug' };
  const encoded = new AccessLog(pino(options, destination).child({ module: 'http' }), destination);
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  const built = new AccessLog(pino(options, stream).child({ module: 'http' }));

  for (const entry of entries) {
    encoded.write('info', entry);
    built.write('info', entry);
  }
  encoded.write('debug', entries[0]);
  built.write('debug', entries[0]);
  destination.flushSync();

  const lines = read().trim().split('\n');
  t.equal(lines.length, entries.length + 1);
  // The time is the only field that may differ (a millisecond may pass between the two writes).
  const withoutTime = (l: string) => l.replace(/"time":"[^"]+"/, '"time":""');
  t.same(lines.map(withoutTime), text.trim().split('\n').map(withoutTime), 'same bytes on both paths');
  const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(parsed[0], {
    level: 30,
    service: 'switchyard',
    module: 'http',
    request_id: 'abc-1',
    method: 'GET',
    url: '/v1/organizations/o1',
    status: 200,
    ms: 0.43,
    msg: 'request',
  });
  t.same(
    parsed.map((l) => l.ms),
    [0.43, 12, 0.4, 1234.5, 0, 0.01, 3.07, 0.43],
  );
  t.equal(parsed[5].url, '/v1/"quoted"\\back');
  t.equal(parsed[6].request_id, 'id-\u0001');
  t.equal(parsed[6].url, '/v1/caf\u00e9/\u2603');
  t.equal(parsed[7].level, 20, 'a quiet route logs at debug');
  t.ok(new Date(parsed[0].time as string).getTime() > Date.now() - 60_000, 'an ISO time');
});

t.test("the daemon logger and its children lead the access log to the daemon's destination", async (t) => {
  const log = createDaemonLogger('silent');
  const destination = destinationOf(log);
  t.ok(destination instanceof LogDestination, "the daemon's logger writes to a LogDestination");
  t.equal(destinationOf(log.child({ module: 'http' }).child({ request: 1 })), destination, "a grandchild's is the same");
  t.equal(destinationOf(pino()), undefined, 'any other logger has none: the access log uses log.info');
});

t.test('lines come out in the order they were logged, within 50 ms, without an exit', async (t) => {
  const { destination, read } = fileDestination(t);
  const log = pino({ base: { service: 'switchyard' } }, destination);
  const access = new AccessLog(log.child({ module: 'http' }), destination);
  log.info('first');
  access.write('info', entries[0]);
  log.warn({ n: 2 }, 'third');
  access.write('info', entries[1]);
  await waitFor(() => read().split('\n').length === 5, { what: 'the four lines, written by the timer' });
  log.info('fifth');
  await new Promise<void>((resolve, reject) => log.flush((err) => (err ? reject(err) : resolve())));
  t.ok(read().includes('"msg":"fifth"'), "pino's flush(cb) answers once the line is written");
  t.same(
    read()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).msg),
    ['first', 'request', 'third', 'request', 'fifth'],
  );
});

// A buffer that fills before its 50 ms timer is written at once: under a steady load nothing may wait
// for a pause in the load (or for the bound, which drops lines). About 16 KB are logged every 5 ms,
// so each 64 KB buffer fills in about 20 ms; when the load stops, most of what it logged is in the file.
for (const kind of ['access lines', 'pino lines'] as const)
  t.test(`under a load that fills buffers faster than the timer, the lines keep being written (${kind})`, async (t) => {
    const { destination, read } = fileDestination(t);
    const log = pino({ base: { service: 'switchyard' } }, destination);
    const access = new AccessLog(log.child({ module: 'http' }), destination);
    const filler = 'z'.repeat(80);
    let batches = 0;
    const inFile = await new Promise<number>((resolve) => {
      const timer = setInterval(() => {
        for (let i = 0; i < 100; i++) {
          if (kind === 'access lines')
            access.write('info', { ...entries[0], requestId: `req-${batches}-${i}`, url: `/v1/${filler}` });
          else log.info({ batches, i, filler }, 'steady');
        }
        if (++batches === 64) {
          clearInterval(timer);
          resolve(read().length);
        }
      }, 5);
      t.teardown(() => clearInterval(timer));
    });
    destination.flushSync();
    const total = read().length;
    t.equal(read().trim().split('\n').length, 6400, 'every line, once the load stops');
    t.ok(total > 1024 * 1024, `more than 1 MB logged (${total} bytes)`);
    t.ok(inFile > total / 2, `${inFile} bytes were in the file while the load went on`);
    const logged = read()
      .trim()
      .split('\n')
      .map((l) => {
        const line = JSON.parse(l) as { request_id?: string; batches?: number; i?: number };
        const [batch, i] =
          line.request_id === undefined ? [line.batches!, line.i!] : line.request_id.split('-').slice(1).map(Number);
        return batch * 100 + i;
      });
    t.same(
      logged,
      Array.from({ length: 6400 }, (_, n) => n),
      'in the order they were logged (the exit flush overtook no write)',
    );
  });

t.test('a line longer than a buffer, and many lines that fill several, come out whole', async (t) => {
  const { destination, read } = fileDestination(t);
  const log = pino({ base: null, timestamp: false }, destination);
  const long = 'x'.repeat(200_000);
  for (let i = 0; i < 2000; i++) log.info({ i }, 'line');
  log.info({ long }, 'long');
  log.info({ i: 2000 }, 'after');
  await waitFor(() => read().endsWith('"after"}\n'), { what: 'the last line' });
  const lines = read()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { i?: number; long?: string });
  t.equal(lines.length, 2002);
  t.same(
    lines.filter((l) => l.i !== undefined).map((l) => l.i),
    Array.from({ length: 2001 }, (_, i) => i),
  );
  t.equal(lines[2000].long, long);
});

// A child whose stdout is a pipe the test does not read yet: it logs far more than the pipe and the
// bound hold, says on stderr that its event loop still turns, and exits on a line on stdin. With
// `nonBlocking`, it reads process.stdout first, as `serve` does (createServeLogger asks whether it is
// a terminal): node then puts the pipe in non-blocking mode, so writes meet EAGAIN and partial writes.
const daemonLogger = new URL('../dist/src/log.js', import.meta.url).href;
const floodThenWait = (nonBlocking: boolean) => `
${nonBlocking ? 'void process.stdout.isTTY;' : ''}
const { createDaemonLogger } = await import(${JSON.stringify(daemonLogger)});
const log = createDaemonLogger('info');
const filler = 'y'.repeat(1000);
for (let i = 0; i < 40000; i++) log.info({ i, filler }, 'flood');
setTimeout(() => process.stderr.write('turning\\n'), 10);
process.stdin.once('data', () => process.exit(0));
`;

for (const nonBlocking of [false, true])
  t.test(
    `a reader that stops reading never blocks the process; dropped lines are counted and said (${nonBlocking ? 'non-blocking' : 'blocking'} pipe)`,
    async (t) => {
      const child = spawnOwned(t, process.execPath, ['--input-type=module', '-e', floodThenWait(nonBlocking)], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdout!.pause();
      let timer: NodeJS.Timeout | undefined;
      const said = await Promise.race([
        once(child.stderr!, 'data').then(([d]) => String(d)),
        new Promise((resolve) => (timer = setTimeout(() => resolve('blocked'), PATIENCE_MS))),
      ]);
      clearTimeout(timer);
      t.equal(said, 'turning\n', 'the event loop turned with 40 MB logged and nothing read');

      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stdout!.resume();
      // What waited is written once the pipe is read (then nothing is in flight when the child exits).
      let seen = -1;
      await waitFor(
        () => {
          const settled = out.length === seen && out.length > 0;
          seen = out.length;
          return settled;
        },
        { intervalMs: 300, what: 'the waiting lines to be written' },
      );
      const closed = once(child, 'close');
      child.stdin!.write('go\n');
      await closed;
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; i?: number; dropped?: number; level: number });
      const written = lines.filter((l) => l.msg === 'flood');
      const notices = lines.filter((l) => l.dropped !== undefined);
      t.ok(written.length < 40000, `some lines were dropped (${written.length} written)`);
      t.ok(written.length >= 15000, 'what the bound holds (16 MB) was written');
      t.equal(notices.length, 1, 'one notice');
      t.match(notices[0], { level: 40, msg: /log lines dropped/ });
      t.equal(written.length + notices[0].dropped!, 40000, 'every line is either written or counted');
      t.same(
        written.map((l) => l.i),
        Array.from({ length: written.length }, (_, i) => i),
        'the lines kept are the first ones, whole and in order',
      );
    },
  );
