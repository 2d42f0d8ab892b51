// The attention clock (src/domain/webhooks/attention.ts): time this process's event loop stalls is not
// counted as a receiver's silence. A stalled loop runs the timers that fell due in the stall before it
// reads the answers that came in it; counted in wall time, a stall longer than the timeout failed every
// attempt on the wire, and made the fan-out stop waiting for a receiver that was answering.
import t, { type Test } from 'tap';
import { AttentionClock } from '../src/domain/webhooks/attention.js';
import { AttemptPoster } from '../src/domain/webhooks/attempt.js';
import { createGuardedDispatcher, post } from '../src/domain/webhooks/dispatcher.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';

/** A turn of the event loop: a POST just begun is on its way, its timeout running. */
const aTurn = async (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Holds the event loop for `ms` (what a loaded machine, a long task or a collection does). */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

function poster(t: Test, timeoutMs: number, clock?: AttentionClock): AttemptPoster {
  const dispatcher = createGuardedDispatcher({ allowPrivate: true, connectTimeoutMs: timeoutMs, connectionsPerOrigin: 4 });
  t.teardown(() => dispatcher.close());
  return new AttemptPoster(async () => ({ post, dispatcher }), timeoutMs, clock);
}

t.test('the clock stops while the event loop stalls, and runs on wall time while nothing holds it', async (t) => {
  const clock = new AttentionClock();
  const before = clock.now();
  stall(100);
  t.ok(clock.now() - before >= 100, 'not held: wall time');
  clock.hold();
  const start = clock.now();
  const wall = Date.now();
  stall(400);
  const seen = clock.now() - start;
  t.ok(seen < 100, `a 400 ms stall counts ${seen} ms`);
  t.ok(clock.stalledMs >= 300, `counted as stalled (${clock.stalledMs} ms)`);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const turning = clock.now() - start - seen;
  t.ok(turning >= 150, `time while the loop turns counts (${turning} ms of ${Date.now() - wall - 400})`);
  t.ok(clock.wallAt(clock.now() + 50) - Date.now() <= 50, 'wallAt: its times as wall times');
  clock.letGo();
  clock.letGo(); // once too often: no harm
  const after = clock.now();
  stall(100);
  t.ok(clock.now() - after >= 100, 'let go: wall time again');
});

t.test(
  'an attempt whose answer is there when a stall longer than its timeout ends is not a timeout (within twice the timeout)',
  async (t) => {
    const receiver = await WebhookReceiver.start(t);
    const clock = new AttentionClock();
    clock.hold();
    t.teardown(() => clock.letGo());
    const sending = poster(t, 300, clock).post(receiver.url, '{}', { 'content-type': 'application/json' });
    await aTurn();
    stall(450);
    const outcome = await sending;
    t.same(
      { ok: outcome.ok, statusCode: outcome.statusCode, timedOut: outcome.timedOut },
      { ok: true, statusCode: 200, timedOut: undefined },
    );
    t.equal(receiver.received.length, 1);
  },
);

t.test('without the clock (wall time) the same stall is a timeout: what the clock changes', async (t) => {
  const receiver = await WebhookReceiver.start(t);
  const sending = poster(t, 300).post(receiver.url, '{}', { 'content-type': 'application/json' });
  await aTurn();
  stall(450);
  const outcome = await sending;
  t.equal(outcome.timedOut, true, outcome.error ?? '');
});

t.test('a receiver that never answers still times out, within twice the timeout whatever the stalls', async (t) => {
  const receiver = await WebhookReceiver.start(t);
  receiver.setDefault({ kind: 'hang' });
  const clock = new AttentionClock();
  clock.hold();
  t.teardown(() => clock.letGo());
  const started = Date.now();
  const sending = poster(t, 300, clock).post(receiver.url, '{}', { 'content-type': 'application/json' });
  // Stalls again and again: at most the timeout is given back in all.
  const stalls = setInterval(() => stall(150), 160);
  t.teardown(() => clearInterval(stalls));
  const outcome = await sending;
  clearInterval(stalls);
  const took = Date.now() - started;
  t.equal(outcome.timedOut, true, outcome.error ?? '');
  t.ok(took >= 300 && took < 2 * 300 + 250, `it ended after ${took} ms`);
});
