// The fan-out's knowledge of the events past its cursor (src/domain/webhooks/backlog.ts), over a real
// event log on LevelDB: which events it keeps, what it counts, and whom a wait would hold back.
import t, { type Test } from 'tap';
import { EventLog } from '../src/domain/events/service.js';
import type { DomainEvent, EventKind } from '../src/domain/events/types.js';
import { FanoutBacklog } from '../src/domain/webhooks/backlog.js';
import type { Webhook } from '../src/domain/webhooks/types.js';
import { createLogger } from '../src/log.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';

const silent = createLogger('silent');

interface Log {
  events: EventLog;
  append: (drafts: { kind: EventKind; org: string }[]) => Promise<DomainEvent[]>;
  reads: () => number;
}

async function openLog(t: Test): Promise<Log> {
  const storage = await LevelStorage.open(t.testdir(), silent);
  t.teardown(() => storage.close());
  const events = new EventLog(storage, silent);
  let reads = 0;
  const originalRead = events.read.bind(events);
  // Counted, not changed: how often the backlog goes to the log.
  events.read = (options) => {
    reads++;
    return originalRead(options);
  };
  return {
    events,
    reads: () => reads,
    append: async (drafts) => {
      const before = (await events.lastEventId()) ?? '';
      await storage.transaction({}, (tx) => {
        for (const d of drafts) events.append(tx, { kind: d.kind, organization_id: d.org, payload: {} });
        return Promise.resolve();
      });
      return (await originalRead({ after: before === '' ? undefined : before, limit: 200 })).items;
    },
  };
}

function backlogOf(log: Log, keep: number): FanoutBacklog {
  return new FanoutBacklog((after, limit) => log.events.read({ after: after === '' ? undefined : after, limit }), keep);
}

function hook(id: string, org: string, filter: EventKind[] = [], active = true): Webhook {
  return { id, organization_id: org, event_filter: filter, active } as Webhook;
}

t.test('keeps the events past the cursor up to its bound, in order, and reads each once', async (t) => {
  const log = await openLog(t);
  const written = await log.append(Array.from({ length: 10 }, () => ({ kind: 'invitation.created' as const, org: 'o1' })));
  const backlog = backlogOf(log, 6);
  backlog.align('');
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) seen.push((await backlog.at(i))!.id);
  t.same(
    seen,
    written.slice(0, 6).map((e) => e.id),
    'the first six, in log order',
  );
  t.equal(backlog.size, 6, 'six kept (its bound)');
  t.equal(log.reads(), 1, 'one read of the log for all six');
  // Four fanned out: the cursor moves to the fourth; the next six are the 5th to the 10th.
  backlog.align(written[3].id);
  t.equal(backlog.size, 2);
  const next: string[] = [];
  for (let i = 0; i < 6; i++) next.push((await backlog.at(i))!.id);
  t.same(
    next,
    written.slice(4, 10).map((e) => e.id),
    'the rest, read after the last kept one',
  );
  t.equal(await backlog.at(6), undefined, 'past the log end: nothing');
});

t.test('counts every event to the log end, kept or not, and forgets what is fanned out', async (t) => {
  const log = await openLog(t);
  const written = await log.append([
    { kind: 'invitation.created', org: 'o1' },
    { kind: 'invitation.created', org: 'o1' },
    { kind: 'invitation.accepted', org: 'o2' },
  ]);
  const backlog = backlogOf(log, 2);
  backlog.align('');
  t.equal(await backlog.readToEnd(100), true, 'the log end was reached');
  t.equal(backlog.size, 2, 'two kept (its bound); the third was counted only');
  const o1Idle = hook('w1', 'o1', ['invitation.created']);
  const o2Idle = hook('w2', 'o2', ['invitation.accepted']);
  const hooks = async (org: string) => (org === 'o1' ? [o1Idle] : [o2Idle]);
  t.equal(await backlog.owedElsewhere(0, hooks, () => false), 'w1', 'an idle webhook owed an event is in the way');
  t.equal(await backlog.owedElsewhere(0, hooks, (w) => w.id === 'w1'), 'w2', 'so is one in another organization');
  t.equal(await backlog.owedElsewhere(0, hooks, () => true), undefined, 'webhooks that all wait hold nobody back');
  // The third event (o2's) fanned out by another daemon: the cursor is past everything kept.
  backlog.align(written[2].id);
  t.equal(backlog.size, 0);
  t.equal(await backlog.owedElsewhere(0, hooks, () => false), undefined, 'nothing is counted past the cursor');
  t.equal(await backlog.readToEnd(100), true);
  await log.append([{ kind: 'invitation.accepted', org: 'o2' }]);
  t.equal(await backlog.readToEnd(100), true, 'a new event is counted');
  t.equal(await backlog.owedElsewhere(0, hooks, () => false), 'w2');
  t.equal((await backlog.at(0))!.kind, 'invitation.accepted', 'and kept');
});

