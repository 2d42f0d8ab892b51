// The sender's slot pool alone, on a fake clock: bounds, borrowing by a quick receiver, refill marks
// and the fan-out's pacing, without a daemon or a receiver.
import t from 'tap';
import { PACE_MS, QUICK_MS, SlotPool } from '../src/domain/webhooks/slot-pool.js';

const bounds = { maxInFlight: 8, maxPerWebhook: 2, maxPerOrganization: 4 };

function pool(): { slots: SlotPool; clock: { now: number } } {
  const clock = { now: Date.parse('2031-01-01T00:00:00.000Z') };
  return { slots: new SlotPool(bounds, () => clock.now), clock };
}

/** Takes every slot `webhookId` may take now; answers the delivery ids that took one. */
function fillFor(slots: SlotPool, webhookId: string, prefix = webhookId, org = `org-${webhookId}`): string[] {
  const taken: string[] = [];
  while (slots.mayTake(webhookId, org)) {
    const id = `${prefix}-${taken.length}`;
    slots.hold(id, webhookId, org);
    taken.push(id);
  }
  return taken;
}

t.test('a webhook that has not answered holds its own bound, and the rest stay for others', async (t) => {
  const { slots } = pool();
  t.equal(fillFor(slots, 'a').length, 2, 'one webhook: its bound');
  t.equal(slots.busy, 2);
  t.equal(slots.roomFor('a'), 0);
  t.ok(slots.mayTake('b'), 'another webhook still has room');
  t.ok(slots.has('a-0'));
  t.equal(slots.claimedBy('a'), 2);
});

t.test('a quick receiver borrows idle slots up to every slot but one bound, a slow one does not', async (t) => {
  const { slots, clock } = pool();
  fillFor(slots, 'fast');
  clock.now += 5;
  slots.answer('fast-0', clock.now - 5); // answered in 5 ms
  slots.forget('fast-0');
  t.ok(slots.answersQuickly('fast'));
  t.equal(fillFor(slots, 'fast', 'fast-more').length, 5, 'borrowing up to 8 - 2 = 6 in flight');
  t.equal(slots.busy, 6);
  t.equal(fillFor(slots, 'other').length, 2, 'the last bound is left for the others');
  t.equal(slots.free, 0);

  const { slots: slow, clock: slowClock } = pool();
  fillFor(slow, 'slow');
  slowClock.now += QUICK_MS + 50;
  slow.answer('slow-0', slowClock.now - QUICK_MS - 50);
  t.notOk(slow.answersQuickly('slow'), 'an answer slower than QUICK_MS');
  t.equal(fillFor(slow, 'slow', 'slow-more').length, 1, 'back to its own bound only');
});

t.test('answers older than PACE_MS stop counting as quick, and are forgotten', async (t) => {
  const { slots, clock } = pool();
  slots.hold('d1', 'a', 'o');
  clock.now += 1;
  slots.answer('d1', clock.now - 1);
  t.ok(slots.answersQuickly('a'));
  clock.now += PACE_MS;
  t.notOk(slots.answersQuickly('a'));
  slots.forgetStaleAnswers();
  t.equal(slots.roomFor('a'), 2, 'its own bound');
});

t.test('an answer reports a refill mark as the slots come free, and forget as the records do', async (t) => {
  const { slots, clock } = pool();
  const ids = fillFor(slots, 'a');
  t.equal(slots.answer(ids[0], clock.now), true, 'a quarter of its bound free: 2 - 1 = 1');
  t.equal(slots.answer(ids[1], clock.now), true, 'none left busy');
  t.equal(slots.answer(ids[1], clock.now), false, 'an answer counts once');
  t.equal(slots.claimed, 2, 'still waiting for their records');
  t.equal(slots.forget(ids[0]), false);
  t.equal(slots.forget(ids[1]), true, 'the last record written');
  t.equal(slots.claimed, 0);
  t.equal(slots.claimedBy('a'), 0);
});

t.test('outcomes waiting for their record bound new attempts too', async (t) => {
  const { slots, clock } = pool();
  // 16 deliveries answered, none recorded: the pool holds twice maxInFlight before it refuses.
  for (let n = 0; n < 16; n++) {
    const webhookId = `w${n % 8}`;
    slots.hold(`d${n}`, webhookId, `o${n % 8}`);
    slots.answer(`d${n}`, clock.now);
  }
  t.equal(slots.busy, 0);
  t.equal(slots.free, 0, 'no slot while 16 outcomes wait for their record');
  slots.forget('d0');
  t.equal(slots.free, 1);
});

t.test('the fan-out waits for a busy webhook only while answers keep coming', async (t) => {
  const { slots, clock } = pool();
  t.equal(slots.paceUntil('a'), undefined, 'a free slot: no wait');
  fillFor(slots, 'a');
  // Until the first attempt starts (its hand-off's transaction commits), its receiver cannot answer.
  clock.now += 2 * PACE_MS;
  t.equal(slots.paceUntil('a'), clock.now + PACE_MS, 'its slots are taken, no attempt started yet: it moves now');
  clock.now += 10;
  slots.started('a');
  const started = clock.now;
  slots.started('a'); // the next attempts' starts do not move it
  t.equal(slots.paceUntil('a'), started + PACE_MS, 'its first attempt just started');
  clock.now += PACE_MS - 1;
  t.equal(slots.paceUntil('a'), started + PACE_MS);
  clock.now += 1;
  t.equal(slots.paceUntil('a'), undefined, 'silent for PACE_MS: not worth waiting for');
  slots.answer('a-0', started); // slow: not quick, so only its own answers count
  slots.hold('a-again', 'a', 'org-a');
  t.equal(slots.paceUntil('a'), clock.now + PACE_MS, 'an answer came: wait again');
  t.equal(slots.release('a-again'), 1, 'released without an answer');
});

t.test("an organization's webhooks share its bound; other organizations keep theirs", async (t) => {
  const { slots } = pool();
  // Three webhooks of one organization (bound 4), none answering.
  const taken = ['a', 'b', 'c'].map((w) => fillFor(slots, w, w, 'tenant').length);
  t.same(taken, [2, 2, 0], 'the organization stops at 4, whatever its webhooks');
  t.equal(slots.roomFor('d', 'tenant'), 0, 'a further webhook of it too');
  t.equal(fillFor(slots, 'x', 'x', 'other').length, 2, 'another organization still has room');
  t.equal(slots.organizationOf('a'), 'tenant');
  t.equal(slots.roomFor('e', 'tenant', 0), 0);
  t.equal(slots.roomFor('y', 'other2', 3), 1, 'room a pass has given already counts');
});

t.test('a webhook whose attempts time out gets fewer slots until it answers again', async (t) => {
  const { slots, clock } = pool();
  const big = new SlotPool({ maxInFlight: 64, maxPerWebhook: 16, maxPerOrganization: 64 }, () => clock.now);
  const first = fillFor(big, 'hung');
  t.equal(first.length, 16);
  for (const id of first.slice(0, 2)) big.answer(id, clock.now, true);
  t.equal(big.roomFor('hung'), 16 / 4 - 14, 'two timeouts in a row: a quarter of its bound (still 14 busy)');
  for (const id of first.slice(2)) big.answer(id, clock.now, true);
  t.equal(big.roomFor('hung'), 1, 'many timeouts: one slot');
  big.hold('probe', 'hung', 'org-hung');
  t.equal(big.roomFor('hung'), 0);
  big.answer('probe', clock.now - 1000); // answered (slowly): recovered
  t.equal(big.roomFor('hung'), 16, 'its whole bound again');
  t.equal(slots.busy, 0);
});
