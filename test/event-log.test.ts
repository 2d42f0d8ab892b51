import t, { type Test } from 'tap';
import { EventLog } from '../src/domain/events/service.js';
import type { DomainEvent, EventKind } from '../src/domain/events/types.js';
import { type AppError } from '../src/errors.js';
import { createLogger } from '../src/log.js';
import { newId } from '../src/storage/keys.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import type { Storage } from '../src/storage/port.js';
import { waitFor } from './helpers.js';

const silent = createLogger('silent');
const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO_MS_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function openLog(t: Test, dir = t.testdir()): Promise<{ storage: Storage; events: EventLog; dir: string }> {
  const storage = await LevelStorage.open(dir, silent);
  t.teardown(() => storage.close());
  return { storage, events: new EventLog(storage, silent), dir };
}

/** Every event of the log after `after` (from the start without), in log order. */
async function logAfter(events: EventLog, after?: string): Promise<DomainEvent[]> {
  const out: DomainEvent[] = [];
  let page = await events.read({ after, limit: 200 });
  out.push(...page.items);
  while (page.nextCursor !== null) {
    page = await events.read({ cursor: page.nextCursor, limit: 200 });
    out.push(...page.items);
  }
  return out;
}

/**
 * Appends the drafts in order in one committed transaction (one batch, for speed) and returns them
 * as stored: ids are taken at commit, so they are read back from the log's new tail.
 */
async function appendAll(
  storage: Storage,
  events: EventLog,
  drafts: { kind: EventKind; organization_id: string; payload?: Record<string, unknown> }[],
): Promise<DomainEvent[]> {
  const before = (await logAfter(events)).at(-1)?.id;
  await storage.transaction({}, async (tx) => {
    for (const d of drafts) events.append(tx, d);
  });
  const appended = await logAfter(events, before);
  if (appended.length !== drafts.length) throw new Error(`${drafts.length} appended, ${appended.length} read back`);
  return appended;
}

type Reader = (cursor: string | null) => Promise<{ items: DomainEvent[]; nextCursor: string | null }>;

async function readAll(read: Reader): Promise<{ pages: number[]; ids: string[] }> {
  const pages: number[] = [];
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    pages.push(page.items.length);
    ids.push(...page.items.map((e) => e.id));
    cursor = page.nextCursor;
    if (pages.length > 200) throw new Error('paging does not end');
  } while (cursor !== null);
  return { pages, ids };
}

t.test('an appended event is invisible until its transaction commits', async (t) => {
  const { storage, events } = await openLog(t);
  const org = newId();
  await storage.transaction({}, async (tx) => {
    events.append(tx, { kind: 'organization.created', organization_id: org, payload: { slug: 'acme' } });
    t.equal(await events.countEvents(tx), 0, 'not stored');
    t.same((await events.read({}, tx)).items, [], 'not in the log');
    t.same((await events.read({ organizationId: org }, tx)).items, [], 'not in the organization view');
  });
  const [event] = (await events.read()).items;
  t.match(event, { kind: 'organization.created', organization_id: org }, 'in the log once committed');
  t.same(await events.get(event.id), event, 'readable by id');
  t.same(
    (await events.read({ organizationId: org })).items.map((e) => e.id),
    [event.id],
  );
  t.same(event.payload, { slug: 'acme' });
  t.equal(event.workflow_id, null, 'fields that do not apply are null');
  t.equal(event.run_id, null);
  t.equal(event.node_key, null);
  t.equal(event.job_id, null);
});

t.test('a failed commit writes no event and tells no subscriber', async (t) => {
  const { storage, events } = await openLog(t);
  const heard: string[] = [];
  events.subscribe((e) => void heard.push(e.id));
  const org = newId();

  await t.rejects(
    storage.transaction({}, async (tx) => {
      events.append(tx, { kind: 'invitation.created', organization_id: org });
      // A value LevelDB refuses: the batch, and the event with it, fails as it is written.
      tx.putMeta('refused', undefined);
    }),
  );
  t.equal(await events.countEvents(), 0, 'the event is not stored');
  t.same((await events.read()).items, []);

  // A later commit's notification arrives; by then the lost one would have too.
  const [kept] = await appendAll(storage, events, [{ kind: 'invitation.revoked', organization_id: org }]);
  await waitFor(() => heard.length > 0, { what: 'the committed event to be heard' });
  t.same(heard, [kept.id], 'only the committed event was announced');
});

