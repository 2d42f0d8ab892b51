// The one backoff module (src/backoff.ts) and the schedules built on it: webhook retries (contract 7)
// with their jitter range and a receiver's clamped Retry-After; a workflow schedule's failed fires.
import t from 'tap';
import { calculateDelay, honourRetryAfter, parseRetryAfter, spreadUp } from '../src/backoff.js';
import { RETRY_JITTER, retryDelayMs } from '../src/domain/webhooks/attempt.js';
import { fireRetryDelayMs } from '../src/domain/workflows/schedules.js';

t.test('calculateDelay doubles from the base up to the cap, jitter taking up to its share off', async (t) => {
  const base = { baseMs: 100, maxMs: 10_000 };
  t.equal(calculateDelay(1, base), 100);
  t.equal(calculateDelay(4, base), 800);
  t.equal(calculateDelay(40, base), 10_000, 'capped');
  t.equal(calculateDelay(3, { ...base, jitter: 0.5, random: () => 0 }), 200);
  t.equal(calculateDelay(3, { ...base, jitter: 0.5, random: () => 1 }), 400);
});

t.test('spreadUp adds up to its share, never past the cap', async (t) => {
  t.equal(
    spreadUp(1000, 0.2, 10_000, () => 0),
    1000,
  );
  t.equal(
    spreadUp(1000, 0.2, 10_000, () => 1),
    1200,
  );
  t.equal(
    spreadUp(9000, 0.2, 10_000, () => 1),
    10_000,
    'clamped to the cap',
  );
  t.equal(
    spreadUp(10_000, 0.2, 10_000, () => 1),
    10_000,
  );
});

t.test('Retry-After: read as seconds or an HTTP date, honoured when longer, clamped to the cap', async (t) => {
  const now = Date.parse('2031-01-01T00:00:00.000Z');
  t.equal(parseRetryAfter('7', now), 7000);
  t.equal(parseRetryAfter(' 7 ', now), 7000);
  t.equal(parseRetryAfter(['3', '9'], now), 3000, 'the first of repeated headers');
  t.equal(parseRetryAfter('Wed, 01 Jan 2031 00:00:30 GMT', now), 30_000);
  t.equal(parseRetryAfter('Tue, 31 Dec 2030 00:00:00 GMT', now), 0, 'a date past is now');
  t.equal(parseRetryAfter('soon', now), undefined);
  t.equal(parseRetryAfter(undefined, now), undefined);
  t.equal(honourRetryAfter(1000, undefined, 5000), 1000);
  t.equal(honourRetryAfter(1000, 200, 5000), 1000, 'a shorter Retry-After does not hurry the schedule');
  t.equal(honourRetryAfter(1000, 3000, 5000), 3000);
  t.equal(honourRetryAfter(1000, 60_000, 5000), 5000, 'clamped');
});

t.test(
  "webhook retries: 30 s x 2^(k-1) to 20 % more, capped at 30 s x 2^10; a receiver's Retry-After within the cap",
  async (t) => {
    const base = 30_000;
    const cap = base * 2 ** 10;
    const low = () => 0;
    const high = () => 1;
    t.equal(RETRY_JITTER, 0.2);
    t.equal(retryDelayMs(1, base, undefined, low), 30_000, 'after attempt 1: 30 s at least');
    t.equal(retryDelayMs(1, base, undefined, high), 36_000, 'and 36 s at most');
    t.equal(retryDelayMs(3, base, undefined, low), 120_000);
    t.equal(retryDelayMs(11, base, undefined, low), cap);
    t.equal(retryDelayMs(11, base, undefined, high), cap, 'never past the cap');
    t.equal(retryDelayMs(50, base, undefined, high), cap);
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(2, base);
      if (d < 60_000 || d > 72_000) t.fail(`attempt 2's delay ${d} outside 60 to 72 s`);
    }
    t.equal(retryDelayMs(1, base, 600_000, high), 600_000, 'Retry-After past the schedule: honoured');
    t.equal(retryDelayMs(1, base, 10 * cap, low), cap, 'clamped to the cap');
    t.equal(retryDelayMs(1, base, 5_000, low), 30_000, 'a shorter Retry-After: the schedule');
  },
);

t.test("a schedule's failed fire: retried after 1 s x 2^(n-1), up to a fifth sooner, capped at 5 min", async (t) => {
  const late = () => 1;
  const early = () => 0;
  t.equal(fireRetryDelayMs(1, late), 1000);
  t.equal(fireRetryDelayMs(1, early), 800, 'a fifth sooner at most');
  t.equal(fireRetryDelayMs(4, late), 8000);
  t.equal(fireRetryDelayMs(9, late), 256_000);
  t.equal(fireRetryDelayMs(10, late), 300_000, 'capped at 5 min');
  t.equal(fireRetryDelayMs(60, early), 240_000);
});