t.test(
  'whom a wait holds back: by organization and kind, paused webhooks aside, the events being fanned out aside',
  async (t) => {
    const log = await openLog(t);
    await log.append([
      { kind: 'invitation.created', org: 'o1' },
      { kind: 'invitation.created', org: 'o1' },
      { kind: 'invitation.accepted', org: 'o1' },
    ]);
    const backlog = backlogOf(log, 100);
    backlog.align('');
    t.equal(await backlog.readToEnd(2), false, 'a budget short of the log end says so');
    t.equal(await backlog.readToEnd(100), true);
    const busy = hook('busy', 'o1', ['invitation.created']);
    const other = hook('other', 'o1', ['webhook.delivery.exhausted']);
    const paused = hook('paused', 'o1', [], false);
    const members = hook('members', 'o1', ['invitation.accepted']);
    const waits = (w: Webhook) => w.id === 'busy';
    t.equal(
      await backlog.owedElsewhere(0, async () => [busy, other, paused], waits),
      undefined,
      'a filter that takes none of the kinds, a paused webhook',
    );
    t.equal(
      await backlog.owedElsewhere(0, async () => [busy, members], waits),
      'members',
      'the third event is owed to an idle webhook',
    );
    t.equal(
      await backlog.owedElsewhere(3, async () => [busy, members], waits),
      undefined,
      'unless it is among the events this step fans out before the wait',
    );
    t.equal(await backlog.readToEnd(100), true, 'reading again at the end costs one empty read');
  },
);

t.test('an event counted past a full backlog is read again when it is its turn, never counted twice', async (t) => {
  const log = await openLog(t);
  const written = await log.append(Array.from({ length: 5 }, () => ({ kind: 'invitation.created' as const, org: 'o1' })));
  const backlog = backlogOf(log, 2);
  backlog.align('');
  await backlog.readToEnd(100);
  const w = hook('w', 'o1');
  // Fan out one at a time: each step takes the first event and moves the cursor past it.
  const order: string[] = [];
  for (let n = 0; n < 5; n++) {
    const e = (await backlog.at(0))!;
    order.push(e.id);
    t.equal(
      await backlog.owedElsewhere(
        0,
        async () => [w],
        () => false,
      ),
      'w',
      `event ${n + 1}: events still counted`,
    );
    backlog.align(e.id);
  }
  t.same(
    order,
    written.map((e) => e.id),
    'every event once, in order',
  );
  t.equal(
    await backlog.owedElsewhere(
      0,
      async () => [w],
      () => false,
    ),
    undefined,
    'nothing left counted',
  );
  t.equal(await backlog.at(0), undefined);
});

t.test("fill() reads a step's events up front: up to n, fewer at the log's end; peek() never reads", async (t) => {
  const log = await openLog(t);
  const written = await log.append(Array.from({ length: 5 }, () => ({ kind: 'invitation.created' as const, org: 'o1' })));
  const backlog = backlogOf(log, 100);
  backlog.align('');
  t.equal(await backlog.fill(3), 3, 'three asked, three kept');
  t.equal(await backlog.fill(50), 5, "fewer at the log's end");
  const reads = log.reads();
  const later = await log.append([{ kind: 'invitation.created', org: 'o1' }]);
  t.same(
    Array.from({ length: 6 }, (_, i) => backlog.peek(i)?.id),
    [...written.map((e) => e.id), undefined],
    'peek answers what fill kept, and nothing committed since',
  );
  t.equal(log.reads(), reads, 'peek did not read the log');
  t.equal(await backlog.fill(50), 6, 'a later fill reads the new event');
  t.equal(backlog.peek(5)?.id, later[0].id);
});
