import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import t, { type Test } from 'tap';
import { createLogger } from '../src/log.js';
import { calculateDelay, Loop, LoopSet, type LoopOptions } from '../src/loops/loop.js';
import { privateDir, spawnOwned, waitFor } from './helpers.js';

const silent = createLogger('silent');

/** A loop stopped at teardown, so a failing test never leaves timers behind. */
function makeLoop(t: Test, options: Partial<LoopOptions> & Pick<LoopOptions, 'tick'>): Loop {
  const loop = new Loop({ name: 'test', intervalMs: 10, log: silent, ...options });
  t.teardown(() => loop.stop());
  return loop;
}

/** A promise the test settles by hand: how a tick is held in flight. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

t.test('ticks form a setTimeout chain: a slow tick delays the next, none overlap', async (t) => {
  const intervalMs = 5;
  const tickMs = 25;
  const spans: { start: number; end: number }[] = [];
  let running = 0;
  let maxRunning = 0;
  const loop = makeLoop(t, {
    intervalMs,
    immediate: true,
    tick: async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      const start = performance.now();
      await delay(tickMs); // the tick's own (slow) work
      spans.push({ start, end: performance.now() });
      running--;
    },
  });
  loop.start();
  await waitFor(() => spans.length >= 4, { what: 'four ticks' });
  await loop.stop();
  t.equal(maxRunning, 1, 'never two ticks at once');
  for (let i = 1; i < spans.length; i++) {
    const gap = spans[i].start - spans[i - 1].end;
    // setTimeout never fires early; allow 1 ms for clock rounding.
    t.ok(gap >= intervalMs - 1, `tick ${i + 1} waited an interval after tick ${i} ended (${gap.toFixed(1)} ms)`);
    t.ok(spans[i].start - spans[i - 1].start >= tickMs + intervalMs - 1, 'the slow tick pushed the next one back');
  }
});

t.test('the first tick waits one interval unless immediate', async (t) => {
  let runs = 0;
  const loop = makeLoop(t, { intervalMs: 60_000, tick: async () => void runs++ });
  loop.start();
  loop.start(); // a second start is a no-op
  t.equal(loop.running, true);
  const immediate = makeLoop(t, { intervalMs: 60_000, immediate: true, tick: async () => void runs++ });
  immediate.start();
  await waitFor(() => runs === 1, { what: 'the immediate tick' });
  t.equal(loop.status().runs, 0, 'the non-immediate loop is still waiting out its interval');
  t.equal(immediate.status().runs, 1);
});

t.test('stop() resolves only after the in-flight tick ends, and no tick follows', async (t) => {
  const gate = deferred();
  const order: string[] = [];
  let started = 0;
  const loop = makeLoop(t, {
    intervalMs: 5,
    immediate: true,
    tick: async () => {
      started++;
      await gate.promise;
      order.push('tick ended');
    },
  });
  loop.start();
  await waitFor(() => started === 1, { what: 'the tick to start' });
  let stopped = false;
  const stopping = loop.stop().then(() => {
    stopped = true;
    order.push('stop resolved');
  });
  t.equal(loop.running, false, 'inactive at once');
  await new Promise((r) => setImmediate(r));
  t.equal(stopped, false, 'stop() waits for the tick');
  gate.resolve();
  await stopping;
  t.same(order, ['tick ended', 'stop resolved']);
  await delay(40); // eight intervals: long enough for a wrongly scheduled tick to show
  t.equal(started, 1, 'no tick after stop');
  t.equal(loop.status().runs, 1);
  t.equal(loop.status().running, false);
});

t.test('stop() before the first tick cancels it', async (t) => {
  let runs = 0;
  const loop = makeLoop(t, { intervalMs: 5, tick: async () => void runs++ });
  loop.start();
  await loop.stop();
  await delay(30);
  t.equal(runs, 0);
});

t.test('a throwing tick is isolated: the loop goes on, reports the failure and backs off', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const intervalMs = 10;
  const failTimes = 4;
  const starts: number[] = [];
  // Taken inside the third tick, when exactly two have failed (polling could miss that moment).
  let during: ReturnType<Loop['status']> | undefined;
  const loop: Loop = makeLoop(t, {
    name: 'flaky',
    intervalMs,
    immediate: true,
    log: createLogger('error', sink),
    tick: async () => {
      starts.push(performance.now());
      if (starts.length === 3) during = loop.status();
      if (starts.length <= failTimes) throw new Error(`boom ${starts.length}`);
    },
  });
  loop.start();
  await waitFor(() => during !== undefined, { what: 'two failures' });
  if (during === undefined) return;
  t.equal(during.running, true, 'still running after failures');
  t.equal(during.consecutive_failures, 2);
  t.equal(during.last_error, 'boom 2');
  t.match(during.last_run_at, /Z$/);

  await waitFor(() => starts.length >= failTimes + 2, { what: 'recovery' });
  const after = loop.status();
  t.equal(after.failures, failTimes, 'failures are counted');
  t.equal(after.consecutive_failures, 0, 'reset by a success');
  t.equal(after.last_error, null);
  t.ok(after.runs >= failTimes + 2);

  // After failure k the wait is intervalMs * 2^(k-1), less at most 20% jitter.
  for (let k = 1; k <= failTimes; k++) {
    const gap = starts[k] - starts[k - 1];
    const floor = intervalMs * 2 ** (k - 1) * 0.8 - 1;
    t.ok(gap >= floor, `after failure ${k} the loop waited ${gap.toFixed(1)} ms >= ${floor} ms`);
  }
  const afterSuccess = starts[failTimes + 1] - starts[failTimes];
  t.ok(afterSuccess >= intervalMs - 1, 'back to the interval after a success');

  const failLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'loop tick failed');
  t.equal(failLines.length, failTimes, 'each failure is logged');
  t.equal(failLines[0].loop, 'flaky');
  t.match(failLines[0].err, { message: 'boom 1' });
});

t.test('backoff is capped by maxBackoffMs', async (t) => {
  // The wait the loop chose after each failure, as it reports it: the delay itself, not a clock.
  const waits: number[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      waits.push((JSON.parse(chunk.toString()) as { retry_in_ms: number }).retry_in_ms);
      done();
    },
  });
  let failures = 0;
  const loop = makeLoop(t, {
    intervalMs: 5,
    maxBackoffMs: 5,
    immediate: true,
    log: createLogger('error', sink),
    tick: async () => {
      failures++;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a non-Error throw is the case under test
      throw 'not an Error';
    },
  });
  loop.start();
  await waitFor(() => waits.length >= 10, { what: 'ten failing ticks' });
  // Uncapped, the wait after failure k is at least 0.8 * 5 * 2^(k-1) ms: 1638 ms after the tenth.
  t.ok(
    waits.every((ms) => ms <= 5),
    `every wait is at most the cap (${waits.slice(0, 10).join(', ')} ms): it stopped growing`,
  );
  t.equal(loop.status().last_error, 'not an Error', 'a thrown non-Error is reported as text');
  await loop.stop();
  t.equal(loop.status().consecutive_failures, failures);
});

t.test('wake() runs a tick promptly', async (t) => {
  let runs = 0;
  const loop = makeLoop(t, { intervalMs: 60_000, tick: async () => void runs++ });
  loop.wake();
  await delay(10);
  t.equal(runs, 0, 'waking a loop that is not started does nothing');
  loop.start();
  loop.wake();
  await waitFor(() => runs === 1, { what: 'the woken tick' });
  loop.wake();
  await waitFor(() => runs === 2, { what: 'a second woken tick' });
});

t.test('wake() during a tick runs another tick right after it', async (t) => {
  const gates = [deferred(), deferred()];
  let started = 0;
  const loop = makeLoop(t, {
    intervalMs: 60_000,
    immediate: true,
    tick: async () => {
      const gate = gates[started++];
      await gate?.promise;
    },
  });
  loop.start();
  await waitFor(() => started === 1, { what: 'first tick' });
  loop.wake(); // new work arrived while the tick was busy
  gates[0].resolve();
  await waitFor(() => started === 2, { what: 'the tick asked for during the first' });
  gates[1].resolve();
  await waitFor(() => loop.status().runs === 2, { what: 'second tick to end' });
  await delay(20);
  t.equal(started, 2, 'one wake, one extra tick: then the interval applies again');
});

t.test('a wake() in the moment a tick ends is never lost (it runs a tick, not an interval later)', async (t) => {
  // New work can be announced from a promise continuation that runs just as the tick returns: every
  // depth of continuation must lead to a prompt tick.
  for (let depth = 0; depth < 8; depth++) {
    let runs = 0;
    const wakeAfter = (n: number): void => {
      if (n === 0) loop.wake();
      else void Promise.resolve().then(() => wakeAfter(n - 1));
    };
    const loop: Loop = makeLoop(t, {
      intervalMs: 60_000,
      immediate: true,
      tick: async () => {
        runs++;
        if (runs === 1) wakeAfter(depth);
        await Promise.resolve();
      },
    });
    loop.start();
    await waitFor(() => runs >= 2, { what: `the tick woken ${depth} continuations after the first ended` });
    await loop.stop();
  }
  t.pass('every wake-up ran a tick');
});

t.test('calculateDelay', async (t) => {
  const base = { baseMs: 100, maxMs: 10_000 };
  t.equal(calculateDelay(1, base), 100, 'attempt 1: the base');
  t.equal(calculateDelay(2, base), 200);
  t.equal(calculateDelay(5, base), 1600, 'doubles each attempt');
  t.equal(calculateDelay(8, base), 10_000, 'capped');
  t.equal(calculateDelay(2000, base), 10_000, 'huge attempts stay capped (no Infinity)');
  t.equal(calculateDelay(0, base), 100, 'attempt 0 is treated as 1');

  t.equal(calculateDelay(3, { ...base, jitter: 0.5, random: () => 0 }), 200, 'lowest: (1 - jitter) of the delay');
  t.equal(calculateDelay(3, { ...base, jitter: 0.5, random: () => 0.999999 }), 400, 'highest: the whole delay');
  t.equal(calculateDelay(30, { ...base, jitter: 0.25, random: () => 0 }), 7500, 'jitter applies to the capped delay');
  t.equal(calculateDelay(3, { ...base, jitter: 5, random: () => 0 }), 0, 'jitter above 1 is clamped to full jitter');
  t.equal(calculateDelay(3, { ...base, jitter: -1, random: () => 0 }), 400, 'negative jitter means none');
  for (let i = 0; i < 200; i++) {
    const d = calculateDelay(4, { ...base, jitter: 0.2 });
    if (d < 640 || d > 800) {
      t.fail(`jittered delay ${d} outside [640, 800]`);
      break;
    }
  }
  t.pass('real random jitter stays within bounds');
});

t.test('LoopSet starts, reports and stops its loops together', async (t) => {
  const set = new LoopSet();
  let a = 0;
  let b = 0;
  set.add(new Loop({ name: 'a', intervalMs: 5, immediate: true, log: silent, tick: async () => void a++ }));
  set.add(new Loop({ name: 'b', intervalMs: 5, immediate: true, log: silent, tick: async () => void b++ }));
  t.teardown(() => set.stopAll());
  t.equal(set.allRunning, false);
  set.startAll();
  t.equal(set.allRunning, true);
  await waitFor(() => a >= 2 && b >= 2, { what: 'both loops to tick' });
  t.same(
    set.status().map((s) => s.name),
    ['a', 'b'],
  );
  await set.stopAll();
  t.equal(set.allRunning, false);
  t.ok(set.status().every((s) => !s.running));
});

// A daemon whose loop tick hangs, with nothing else keeping the process alive: shutdown still runs
// to its end (after SERVICE_SHUTDOWN_TIMEOUT_MS), closing the areas and the storage, instead of the
// process exiting half-way through because the only timer left was unref'd.
const dist = (file: string) => JSON.stringify(new URL(`../dist/src/${file}`, import.meta.url).href);
const hangingTick = `
const { startDaemon } = await import(${dist('main.js')});
const { loadConfig } = await import(${dist('config/load.js')});
const { createLogger } = await import(${dist('log.js')});
const { Loop } = await import(${dist('loops/loop.js')});
const config = loadConfig({ env: { SERVICE_DATA_DIR: process.argv[1], SERVICE_HTTP_ADDR: '127.0.0.1:0', SERVICE_LOG_LEVEL: 'silent', SERVICE_SHUTDOWN_TIMEOUT_MS: '300' } });
const log = createLogger('silent');
const daemon = await startDaemon(config, { log });
let ticked;
const started = new Promise((resolve) => (ticked = resolve));
daemon.loops.add(new Loop({ name: 'hangs', intervalMs: 10, immediate: true, log, tick: () => { ticked(); return new Promise(() => {}); } })).start();
await started;
await daemon.stop();
process.stdout.write('stopped\\n');
`;

t.test('shutdown runs to its end while a loop tick hangs and nothing else holds the process', async (t) => {
  const child = spawnOwned(t, process.execPath, ['--input-type=module', '-e', hangingTick, privateDir()], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  t.equal(code, 0, err);
  t.equal(out, 'stopped\n', 'stop() resolved: the areas and the storage were closed');
});
