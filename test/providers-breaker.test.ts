// The provider breaker's sliding window alone, on a fake clock: it opens on a failure rate over a
// window of recent calls, not on one failure; old outcomes slide out; opening empties it.
import t from 'tap';
import { ProviderBreakers } from '../src/domain/providers/breaker.js';

const settings = { windowMs: 30_000, minCalls: 5, failurePercent: 50 };

function breakers(): { b: ProviderBreakers; clock: { now: number } } {
  const clock = { now: Date.parse('2031-01-01T00:00:00.000Z') };
  return { b: new ProviderBreakers(settings, () => clock.now), clock };
}

t.test('one failure among successes does not open it', async (t) => {
  const { b, clock } = breakers();
  for (let i = 0; i < 4; i++) b.succeeded('openai');
  clock.now += 1_000;
  t.equal(b.failed('openai'), undefined, '1 of 5 failed: 20 %');
  t.equal(b.failed('openai'), undefined, '2 of 6 failed');
  b.succeeded('openai');
  t.equal(b.failed('openai'), undefined, '3 of 8 failed: 37.5 %');
  t.equal(b.failed('openai'), undefined, '4 of 9 failed: 44 %');
  t.same(b.failed('openai'), { calls: 10, failures: 5 }, '5 of 10 failed: 50 % opens it');
});

t.test('failures under the minimum number of calls do not open it, however many fail', async (t) => {
  const { b } = breakers();
  for (let i = 0; i < 4; i++) t.equal(b.failed('ollama'), undefined, `${i + 1} of ${i + 1} failed, under 5 calls`);
  t.same(b.failed('ollama'), { calls: 5, failures: 5 }, 'the fifth failed call opens it');
  t.equal(b.failed('ollama'), undefined, 'opening emptied the window: one failure after it is alone');
});

t.test('the rate is judged at the threshold: exactly 50 % opens it', async (t) => {
  const { b } = breakers();
  for (let i = 0; i < 3; i++) b.succeeded('p');
  t.equal(b.failed('p'), undefined, '1 of 4');
  t.equal(b.failed('p'), undefined, '2 of 5: 40 %');
  t.same(b.failed('p'), { calls: 6, failures: 3 }, '3 of 6: 50 %');
});

t.test('outcomes older than the window slide out', async (t) => {
  const { b, clock } = breakers();
  for (let i = 0; i < 4; i++) t.equal(b.failed('p'), undefined);
  clock.now += 31_000;
  t.equal(b.failed('p'), undefined, 'the four failures 31 s ago no longer count: 1 of 1');
  for (let i = 0; i < 3; i++) t.equal(b.failed('p'), undefined, 'still under 5 calls in the window');
  t.same(b.failed('p'), { calls: 5, failures: 5 });

  // Part of the window slides: failures 20 s ago count, those 40 s ago do not.
  const { b: b2, clock: c2 } = breakers();
  b2.failed('p');
  b2.failed('p');
  c2.now += 20_000;
  b2.failed('p');
  b2.failed('p');
  c2.now += 20_000;
  t.equal(b2.failed('p'), undefined, 'the first two slid out: 3 of 3, under 5 calls');
  t.same(b2.failed('p'), undefined, '4 of 4');
  t.same(b2.failed('p'), { calls: 5, failures: 5 }, 'the two from 20 s ago and three now');
});

t.test('each provider has its own window, and reset forgets one', async (t) => {
  const { b } = breakers();
  for (let i = 0; i < 4; i++) b.failed('a');
  for (let i = 0; i < 4; i++) t.equal(b.failed('b'), undefined, "b's failures are its own");
  b.reset('a');
  t.equal(b.failed('a'), undefined, 'a starts again from no history');
  t.same(b.failed('b'), { calls: 5, failures: 5 });
});

t.test('a long quiet spell leaves no stale slice behind (the ring wraps)', async (t) => {
  const { b, clock } = breakers();
  for (let i = 0; i < 4; i++) b.failed('p');
  // Exactly a multiple of the window later, the same ring cell comes round again.
  clock.now += 300_000;
  for (let i = 0; i < 4; i++) t.equal(b.failed('p'), undefined, 'the cell of 300 s ago was emptied, not added to');
  t.ok(b.failed('p'));
});