t.test('subscribers hear of events after the commit; a failing one does not stop the others', async (t) => {
  const { storage, events } = await openLog(t);
  const heard: { id: string; storedWhenHeard: boolean }[] = [];
  let calls = 0;
  events.subscribe(() => {
    calls++;
    throw new Error('subscriber bug');
  });
  events.subscribe(async () => {
    calls++;
    throw new Error('async subscriber bug');
  });
  events.subscribe(async (e) => {
    heard.push({ id: e.id, storedWhenHeard: (await events.get(e.id)) !== undefined });
  });
  const removed: string[] = [];
  const unsubscribe = events.subscribe((e) => void removed.push(e.id));

  const org = newId();
  await storage.transaction({}, async (tx) => {
    events.append(tx, { kind: 'job.created', organization_id: org });
    events.append(tx, { kind: 'job.started', organization_id: org });
    await new Promise((r) => setImmediate(r));
    t.same(heard, [], 'nothing is announced before the commit');
  });
  await waitFor(() => heard.length === 2, { what: 'two notifications' });
  const [a, b] = (await events.read()).items;
  t.same([a.kind, b.kind], ['job.created', 'job.started']);
  t.same(
    heard.map((h) => h.id),
    [a.id, b.id],
    'in append order',
  );
  t.ok(
    heard.every((h) => h.storedWhenHeard),
    'each event was readable when announced',
  );
  t.equal(calls, 4, 'failing subscribers were called too');
  t.same(removed, [a.id, b.id]);

  unsubscribe();
  const [c] = await appendAll(storage, events, [{ kind: 'job.completed', organization_id: org }]);
  await waitFor(() => heard.length === 3, { what: 'third notification' });
  t.equal(heard[2].id, c.id, 'the log keeps announcing after subscriber failures');
  t.same(removed, [a.id, b.id], 'an unsubscribed listener hears nothing more');
});

t.test('ids are evt_ + ULID in append order; timestamps are ISO UTC with ms', async (t) => {
  const { storage, events } = await openLog(t);
  const org = newId();
  const appended: DomainEvent[] = [];
  // Each draft carries its place in the append order.
  for (let n = 0; n < 5; n++) {
    // Separate transactions and one shared one: order holds either way.
    appended.push(...(await appendAll(storage, events, [{ kind: 'job.created', organization_id: org, payload: { n } }])));
  }
  appended.push(
    ...(await appendAll(
      storage,
      events,
      Array.from({ length: 50 }, (_, i) => ({ kind: 'job.created' as const, organization_id: org, payload: { n: 5 + i } })),
    )),
  );
  for (const e of appended) {
    t.match(e.id, EVENT_ID);
    t.match(e.timestamp, ISO_MS_Z);
  }
  const ids = appended.map((e) => e.id);
  const byId = [...appended].sort((x, y) => (x.id < y.id ? -1 : 1));
  t.same(
    byId.map((e) => e.payload.n),
    Array.from({ length: 55 }, (_, n) => n),
    'lexical order is append order',
  );
  t.equal(new Set(ids).size, ids.length, 'unique');
  t.same(
    (await events.read({ limit: 200 })).items.map((e) => e.id),
    ids,
    'the log reads back in append order',
  );
  await t.rejects(
    storage.transaction({}, async (tx) => events.append(tx, { kind: 'no.such.kind' as EventKind, organization_id: org })),
    TypeError,
    'unknown kinds are a programmer error',
  );
});

t.test('read pages by cursor and by after, whole log and per organization', async (t) => {
  const { storage, events } = await openLog(t);
  const orgA = newId();
  const orgB = newId();
  const all = await appendAll(
    storage,
    events,
    Array.from({ length: 20 }, (_, i) => ({ kind: 'job.created' as const, organization_id: i % 3 === 0 ? orgB : orgA })),
  );
  const ofA = all.filter((e) => e.organization_id === orgA).map((e) => e.id);
  const allIds = all.map((e) => e.id);

  const whole = await readAll((cursor) => events.read({ limit: 6, cursor }));
  t.same(whole.pages, [6, 6, 6, 2]);
  t.same(whole.ids, allIds, 'every event once, in order');

  const a = await readAll((cursor) => events.read({ organizationId: orgA, limit: 4, cursor }));
  t.same(a.ids, ofA, 'only organization A, in order');
  t.same(a.pages, [4, 4, 4, 1]);

  t.same(
    (await events.read({ after: allIds[4] })).items.map((e) => e.id),
    allIds.slice(5),
    'after: strictly after that event',
  );
  t.same(
    (await events.read({ organizationId: orgA, after: ofA[2] })).items.map((e) => e.id),
    ofA.slice(3),
    'after within an organization',
  );
  // `after` naming another organization's event still positions by time.
  const bEvent = all.find((e) => e.organization_id === orgB && e.id > ofA[5])!;
  t.same(
    (await events.read({ organizationId: orgA, after: bEvent.id })).items.map((e) => e.id),
    ofA.filter((id) => id > bEvent.id),
  );
  t.same((await events.read({ after: allIds[19] })).items, [], 'after the last event: nothing');
  const last = await events.read({ after: allIds[19] });
  t.equal(last.nextCursor, null);

  const resumed = await readAll((cursor) => events.read({ organizationId: orgA, after: ofA[0], limit: 5, cursor }));
  t.same(resumed.ids, ofA.slice(1), 'after then cursor pages on without gaps');

  let code: string | undefined;
  try {
    await events.read({ organizationId: orgB, cursor: (await events.read({ organizationId: orgA, limit: 2 })).nextCursor });
  } catch (err) {
    code = (err as AppError).code;
  }
  t.equal(code, 'invalid_request', "one organization's cursor is refused for another");
});

t.test('a kind filter pages correctly across many events', async (t) => {
  const { storage, events } = await openLog(t);
  const orgA = newId();
  const orgB = newId();
  const kinds: EventKind[] = ['job.created', 'job.started', 'job.completed', 'invitation.created', 'job.failed'];
  // Sparse matches (every 7th) spread over more than one internal scan batch.
  const drafts = Array.from({ length: 700 }, (_, i) => ({
    kind: i % 7 === 3 ? ('invitation.accepted' as const) : kinds[i % kinds.length],
    organization_id: i % 2 === 0 ? orgA : orgB,
  }));
  const all = await appendAll(storage, events, drafts);
  const wanted = all.filter((e) => e.kind === 'invitation.accepted').map((e) => e.id);
  const wantedA = all.filter((e) => e.kind === 'invitation.accepted' && e.organization_id === orgA).map((e) => e.id);
  t.equal(wanted.length, 100);

  const whole = await readAll((cursor) => events.read({ kind: 'invitation.accepted', limit: 15, cursor }));
  t.same(whole.ids, wanted, 'every match once, in order');
  t.same(whole.pages, [15, 15, 15, 15, 15, 15, 10]);

  const exact = await readAll((cursor) => events.read({ kind: 'invitation.accepted', limit: 20, cursor }));
  t.same(exact.pages, [20, 20, 20, 20, 20], 'a full last page has a null cursor, not a trailing empty page');
  t.same(exact.ids, wanted);

  const a = await readAll((cursor) => events.read({ organizationId: orgA, kind: 'invitation.accepted', limit: 9, cursor }));
  t.same(a.ids, wantedA, 'kind and organization together');

  const afterSome = await readAll((cursor) => events.read({ kind: 'invitation.accepted', after: wanted[40], limit: 25, cursor }));
  t.same(afterSome.ids, wanted.slice(41), 'kind with after');

  t.same((await events.read({ kind: 'workflow.run.paused' })).items, [], 'a kind with no events: empty');
  t.equal((await events.read({ kind: 'workflow.run.paused' })).nextCursor, null);
});

t.test('consumer cursors are durable across a reopen', async (t) => {
  const dir = t.testdir();
  const first = await LevelStorage.open(dir, silent);
  const log1 = new EventLog(first, silent);
  const [e] = await appendAll(first, log1, [{ kind: 'job.created', organization_id: newId() }]);
  t.equal(await log1.readCursor('webhooks'), undefined, 'an unknown consumer has no cursor');
  await first.transaction({}, async (tx) => {
    log1.saveCursor(tx, 'webhooks', e.id);
    t.equal(await log1.readCursor('webhooks', tx), undefined, 'saved with its transaction, not before');
  });
  await first.close();

  const { events } = await openLog(t, dir);
  t.equal(await events.readCursor('webhooks'), e.id);
  t.equal(await events.readCursor('email'), undefined, 'cursors are per consumer');
  t.same((await events.read({ after: await events.readCursor('webhooks') })).items, [], 'a consumer resumes after its cursor');
});
