// Spec 2.7-2.8, 3.3-3.4, 4.5, 5.5, 6 and contract 7: webhook subscriptions over /v1, and deliveries to
// a real local receiver whose signatures are checked by third-party verifiers (GitHub-style
// `sha256=` with @octokit/webhooks-methods, Standard Webhooks with the `standardwebhooks` package).
import { randomUUID } from 'node:crypto';
import { verify as verifyGithub } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import pg from 'pg';
import t, { type Test } from 'tap';
import { newDelivery } from '../src/domain/webhooks/fanout.js';
import { MAX_IN_FLIGHT, MAX_PER_WEBHOOK } from '../src/domain/webhooks/index.js';
import { PACE_MS, TAKEOVER_EVERY_MS } from '../src/domain/webhooks/sender.js';
import type { Daemon } from '../src/main.js';
import type { LevelStorage } from '../src/storage/leveldb/engine.js';
import { splitPool } from '../src/storage/postgres/engine.js';
import {
  asPrincipal,
  createOrganizationAs,
  passesOf,
  request,
  startTestDaemon,
  testPostgres,
  waitFor,
  withTestEngine,
} from './helpers.js';
import { OpenRequests, WebhookReceiver } from './fakes/webhook-receiver.js';

/**
 * The most attempts one webhook may have at once: one that answers quickly borrows idle slots past
 * MAX_PER_WEBHOOK, never the last MAX_PER_WEBHOOK of them (the requirement, stated here on its own).
 */
const BORROW_CAP = MAX_IN_FLIGHT - MAX_PER_WEBHOOK;
const fast = { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', SERVICE_WEBHOOK_RETRY_BASE_MS: '100', SERVICE_WEBHOOK_TIMEOUT_MS: '1000' };

interface World {
  d: Daemon;
  owner: Record<string, string>;
  org: { id: string };
  receiver: WebhookReceiver;
  create: (body?: Record<string, unknown>) => Promise<any>;
  invite: () => Promise<string>;
  deliveries: (webhookId: string) => Promise<any[]>;
}

async function world(t: Test, env: Record<string, string> = {}): Promise<World> {
  const d = await startTestDaemon(t, { ...fast, ...env });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `hooks-${randomUUID().slice(0, 8)}`);
  const receiver = await WebhookReceiver.start(t);
  const create = async (body: Record<string, unknown> = {}) =>
    request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, { headers: owner, body: { url: receiver.url, ...body } });
  const invite = async () => {
    const res = await request(d.url, 'POST', '/v1/invitations', {
      headers: owner,
      body: { organization_id: org.id, email: `${randomUUID().slice(0, 8)}@example.com`, role: 'member' },
    });
    return res.body.data.id as string;
  };
  const deliveries = async (webhookId: string) =>
    (await request(d.url, 'GET', `/v1/webhooks/${webhookId}/deliveries?limit=200`, { headers: owner })).body.data as any[];
  return { d, owner, org, receiver, create, invite, deliveries };
}

/**
 * A world on PostgreSQL whose `delivered` delivery records pass through `onDelivered` (PL/pgSQL run
 * by a BEFORE INSERT OR UPDATE trigger, before `RETURN NEW`): the database holds or refuses outcomes.
 * Answers the world and a client of the test's own on the same database.
 */
async function outcomesTrapped(
  t: Test,
  timeoutMs: number,
  onDelivered: string,
  setup = '',
): Promise<{ w: World; db: pg.Client }> {
  const env = await withTestEngine({ SERVICE_WEBHOOK_TIMEOUT_MS: String(timeoutMs) });
  const w = await world(t, env);
  const db = new pg.Client({ connectionString: env.SERVICE_DATABASE_URL });
  await db.connect();
  t.teardown(() => db.end());
  await db.query(`
    ${setup}
    CREATE FUNCTION trap_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.data->>'status' = 'delivered' THEN ${onDelivered} END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER trap_outcome BEFORE INSERT OR UPDATE ON webhook_deliveries
      FOR EACH ROW EXECUTE FUNCTION trap_outcome();`);
  return { w, db };
}

t.test('create, read, change, delete: the secret shown once; other organizations see 404', async (t) => {
  const w = await world(t);
  const created = await w.create({ description: 'ci', event_filter: ['invitation.created', 'invitation.created'] });
  t.equal(created.status, 201);
  const hook = created.body.data;
  t.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'whsec_ + base64 of 32 bytes (contract 13)');
  t.equal(hook.standard_secret, hook.secret, 'one secret for both headers');
  t.same(hook.event_filter, ['invitation.created'], 'each kind once');
  t.equal(hook.max_retries, 3);
  t.equal(hook.active, true);
  const shown = await request(w.d.url, 'GET', `/v1/webhooks/${hook.id}`, { headers: w.owner });
  t.equal(shown.status, 200);
  t.notOk('secret' in shown.body.data, 'never shown again');
  t.equal((await request(w.d.url, 'GET', `/v1/organizations/${w.org.id}/webhooks`, { headers: w.owner })).body.data.length, 1);

  const stranger = asPrincipal(randomUUID());
  await createOrganizationAs(w.d.url, stranger, `other-${randomUUID().slice(0, 8)}`);
  t.equal(
    (await request(w.d.url, 'GET', `/v1/webhooks/${hook.id}`, { headers: stranger })).status,
    404,
    "another organization's: 404",
  );
  t.equal(
    (await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: stranger, body: { active: false } })).status,
    404,
  );

  const patched = await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, {
    headers: w.owner,
    body: { description: 'changed', state: { cursor: 7 }, resource_filter: { job_id: 'j1' } },
  });
  t.equal(patched.status, 200);
  t.same(patched.body.data.state, { cursor: 7 });
  t.same(patched.body.data.resource_filter, { job_id: 'j1' });

  const deleted = await request(w.d.url, 'DELETE', `/v1/webhooks/${hook.id}`, { headers: w.owner });
  t.equal(deleted.status, 200);
  t.ok(deleted.body.data.deleted_at);
  t.equal((await request(w.d.url, 'GET', `/v1/webhooks/${hook.id}`, { headers: w.owner })).status, 404, 'then 404');
  t.equal((await request(w.d.url, 'GET', `/v1/organizations/${w.org.id}/webhooks`, { headers: w.owner })).body.data.length, 0);
});

t.test('bad input is 422: secret format, state size, URL, unknown filter keys and kinds', async (t) => {
  const w = await world(t);
  const supplied = `whsec_${'ab'.repeat(32)}`;
  t.equal((await w.create({ secret: supplied })).body.data.secret, supplied, 'a well-formed secret is honoured');
  for (const [what, body] of [
    ['a malformed secret', { secret: 'whsec_short' }],
    ['state over 16 KB', { state: { blob: 'x'.repeat(16 * 1024) } }],
    ['an ftp URL', { url: 'ftp://example.com/hook' }],
    ['a relative URL', { url: '/hook' }],
    ['an unknown filter key', { resource_filter: { colour: 'red' } }],
    ['an unknown kind', { event_filter: ['no.such.kind'] }],
    ['max_retries out of range', { max_retries: 99 }],
  ] as const) {
    const res = await w.create(body);
    t.equal(res.status, 422, what);
    t.equal(res.body.error.code, 'validation_failed', what);
  }
});

t.test('a member may not manage webhooks (admin or higher)', async (t) => {
  const w = await world(t);
  const member = randomUUID();
  await request(w.d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.owner,
    body: { principal_id: member, role: 'member' },
  });
  const res = await request(w.d.url, 'POST', `/v1/organizations/${w.org.id}/webhooks`, {
    headers: asPrincipal(member),
    body: { url: w.receiver.url },
  });
  t.equal(res.status, 403);
});

t.test('an event reaches the receiver signed both ways; the state envelope', async (t) => {
  const w = await world(t);
  const hook = (await w.create({ event_filter: ['invitation.created'] })).body.data;
  const stateful = (await w.create({ event_filter: ['invitation.created'], state: { tenant: 'acme' } })).body.data;
  const invitationId = await w.invite();
  await waitFor(() => w.receiver.received.length >= 2, { what: 'two deliveries' });
  for (const r of w.receiver.received) {
    const mine = r.body.includes('"state"') ? stateful : hook;
    t.equal(r.headers['content-type'], 'application/json');
    t.equal(r.headers['x-service-event'], 'invitation.created');
    t.match(r.headers['x-service-delivery'], /^dlv_/);
    t.equal(r.headers['webhook-id'], r.headers['x-service-delivery']);
    t.notOk('x-service-retry' in r.headers, 'no retry header on the first attempt');
    t.ok(await verifyGithub(mine.secret, r.body, String(r.headers['x-service-signature'])), 'sha256= verifies (octokit)');
    const verified = new StandardWebhook(mine.standard_secret).verify(r.body, r.headers as Record<string, string>);
    t.ok(verified, 'Standard Webhooks signature verifies');
  }
  const plain = JSON.parse(w.receiver.received.find((r) => !r.body.includes('"state"'))!.body);
  t.equal(plain.kind, 'invitation.created');
  t.equal(plain.payload.invitation_id, invitationId);
  t.match(plain.id, /^evt_/);
  const enveloped = JSON.parse(w.receiver.received.find((r) => r.body.includes('"state"'))!.body);
  t.same(enveloped.state, { tenant: 'acme' });
  t.equal(enveloped.event.id, plain.id, 'the same event');
  // The receiver can hear the POST before the sender has written down its answer.
  await waitFor(async () => (await w.deliveries(hook.id))[0]?.status === 'delivered', { what: 'the delivery recorded' });
  const [record] = await w.deliveries(hook.id);
  t.equal(record.status, 'delivered');
  t.equal(record.attempt, 1);
  t.equal(record.status_code, 200);
  t.equal(record.event_id, plain.id);
  t.equal(record.attempts[0].response, 'ok', 'the answer is kept');
});

t.test("a 429's or 503's Retry-After lengthens the wait, clamped to the schedule's cap; other answers' is ignored", async (t) => {
  // Attempts time out after 10 s: a retry that hangs leaves the record at its first outcome meanwhile.
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '10000' });
  const cap = 100 * 2 ** 10; // SERVICE_WEBHOOK_RETRY_BASE_MS x 2^10
  const hook = async (receiver: WebhookReceiver) =>
    (await w.create({ url: receiver.url, event_filter: ['invitation.created'] })).body.data.id as string;
  const busy = await WebhookReceiver.start(t);
  busy.setDefault({ kind: 'status', status: 429, headers: { 'retry-after': '3' } });
  const down = await WebhookReceiver.start(t);
  down.setDefault({ kind: 'status', status: 503, headers: { 'retry-after': '100000' } });
  const broken = await WebhookReceiver.start(t);
  broken.enqueue({ kind: 'status', status: 500, headers: { 'retry-after': '3' } });
  broken.setDefault({ kind: 'hang' });
  const [busyId, downId, brokenId] = [await hook(busy), await hook(down), await hook(broken)];
  await w.invite();
  const failedOnce = async (id: string) => {
    let found: any;
    await waitFor(
      async () => {
        found = (await w.deliveries(id))[0];
        return found?.status === 'pending' && found.attempts.length >= 1;
      },
      { what: `a failed attempt recorded for ${id}` },
    );
    return found;
  };
  const waitOf = (d: any) => {
    const next = Date.parse(d.next_attempt_at);
    return { fromAttempt: next - Date.parse(d.attempts.at(-1).at), fromRecord: next - Date.parse(d.updated_at) };
  };
  const asked = waitOf(await failedOnce(busyId));
  t.ok(asked.fromAttempt >= 3000 && asked.fromRecord <= 3000, `429, Retry-After 3: 3 s (${asked.fromAttempt} ms)`);
  const clamped = waitOf(await failedOnce(downId));
  t.ok(
    clamped.fromAttempt >= cap && clamped.fromRecord <= cap,
    `503, Retry-After past the cap: the cap (${clamped.fromAttempt} ms)`,
  );
  const first = await failedOnce(brokenId);
  t.equal(first.attempts.length, 1);
  const ignored = waitOf(first);
  t.ok(ignored.fromRecord <= 120, `500: the schedule's 100 to 120 ms, its Retry-After ignored (${ignored.fromRecord} ms)`);
});

t.test('retries on the schedule, then exhaustion: the event goes to other webhooks, never to its own', async (t) => {
  const w = await world(t);
  w.receiver.setDefault({ kind: 'status', status: 500, body: 'boom' });
  const failing = (await w.create({ event_filter: ['invitation.created'], max_retries: 2 })).body.data;
  const watcher = await WebhookReceiver.start(t);
  const other = (await w.create({ url: watcher.url, event_filter: ['webhook.delivery.exhausted'] })).body.data;
  await w.invite();
  await waitFor(async () => (await w.deliveries(failing.id))[0]?.status === 'failed', { what: 'exhaustion' });
  const [d] = await w.deliveries(failing.id);
  t.equal(d.attempt, 3, 'one attempt and max_retries (2) retries');
  t.same(
    d.attempts.map((a: any) => a.status_code),
    [500, 500, 500],
  );
  t.equal(d.error_message, 'receiver answered 500');
  const sent = w.receiver.deliveries(d.id);
  t.same(
    sent.map((r) => r.headers['x-service-retry']),
    [undefined, '2', '3'],
  );
  const gaps = [sent[1].at - sent[0].at, sent[2].at - sent[1].at];
  t.ok(gaps[0] >= 100 && gaps[1] >= 200, `retries wait 100 ms then 200 ms (${gaps.join(', ')})`);

  await waitFor(() => watcher.received.length >= 1, { what: 'the exhaustion event delivered elsewhere' });
  const exhausted = JSON.parse(watcher.received[0].body);
  t.equal(exhausted.kind, 'webhook.delivery.exhausted');
  t.same(exhausted.payload, {
    webhook_id: failing.id,
    delivery_id: d.id,
    event_id: d.event_id,
    event_kind: 'invitation.created',
    attempts: 3,
    status_code: 500,
    error_message: 'receiver answered 500',
  });
  // Under load the watcher has been seen to get the POST before the delivery is listed (CI, 22:50 UTC
  // 2026-11-28, after the sender split): waited for here, and left in the closing note to find out.
  await waitFor(async () => (await w.deliveries(other.id)).length === 1, { what: "the other webhook's delivery listed" });
  t.equal((await w.deliveries(other.id)).length, 1);
  t.equal(
    w.receiver.received.filter((r) => r.headers['x-service-event'] === 'webhook.delivery.exhausted').length,
    0,
    'not to its own',
  );
});

t.test('pause holds deliveries as pending, resume sends them; delete fails them and sends nothing', async (t) => {
  const w = await world(t);
  const hook = (await w.create({ event_filter: ['invitation.created'] })).body.data;
  await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: w.owner, body: { active: false } });
  await w.invite();
  await waitFor(async () => (await w.deliveries(hook.id)).length === 1, { what: 'a delivery record' });
  await passesOf(w.d, 'webhook-fanout', 'webhook-delivery');
  t.equal(w.receiver.received.length, 0, 'nothing sent while paused');
  t.equal((await w.deliveries(hook.id))[0].status, 'pending');
  await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: w.owner, body: { active: true } });
  await waitFor(() => w.receiver.received.length === 1, { what: 'the held delivery after resume' });
  await waitFor(async () => (await w.deliveries(hook.id))[0].status === 'delivered', { what: 'delivered' });

  w.receiver.setDefault({ kind: 'status', status: 503 });
  await w.invite();
  await waitFor(() => w.receiver.received.length >= 2, { what: 'a failing attempt' });
  // Its retries fall due 100, 300 and 700 ms after that first failure, which was before now.
  const lastRetryDue = Date.now() + 700;
  await request(w.d.url, 'DELETE', `/v1/webhooks/${hook.id}`, { headers: w.owner });
  const seen = w.receiver.received.length;
  // A delete that let them go would show two or three more once they are due and a pass has run. One
  // retry may already have been on the wire as the delete committed (a slow machine took over 100 ms
  // to answer the DELETE): it arrives after `seen`.
  await new Promise((r) => setTimeout(r, Math.max(0, lastRetryDue - Date.now())));
  await passesOf(w.d, 'webhook-delivery');
  t.ok(w.receiver.received.length - seen <= 1, 'nothing more is sent after delete (but an attempt already on its way)');
  const failed = await w.d.services.webhooks.store.deliveries.listBy('webhook', hook.id);
  const last = failed.items[failed.items.length - 1];
  await waitFor(async () => (await w.d.services.webhooks.store.deliveries.get(last.id))?.status === 'failed', {
    what: 'the pending delivery to fail',
  });
  t.equal((await w.d.services.webhooks.store.deliveries.get(last.id))?.error_message, 'webhook deleted');
});

/**
 * `webhooks` webhooks for one run and `events` events of that run committed in one transaction (event
 * i carries `payload.i`): webhooks x events deliveries at once. Answers the webhooks' ids.
 */
async function burst(w: World, webhooks: number, events: number): Promise<string[]> {
  const run = `burst-${randomUUID().slice(0, 8)}`;
  const hooks: string[] = [];
  for (let i = 0; i < webhooks; i++) hooks.push((await w.create({ resource_filter: { workflow_run_id: run } })).body.data.id);
  await w.d.storage.transaction({}, async (tx) => {
    for (let i = 0; i < events; i++)
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i }, run_id: run });
  });
  return hooks;
}

t.test('a burst to many webhooks is fanned out over several transactions: every event once to every webhook', async (t) => {
  // 256 attempts at once to a receiver in this process: a loaded machine can answer some after 1 s.
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '5000' });
  // 12 webhooks x 50 events committed together: 600 deliveries, more than one fan-out transaction makes.
  const hooks = await burst(w, 12, 50);
  await waitFor(() => new Set(w.receiver.received.map((r) => r.headers['x-service-delivery'])).size >= 600, {
    what: '600 deliveries',
  });
  const store = w.d.services.webhooks.store;
  const { deliveries } = store;
  // A handed-off delivery's record is written with its first outcome, just after the answer.
  await waitFor(async () => (await store.backlog(1000)).pending === 0, { what: 'every outcome recorded' });
  for (const id of hooks) {
    const records = (await deliveries.listBy('webhook', id, { limit: 100 })).items;
    t.equal(new Set(records.map((d) => d.event_id)).size, 50, `webhook ${id}: 50 events`);
    t.equal(records.length, 50, `webhook ${id}: one delivery each`);
  }
  // Distinct deliveries (a receiver deduplicates on X-Service-Delivery; a timed-out attempt is sent again).
  const deliveriesOf = Array.from({ length: 50 }, () => new Set<unknown>());
  for (const r of w.receiver.received)
    deliveriesOf[(JSON.parse(r.body) as { payload: { i: number } }).payload.i].add(r.headers['x-service-delivery']);
  t.same(
    deliveriesOf.map((ids) => ids.size),
    Array.from({ length: 50 }, () => 12),
    'each event reached each webhook',
  );
});

// A slot is given back when its answer arrives, before the outcome is written; the outcomes waiting
// to be written are bounded too (another MAX_IN_FLIGHT, the global bound), or a database that cannot keep up
// would let the sender run ahead without limit. PostgreSQL holds every write of a `delivered` outcome
// here (a trigger waits for an advisory lock this test holds), and claims go on as usual.
t.test(
  `PostgreSQL: while outcomes cannot be written, ${2 * MAX_IN_FLIGHT} attempts are sent (${MAX_IN_FLIGHT} in flight, as many waiting for their record), then the rest`,
  { skip: testPostgres === undefined ? 'PostgreSQL only (the database holds the outcome writes)' : false },
  async (t) => {
    const { w, db } = await outcomesTrapped(t, 5000, 'PERFORM pg_advisory_xact_lock_shared(4242);');
    await db.query('SELECT pg_advisory_lock(4242)');
    const delivered = async (): Promise<number> =>
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE data->>'status' = 'delivered'"))
        .rows[0].n;
    let held = true;
    const release = async () => {
      if (held) await db.query('SELECT pg_advisory_unlock(4242)');
      held = false;
    };
    try {
      // 16 webhooks x 50 events: 800 deliveries, more than the 2 x MAX_IN_FLIGHT the bounds allow
      // (16 x MAX_PER_WEBHOOK is more too: the global bound is what stops them).
      const bound = 2 * MAX_IN_FLIGHT;
      await burst(w, 16, 50);
      await waitFor(() => w.receiver.received.length >= bound, { what: `${bound} attempts` });
      await passesOf(w.d, 'webhook-fanout', 'webhook-delivery');
      t.equal(w.receiver.received.length, bound, `no attempt more while ${MAX_IN_FLIGHT} answered ones wait for their record`);
      t.equal(await delivered(), 0, 'none of them is recorded yet');
      await release();
      await waitFor(async () => (await delivered()) === 800, { what: '800 deliveries recorded' });
      t.equal(w.receiver.received.length, 800, 'each delivery sent once');
      t.equal(new Set(w.receiver.received.map((r) => r.headers['x-service-delivery'])).size, 800, '800 distinct deliveries');
    } finally {
      await release();
    }
  },
);

t.test(
  'a handed-off delivery is written once, with its outcome; until then it reads as pending, in lists and pages too',
  async (t) => {
    const w = await world(t);
    const hook = (await w.create({ event_filter: ['workflow.node.progress'] })).body.data;
    const store = w.d.services.webhooks.store;
    const append = async (i: number) =>
      w.d.storage.transaction({}, async (tx) =>
        w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i } }),
      );
    for (let i = 0; i < 3; i++) await append(i);
    await waitFor(async () => (await store.backlog(100)).pending === 0 && w.receiver.received.length === 3, {
      what: 'three delivered and recorded',
    });
    // Two more, whose answers take 1.5 s: their first attempts run while the test looks.
    w.receiver.setDefault({ kind: 'slow-body', status: 200, chunks: ['o', 'k'], gapMs: 1500 });
    for (let i = 3; i < 5; i++) await append(i);
    await waitFor(() => w.receiver.received.length === 5, { what: 'the two slow attempts under way' });
    const running = w.receiver.received.slice(3).map((r) => r.headers['x-service-delivery'] as string);
    t.same(
      await store.deliveries.getMany(running),
      [undefined, undefined],
      'no record of them yet: one is written with the outcome',
    );
    t.equal((await store.handOffBatches()).length > 0, true, 'they are stored in their hand-off batch');
    const shown = await request(w.d.url, 'GET', `/v1/webhooks/${hook.id}/deliveries/${running[0]}`, { headers: w.owner });
    t.equal(shown.status, 200, 'shown by id');
    t.equal(shown.body.data.status, 'pending');
    t.equal(shown.body.data.attempt, 0, 'its first attempt not recorded yet');
    const retried = await request(w.d.url, 'POST', `/v1/webhooks/${hook.id}/deliveries/${running[0]}/retry`, {
      headers: w.owner,
    });
    t.equal(retried.status, 409, 'a manual retry is refused: it is pending');
    // Pages of two: the three records and the two running, once each, in creation order.
    const listed: { id: string; status: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? 'limit=2' : `limit=2&cursor=${cursor}`;
      const page = await request(w.d.url, 'GET', `/v1/webhooks/${hook.id}/deliveries?${query}`, { headers: w.owner });
      t.equal(page.status, 200);
      listed.push(...(page.body.data as { id: string; status: string }[]));
      cursor = page.body.meta.next_cursor as string | null;
    } while (cursor !== null && listed.length < 10);
    const ids = listed.map((d) => d.id);
    t.same(ids, [...ids].sort(), 'in creation order');
    t.equal(new Set(ids).size, 5, 'five, none twice');
    t.same(
      listed.filter((d) => running.includes(d.id)).map((d) => d.status),
      ['pending', 'pending'],
      'the running two listed pending',
    );
    t.equal((await store.backlog(100)).pending, 2, 'the pending count has them');
    await waitFor(async () => (await store.deliveries.getMany(running)).every((d) => d?.status === 'delivered'), {
      what: 'their outcomes recorded',
    });
    t.same(await store.handOffBatches(), [], 'the batch went with its last outcome');
    t.equal(await store.deliveries.countRange('webhook', hook.id, { limit: 100 }), 5, 'one record per delivery');
  },
);

t.test(
  'PostgreSQL: a handed-off delivery whose outcome cannot be written is taken over from its batch and sent again, with its id',
  { skip: testPostgres === undefined ? 'PostgreSQL only (the database refuses the write)' : false },
  async (t) => {
    // A 1 s attempt timeout: the batch's lease (3 x) ends 3 s after the fan-out.
    // The first `delivered` record written fails its transaction, once (a sequence's count outlives
    // the rollback).
    const { w, db } = await outcomesTrapped(
      t,
      1000,
      "IF nextval('outcomes_seen') = 1 THEN RAISE EXCEPTION 'outcome refused by the test'; END IF;",
      'CREATE SEQUENCE outcomes_seen;',
    );
    const hook = (await w.create({ event_filter: ['workflow.node.progress'] })).body.data;
    await w.d.storage.transaction({}, async (tx) =>
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: {} }),
    );
    const store = w.d.services.webhooks.store;
    await waitFor(async () => (await w.deliveries(hook.id)).some((d) => d.status === 'delivered'), {
      what: 'the delivery recorded in the end',
    });
    const ids = w.receiver.received.map((r) => r.headers['x-service-delivery']);
    t.equal(ids.length, 2, 'sent twice: once before the refused write, once after the takeover');
    t.equal(new Set(ids).size, 1, 'with the same X-Service-Delivery (receivers deduplicate on it)');
    t.ok(
      Number((await db.query('SELECT last_value FROM outcomes_seen')).rows[0].last_value) > 1,
      'the first write refused, a later one let through',
    );
    const [record] = await w.deliveries(hook.id);
    t.equal(record.id, ids[0], 'one record, under that id');
    t.equal((await w.deliveries(hook.id)).length, 1);
    t.same(await store.handOffBatches(), [], 'the batch is gone');
  },
);

t.test(
  "PostgreSQL: outcomes held past their batch's lease are written by the daemon that holds the batch, each delivery sent once",
  { skip: testPostgres === undefined ? 'PostgreSQL only (the database holds the outcome writes)' : false },
  async (t) => {
    // A 500 ms attempt timeout: the batches' leases end 1.5 s after the fan-out, and an outcome written
    // in the last third of its lease reads its batch instead of knowing it (sender.ts surelyOurs).
    const { w, db } = await outcomesTrapped(t, 500, 'PERFORM pg_advisory_xact_lock_shared(4343);');
    const hook = (await w.create({ event_filter: ['workflow.node.progress'] })).body.data;
    await db.query('SELECT pg_advisory_lock(4343)');
    let held = true;
    const release = async () => {
      if (held) await db.query('SELECT pg_advisory_unlock(4343)');
      held = false;
    };
    t.teardown(release);
    for (let n = 0; n < 2; n++)
      await w.d.storage.transaction({}, async (tx) => {
        for (let i = 0; i < 10; i++)
          w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i: n * 10 + i } });
      });
    await waitFor(() => w.receiver.received.length === 20, { what: 'twenty attempts answered' });
    // Every lease ends while the outcomes wait, and the sender looks for ended batches (at most once a
    // TAKEOVER_EVERY_MS) after that: the batches it holds are the ones it must not take over.
    const store = w.d.services.webhooks.store;
    await waitFor(
      async () => {
        const batches = await store.handOffBatches();
        return batches.length > 0 && (await store.endedHandOffs(new Date().toISOString(), 100)).length === batches.length;
      },
      { what: "every batch's lease to end" },
    );
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_EVERY_MS));
    await passesOf(w.d, 'webhook-delivery');
    await release();
    await waitFor(async () => (await w.d.services.webhooks.store.backlog(100)).pending === 0, { what: 'every outcome written' });
    const ids = w.receiver.received.map((r) => r.headers['x-service-delivery']);
    t.equal(new Set(ids).size, 20, 'twenty deliveries');
    t.equal(ids.length, 20, 'none sent twice: a batch this daemon holds is never taken over by it');
    const records = await w.deliveries(hook.id);
    t.same(
      records.map((d) => d.status),
      Array.from({ length: 20 }, () => 'delivered'),
      'each recorded once, delivered',
    );
    t.same(await w.d.services.webhooks.store.handOffBatches(), [], 'the batches went with their last outcomes');
  },
);

t.test(
  'LevelDB: a claimed delivery is not written until its outcome (the one daemon holds its claims in memory); a handed-off one is written once',
  { skip: testPostgres === undefined ? false : 'LevelDB only' },
  async (t) => {
    const w = await world(t);
    const hook = (await w.create({ event_filter: ['invitation.created'] })).body.data;
    // Held while paused, so that after the resume each one goes through a pass's claim (not the fan-out's hand-off).
    await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: w.owner, body: { active: false } });
    for (let i = 0; i < 5; i++) await w.invite();
    await waitFor(async () => (await w.deliveries(hook.id)).length === 5, { what: 'five held delivery records' });
    const ids: string[] = (await w.deliveries(hook.id)).map((d) => d.id);
    const writes = new Map<string, number>();
    const { db } = w.d.storage as LevelStorage;
    const listener = (ops: { key: unknown }[]) => {
      for (const op of ops) {
        const id = String(op.key).split('!webhook_deliveries!')[1];
        if (id !== undefined) writes.set(id, (writes.get(id) ?? 0) + 1);
      }
    };
    db.on('write', listener);
    t.teardown(() => void db.off('write', listener));
    await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: w.owner, body: { active: true } });
    await waitFor(async () => (await w.deliveries(hook.id)).every((d) => d.status === 'delivered'), { what: 'all delivered' });
    t.equal(w.receiver.received.length, 5, 'each sent once');
    t.same(
      ids.map((id) => writes.get(id)),
      [2, 2, 2, 2, 2],
      'each delivery written twice: due again at the resume, then delivered (no lease in between)',
    );
    // Handed off by the fan-out (the webhook active, slots free): written once, delivered.
    writes.clear();
    for (let i = 0; i < 5; i++) await w.invite();
    await waitFor(
      async () => (await w.deliveries(hook.id)).filter((d) => d.status === 'delivered').length === 10 && writes.size >= 5,
      { what: 'five more delivered' },
    );
    const handed = (await w.deliveries(hook.id)).map((d) => d.id).filter((id) => !ids.includes(id));
    t.same(
      handed.map((id) => writes.get(id)),
      [1, 1, 1, 1, 1],
      'each handed-off delivery written once, with its outcome',
    );
  },
);

t.test('attempts to one receiver go over a kept-alive connection', async (t) => {
  const w = await world(t);
  await w.create({ event_filter: ['invitation.created'] });
  // One at a time, so one connection can carry them all.
  for (let n = 1; n <= 5; n++) {
    await w.invite();
    await waitFor(() => w.receiver.received.length === n, { what: `delivery ${n}` });
  }
  t.equal(w.receiver.connections, 1, 'five deliveries, one after another, over one connection');
});

t.test('a long answer is kept to its first 1 KB, never half a character, on failure and success alike', async (t) => {
  const w = await world(t);
  // 256 KB, with a two-byte character across the 1 KB mark: the kept text never ends in half a character.
  const long = `${'x'.repeat(1023)}é${'y'.repeat(256 * 1024)}`;
  w.receiver.enqueue({ kind: 'status', status: 500, body: long }, { kind: 'status', status: 200, body: long });
  const hook = (await w.create({ event_filter: ['invitation.created'] })).body.data;
  await w.invite();
  await waitFor(async () => (await w.deliveries(hook.id))[0]?.status === 'delivered', { what: 'the retry delivered' });
  const [d] = await w.deliveries(hook.id);
  t.same(
    d.attempts.map((a: any) => a.status_code),
    [500, 200],
  );
  for (const a of d.attempts)
    t.equal(a.response, 'x'.repeat(1023), 'the first 1 KB, less the character it would cut in two, and nothing past it');
});

t.test('an answer past 1 KB is not read to its end: the attempt ends once 1 KB is in', async (t) => {
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '20000' });
  // 1,100 bytes at once, then nothing until the test ends: an attempt that read on would time out, failed.
  w.receiver.setDefault({ kind: 'slow-body', status: 200, chunks: ['z'.repeat(1100), 'late'], gapMs: 3_600_000 });
  const hook = (await w.create({ event_filter: ['invitation.created'] })).body.data;
  await w.invite();
  await waitFor(async () => (await w.deliveries(hook.id))[0]?.status === 'delivered', { what: 'the delivery' });
  const [attempt] = (await w.deliveries(hook.id))[0].attempts;
  t.equal(attempt.status_code, 200, 'recorded as answered, not timed out');
  t.equal(attempt.response, 'z'.repeat(1024), 'that 1 KB is kept');
  await waitFor(() => w.receiver.received[0]?.abandoned === true, { what: 'the sender to hang up' });
  t.ok(w.receiver.received[0].abandoned, 'the sender hung up with the answer still open: it read no more than 1 KB');
});

t.test('receiver faults: 404, 302 (never followed), a hang past the timeout, a reset, a slow body, refused', async (t) => {
  // A longer attempt window than the other tests: on a loaded machine a 1 s window can also cut off
  // the slow body or the refused connection's attempt, and this test counts every attempt.
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '3000' });
  w.receiver.enqueue(
    { kind: 'status', status: 404, body: 'nope' },
    { kind: 'status', status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } },
    { kind: 'hang' },
    { kind: 'reset' },
    { kind: 'slow-body', status: 200, chunks: ['a', 'b', 'c'], gapMs: 50 },
  );
  const hook = (await w.create({ event_filter: ['invitation.created'], max_retries: 5 })).body.data;
  await w.invite();
  await waitFor(async () => (await w.deliveries(hook.id))[0]?.status === 'delivered', {
    what: 'delivery after the faults',
  }).catch(async (err: unknown) => {
    // Seen once under heavy load: say what the attempts were, so the next run that fails explains itself.
    t.comment(JSON.stringify((await w.deliveries(hook.id))[0]?.attempts ?? []));
    throw err;
  });
  const [d] = await w.deliveries(hook.id);
  t.same(
    d.attempts.map((a: any) => [a.status_code, a.error]),
    [
      [404, 'receiver answered 404'],
      [302, 'redirect (302) not followed'],
      [null, 'timed out after 3000 ms'],
      [null, 'connection reset before an answer'],
      [200, null],
    ],
    'every attempt recorded with what happened',
  );
  t.equal(d.attempts[0].response, 'nope');
  t.ok(d.attempts[2].duration_ms >= 2950, 'the hang was cut at the timeout');
  t.equal(d.attempts[4].response, 'abc', 'the slow body was read');
  t.equal(w.receiver.received.filter((r) => r.headers['x-service-delivery'] === d.id).length, 5, 'the redirect was not followed');

  const refused = (await w.create({ url: 'http://127.0.0.1:1/closed', event_filter: ['invitation.created'], max_retries: 0 }))
    .body.data;
  await w.invite();
  await waitFor(async () => (await w.deliveries(refused.id))[0]?.status === 'failed', { what: 'a refused connection' });
  t.equal((await w.deliveries(refused.id))[0].error_message, 'connection refused');
});

t.test('manual retry, recovery of a window, and rotation with a grace window', async (t) => {
  const w = await world(t);
  w.receiver.setDefault({ kind: 'status', status: 500 });
  const hook = (await w.create({ event_filter: ['invitation.created'], max_retries: 0 })).body.data;
  const since = new Date().toISOString();
  await w.invite();
  await w.invite();
  await waitFor(
    async () => {
      const all = await w.deliveries(hook.id);
      return all.length === 2 && all.every((d) => d.status === 'failed');
    },
    { what: 'two failed deliveries' },
  );
  w.receiver.setDefault({ kind: 'status', status: 200 });
  const [first] = await w.deliveries(hook.id);
  const retried = await request(w.d.url, 'POST', `/v1/webhooks/${hook.id}/deliveries/${first.id}/retry`, { headers: w.owner });
  t.equal(retried.status, 200);
  await waitFor(async () => (await w.deliveries(hook.id))[0].status === 'delivered', { what: 'the manual retry' });
  t.equal(w.receiver.deliveries(first.id).at(-1)!.headers['x-service-retry'], '2');
  const recovered = await request(w.d.url, 'POST', `/v1/webhooks/${hook.id}/recover`, { headers: w.owner, body: { since } });
  t.same(recovered.body.data, { recovered: 1 }, 'the other failed one');
  await waitFor(async () => (await w.deliveries(hook.id)).every((d) => d.status === 'delivered'), { what: 'recovery' });

  const rotated = await request(w.d.url, 'POST', `/v1/webhooks/${hook.id}/rotate-secret`, {
    headers: w.owner,
    body: { grace_seconds: 3600 },
  });
  t.equal(rotated.status, 200);
  t.not(rotated.body.data.secret, hook.secret);
  const before = w.receiver.received.length;
  await w.invite();
  await waitFor(() => w.receiver.received.length > before, { what: 'a delivery after rotation' });
  const r = w.receiver.received.at(-1)!;
  t.equal(String(r.headers['webhook-signature']).split(' ').length, 2, 'both signatures during the grace window');
  t.ok(
    new StandardWebhook(rotated.body.data.standard_secret).verify(r.body, r.headers as Record<string, string>),
    'the new secret verifies',
  );
  t.ok(new StandardWebhook(hook.standard_secret).verify(r.body, r.headers as Record<string, string>), 'so does the old one');
  t.ok(
    await verifyGithub(rotated.body.data.secret, r.body, String(r.headers['x-service-signature'])),
    'sha256= with the new secret',
  );
});

t.test('without SERVICE_WEBHOOK_ALLOW_PRIVATE: loopback URLs refused at creation and at delivery time', async (t) => {
  const w = await world(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '0' });
  for (const url of [
    w.receiver.url,
    'http://localhost:9/x',
    'http://[::1]:9/x',
    'http://10.0.0.1/x',
    'http://169.254.169.254/latest',
  ]) {
    const res = await w.create({ url });
    t.equal(res.status, 422, `${url} refused at creation`);
  }
  // A URL that passed the check when stored (as one whose DNS answer later changed would): the
  // sender checks the address it connects to and refuses it.
  const allowed = await w.create({ url: 'http://example.com/hook', event_filter: ['invitation.created'], max_retries: 0 });
  t.equal(allowed.status, 201);
  const store = w.d.services.webhooks.store;
  const record = (await store.webhooks.get(allowed.body.data.id))!;
  await w.d.storage.transaction({}, async (tx) => void (await tx.put(store.webhooks, { ...record, url: w.receiver.url })));
  await w.invite();
  await waitFor(async () => (await w.deliveries(record.id))[0]?.status === 'failed', { what: 'the refusal' });
  t.match((await w.deliveries(record.id))[0].error_message, /127\.0\.0\.1.*loopback/);
  t.equal(w.receiver.received.length, 0, 'no connection reached the receiver');
});

t.test('metrics: attempts by outcome, attempt time, the pending backlog and its oldest age', async (t) => {
  const w = await world(t, { SERVICE_METRICS_ADDR: '127.0.0.1:0' });
  const scrape = async () => (await fetch(`http://${w.d.metricsAddress}/metrics`)).text();
  const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  w.receiver.enqueue({ kind: 'status', status: 500 });
  const hook = (await w.create({ event_filter: ['invitation.created'], max_retries: 1 })).body.data;
  await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: w.owner, body: { active: false } });
  await w.invite();
  await waitFor(async () => (await w.deliveries(hook.id)).length === 1, { what: 'a held delivery' });
  await request(w.d.url, 'PATCH', `/v1/webhooks/${hook.id}`, { headers: w.owner, body: { active: true } });
  await waitFor(async () => (await w.deliveries(hook.id))[0].status === 'delivered', { what: 'a retried delivery' });
  const text = await scrape();
  t.equal(value(text, 'switchyard_webhook_attempts_total\\{outcome="retry"\\}'), 1, 'one failed attempt with a retry due');
  t.equal(value(text, 'switchyard_webhook_attempts_total\\{outcome="delivered"\\}'), 1, 'one delivered');
  t.equal(value(text, 'switchyard_webhook_attempt_duration_seconds_count'), 2, 'both attempts timed');
  t.equal(value(text, 'switchyard_webhook_deliveries_pending'), 0, 'nothing waiting');
  t.equal(value(text, 'switchyard_webhook_oldest_due_age_seconds'), 0);
  t.equal(value(text, 'switchyard_webhook_fanout_lag_events'), 0, 'every event fanned out');
});

t.test('more webhooks with due work than a page lists: the pass reads every page, every delivery goes', async (t) => {
  // 256 attempts at once to a receiver in this process: a loaded machine can answer some after 1 s.
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '5000', SERVICE_WEBHOOK_MAX_PER_ORG: '200' });
  // 130 webhooks (a page lists 100) with 3 due deliveries each: 390, more than MAX_IN_FLIGHT, so the
  // first pass reads two pages of webhooks and stops part-way round, and the next starts past where
  // it stopped. (That the turns are fair is asserted on one page: the slow-receiver test below.)
  const hooks: string[] = [];
  for (let i = 0; i < 130; i++) hooks.push((await w.create({ resource_filter: { workflow_run_id: 'never' } })).body.data.id);
  await w.d.storage.transaction({}, async (tx) =>
    w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: {}, run_id: 'other' }),
  );
  const event = (await w.d.eventLog.get((await w.d.eventLog.lastEventId())!))!;
  const due = new Date().toISOString();
  const made = hooks.flatMap((id) =>
    Array.from({ length: 3 }, () => newDelivery({ id, active: true, organization_id: w.org.id }, event, due)),
  );
  t.ok(made.length > MAX_IN_FLIGHT, `${made.length} deliveries, more than one pass's ${MAX_IN_FLIGHT} slots`);
  await w.d.storage.transaction({}, async (tx) => {
    for (const d of made) await tx.put(w.d.services.webhooks.store.deliveries, d);
  });
  await waitFor(() => new Set(w.receiver.received.map((r) => r.headers['x-service-delivery'])).size >= made.length, {
    what: `${made.length} deliveries`,
  });
  // Distinct deliveries per webhook (a receiver deduplicates on X-Service-Delivery; an attempt that
  // timed out is sent again).
  const perHook = new Map<string, number>();
  for (const d of made)
    perHook.set(d.webhook_id, (perHook.get(d.webhook_id) ?? 0) + Math.min(1, w.receiver.deliveries(d.id).length));
  t.same(
    [...perHook.values()].filter((n) => n !== 3),
    [],
    'each of the 130 webhooks got its 3 deliveries',
  );
});

t.test('a delivery leased by this daemon whose attempt was lost is taken back once its lease ends', async (t) => {
  const w = await world(t);
  const hook = (await w.create({ resource_filter: { workflow_run_id: 'never' } })).body.data;
  // An event the fan-out owes this webhook nothing for, and a delivery of it as a daemon leaves one
  // when its attempt dies without a record: leased to this very sender, the lease over, nothing running.
  await w.d.storage.transaction({}, async (tx) =>
    w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: {}, run_id: 'other' }),
  );
  const eventId = (await w.d.eventLog.lastEventId())!;
  const at = new Date(Date.now() - 60_000).toISOString();
  const event = (await w.d.eventLog.get(eventId))!;
  const lost = {
    ...newDelivery({ id: hook.id, active: true, organization_id: w.org.id }, event, at),
    lease_owner: w.d.services.webhookSender.instanceId,
    lease_until: at,
  };
  await w.d.storage.transaction({}, async (tx) => void (await tx.put(w.d.services.webhooks.store.deliveries, lost)));
  await waitFor(async () => (await w.deliveries(hook.id))[0]?.status === 'delivered', { what: 'the lost attempt sent again' });
  t.equal(w.receiver.deliveries(lost.id).length, 1, 'sent once');
});

t.test('a slow receiver with a deep backlog keeps no other webhook waiting (per-webhook bound, fair fill)', async (t) => {
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '3000' });
  w.receiver.setDefault({ kind: 'hang' });
  await w.create({ resource_filter: { workflow_run_id: 'slow' }, max_retries: 0 });
  const fastReceiver = await WebhookReceiver.start(t);
  const fast = (await w.create({ url: fastReceiver.url, resource_filter: { workflow_run_id: 'fast' } })).body.data;
  // 400 deliveries for the slow webhook, queued ahead of the fast one's (more than any scan window).
  await w.d.storage.transaction({}, async (tx) => {
    for (let i = 0; i < 400; i++)
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i }, run_id: 'slow' });
  });
  await waitFor(() => w.receiver.received.length >= 1, { what: 'the slow receiver to be busy' });
  await w.d.storage.transaction({}, async (tx) =>
    w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: {}, run_id: 'fast' }),
  );
  await waitFor(() => fastReceiver.received.length === 1, { what: "the fast webhook's delivery" });
  // Each slow attempt hangs 3 s, MAX_PER_WEBHOOK at a time: the fast delivery went within
  // the first rounds, not after the slow backlog ahead of it.
  t.ok(
    w.receiver.received.length <= 2 * MAX_PER_WEBHOOK,
    `the slow webhook had ${w.receiver.received.length} of 400 attempts by then`,
  );
  const { pending } = await w.d.services.webhooks.store.backlog(1000);
  t.ok(pending > 300, `most of the slow backlog still waits (${pending})`);
  await waitFor(async () => (await w.deliveries(fast.id))[0]?.status === 'delivered', { what: 'the fast delivery recorded' });
});

t.test('the bounds hold while new events hand deliveries to the sender during its claims', async (t) => {
  const w = await world(t);
  const sender = w.d.services.webhookSender;
  const all = new OpenRequests();
  const receivers: WebhookReceiver[] = [];
  for (let i = 0; i < 5; i++) {
    const receiver = await WebhookReceiver.start(t, all);
    // Each answer takes about 20 ms, so a receiver sees how many attempts it has at once.
    receiver.setDefault({ kind: 'slow-body', status: 200, chunks: ['o', 'k'], gapMs: 10 });
    await w.create({ url: receiver.url });
    receivers.push(receiver);
  }
  // The sender's own count of attempts in flight, read every millisecond.
  let busiest = 0;
  const look = (): void => void (busiest = Math.max(busiest, sender.busy));
  const watch = setInterval(look, 1);
  t.teardown(() => clearInterval(watch));
  // 5 webhooks x MAX_PER_WEBHOOK > MAX_IN_FLIGHT: the global bound is what stops them. 400 events, 50 per
  // transaction as fast as they commit: the fan-out hands new deliveries to free slots while the
  // sender's passes claim the queued ones.
  for (let n = 0; n < 8; n++) {
    await w.d.storage.transaction({}, async (tx) => {
      for (let i = 0; i < 50; i++)
        w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i: n * 50 + i } });
    });
    look();
  }
  await waitFor(
    () => {
      look();
      return receivers.every((r) => r.received.length >= 400);
    },
    { what: '400 deliveries to each webhook' },
  );
  t.ok(
    busiest <= MAX_IN_FLIGHT && all.peak <= MAX_IN_FLIGHT,
    `at most ${MAX_IN_FLIGHT} attempts at once (the sender counted ${busiest}, the receivers ${all.peak})`,
  );
  t.same(
    receivers.map((r) => r.inFlight.peak <= BORROW_CAP),
    receivers.map(() => true),
    `at most ${BORROW_CAP} at once to one webhook (${receivers.map((r) => r.inFlight.peak).join(', ')})`,
  );
});

t.test("a busy webhook's backlog waits in the event log, and holds back no other webhook's event", async (t) => {
  const w = await world(t, { SERVICE_METRICS_ADDR: '127.0.0.1:0' });
  const lag = async () => {
    const text = await (await fetch(`http://${w.d.metricsAddress}/metrics`)).text();
    return Number(/^switchyard_webhook_fanout_lag_events (\S+)$/m.exec(text)?.[1] ?? NaN);
  };
  // Every answer takes about 60 ms: the busy webhook is at its bound and answering all the time, so
  // the fan-out waits for its slots instead of queueing its deliveries due (docs/webhooks.md).
  w.receiver.setDefault({ kind: 'slow-body', status: 200, chunks: ['o', 'k'], gapMs: 60 });
  const busy = (await w.create({ event_filter: ['workflow.node.progress'] })).body.data;
  const otherReceiver = await WebhookReceiver.start(t);
  await w.create({ url: otherReceiver.url, event_filter: ['workflow.run.completed'] });
  const events = 600;
  for (let n = 0; n < events; n += 200)
    await w.d.storage.transaction({}, async (tx) => {
      for (let i = n; i < n + 200; i++)
        w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i } });
    });
  await waitFor(() => w.receiver.received.length >= 2 * MAX_PER_WEBHOOK, { what: 'the busy webhook at work' });
  const store = w.d.services.webhooks.store;
  const due = await store.deliveries.countRange('queue', 'due', { limit: events });
  t.ok(due < events / 2, `the busy webhook's backlog is not queued due (${due} of ${events} deliveries are)`);
  const waiting = await lag();
  t.ok(waiting > 0 && waiting <= events, `it waits in the log, counted by the fan-out lag metric (${waiting} events)`);
  // Another webhook's event, behind the busy one's backlog in the log.
  await w.d.storage.transaction({}, async (tx) =>
    w.d.eventLog.append(tx, { kind: 'workflow.run.completed', organization_id: w.org.id, payload: {} }),
  );
  await waitFor(() => otherReceiver.received.length === 1, { what: "the other webhook's delivery" });
  const sent = w.receiver.received.length;
  t.ok(sent < events - MAX_PER_WEBHOOK, `it went while the busy webhook still had a backlog (${sent} of ${events} sent)`);
  await waitFor(() => new Set(w.receiver.received.map((r) => r.headers['x-service-delivery'])).size === events, {
    what: 'every busy delivery',
  });
  // It answers within QUICK_MS, so it may borrow idle slots past its own bound.
  t.ok(w.receiver.inFlight.peak <= BORROW_CAP, `at most ${BORROW_CAP} at once (${w.receiver.inFlight.peak})`);
  const records = await store.deliveries.countRange('webhook', busy.id, { limit: 2 * events });
  t.equal(records, events, 'one delivery record per event');
  t.equal(await lag(), 0, 'no event left behind the fan-out');
});

t.test(
  'a webhook that answers quickly borrows idle slots past its bound, and never the last MAX_PER_WEBHOOK of them',
  async (t) => {
    const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '30000' });
    const sender = w.d.services.webhookSender;
    let busiest = 0;
    const watch = setInterval(() => void (busiest = Math.max(busiest, sender.busy)), 1);
    t.teardown(() => clearInterval(watch));
    // Answers take about 20 ms: with one webhook and nobody else to serve, it is not held to its bound.
    w.receiver.setDefault({ kind: 'slow-body', status: 200, chunks: ['o', 'k'], gapMs: 20 });
    await w.create({ event_filter: ['workflow.node.progress'] });
    const other = await WebhookReceiver.start(t);
    await w.create({ url: other.url, event_filter: ['workflow.run.completed'] });
    const append = async (count: number, kind: 'workflow.node.progress' | 'workflow.run.completed') =>
      w.d.storage.transaction({}, async (tx) => {
        for (let i = 0; i < count; i++) w.d.eventLog.append(tx, { kind, organization_id: w.org.id, payload: { i } });
      });
    for (let n = 0; n < 4; n++) await append(500, 'workflow.node.progress');
    await waitFor(() => busiest > MAX_PER_WEBHOOK, {
      what: `more than ${MAX_PER_WEBHOOK} attempts at once to the quick webhook`,
    });
    // Then its receiver stops answering: its attempts pile up while its last answer is recent, then stop
    // (no answer for PACE_MS: it borrows no more), and hang on (30 s timeout).
    w.receiver.setDefault({ kind: 'hang' });
    // Its last answers (those on the wire at the switch) age past PACE_MS; passes after that lend it no
    // more, which two rounds of passes show.
    await new Promise((resolve) => setTimeout(resolve, 2 * PACE_MS));
    await passesOf(w.d, 'webhook-fanout', 'webhook-delivery');
    const stuck = sender.busy;
    await passesOf(w.d, 'webhook-fanout', 'webhook-delivery');
    t.equal(sender.busy, stuck, 'passes after its last answer lend it no slot more');
    t.ok(
      stuck > MAX_PER_WEBHOOK && stuck <= BORROW_CAP,
      `the stuck webhook holds ${stuck} slots, more than its bound, at most ${BORROW_CAP}`,
    );
    t.ok(busiest <= BORROW_CAP, `never more than ${BORROW_CAP} at once to it (${busiest})`);
    // The last MAX_PER_WEBHOOK slots were never lent: another webhook's event goes at once.
    await append(1, 'workflow.run.completed');
    await waitFor(() => other.received.length === 1, { what: "the other webhook's delivery, beside the stuck one" });
  },
);

t.test(
  "PostgreSQL: while requests hold every request connection, an event is still fanned out, sent and recorded (the loops' connections)",
  { skip: testPostgres === undefined ? 'PostgreSQL only (LevelDB has no pool)' : false },
  async (t) => {
    const w = await world(t);
    const hook = (await w.create()).body.data;
    // Every request connection (SERVICE_DATABASE_POOL_SIZE 10 less the loops' share), each held by an
    // open transaction, as a burst of writes queued on a lock holds them.
    const held = splitPool(10).foreground;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let open = 0;
    const holders = Array.from({ length: held }, () =>
      w.d.storage.transaction({}, async () => {
        open++;
        await gate;
      }),
    );
    try {
      await waitFor(() => open === held, { what: 'every request connection held' });
      // Committed on the loops' lane (a request's transaction would wait now); the fan-out, the
      // attempt and its record all run there, and their reads outside a transaction borrow its connections.
      await w.d.storage.background.transaction({}, async (tx) =>
        w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: {} }),
      );
      await waitFor(() => w.receiver.received.length === 1, { what: 'the delivery, with the request connections held' });
      const store = w.d.services.webhooks.store;
      await waitFor(async () => (await store.deliveries.listBy('webhook', hook.id as string)).items[0]?.status === 'delivered', {
        what: 'its outcome recorded',
      });
      t.equal(open, held, 'the request connections were held throughout');
    } finally {
      release();
      await Promise.all(holders);
    }
  },
);

t.test('a webhook created while a fan-out step runs receives every event committed after it', async (t) => {
  const w = await world(t);
  const store = w.d.services.webhooks.store;
  // A step pauses once it has read the organization's webhooks (none yet); meanwhile a webhook is
  // created and an event committed. The step must not fan that event out with the webhooks it read
  // before the webhook existed: the event is read in a later step, after the webhook. (Events the step
  // had read before may go to the webhook too, if they are fanned out after it was created.)
  const read = store.liveWebhooks.bind(store);
  let reached!: () => void;
  const atRead = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const resume = new Promise<void>((resolve) => (release = resolve));
  let paused = false;
  store.liveWebhooks = async (organizationId, tx) => {
    const hooks = await read(organizationId, tx);
    if (organizationId === w.org.id && !paused) {
      paused = true;
      reached();
      await resume;
    }
    return hooks;
  };
  t.teardown(() => release());
  const append = (i: number) =>
    w.d.storage.transaction({}, async (tx) =>
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i } }),
    );
  await append(1);
  await atRead;
  const hook = (await w.create()).body.data;
  await append(2);
  release();
  const second = () => w.receiver.received.filter((r) => (JSON.parse(r.body) as { payload: { i?: number } }).payload.i === 2);
  await waitFor(() => second().length > 0, { what: 'the delivery of the event committed after the webhook' });
  await waitFor(async () => (await w.d.services.webhookFanout.lag(10)) === 0, { what: 'every event fanned out' });
  t.equal(second().length, 1, 'it reached the webhook once');
  const records = await store.deliveries.listBy('webhook', hook.id as string, { limit: 10 });
  t.equal(new Set(records.items.map((d) => d.event_id)).size, records.items.length, 'one delivery record per event');
});

t.test('stopping the daemon cuts the attempts on the wire at once, long before their timeout', async (t) => {
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '120000' });
  w.receiver.setDefault({ kind: 'hang' });
  await w.create({ event_filter: ['workflow.node.progress'] });
  await w.d.storage.transaction({}, async (tx) => {
    for (let i = 0; i < 3; i++)
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i } });
  });
  await waitFor(() => w.receiver.inFlight.now === 3, { what: 'three attempts hanging' });
  // The stop waits for its attempts: it returns once they are cut, not after the 120 s timeout.
  const stopped = await Promise.race([
    w.d.stop().then(() => 'stopped'),
    new Promise((resolve) => setTimeout(() => resolve('still waiting'), 30_000).unref()),
  ]);
  t.equal(stopped, 'stopped', 'the daemon stopped');
  await waitFor(() => w.receiver.inFlight.now === 0, { what: 'the receiver to see the connections closed' });
});

t.test('a webhook whose receiver stops answering has its backlog queued due, not kept waiting in the log', async (t) => {
  // No attempt may end while the test looks (one that timed out would fail and free its slot): the
  // timeout is far longer than the test, whose daemon's stop aborts the hanging attempts.
  const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '120000' });
  w.receiver.setDefault({ kind: 'hang' });
  // The organization's creation is fanned out first: a webhook created before that would receive it
  // too (events are matched with the webhooks that exist when they are fanned out), a 301st delivery.
  // Until 2026-11-28 the lag read 0 here on LevelDB while the cursor was '' (storage/leveldb/engine.ts
  // `defined`), and the test sometimes looked before anything was fanned out.
  const fanout = w.d.services.webhookFanout;
  await waitFor(async () => (await fanout.lag(10)) === 0, { what: 'the setup events fanned out' });
  await w.create({ max_retries: 0 });
  const events = 300;
  await w.d.storage.transaction({}, async (tx) => {
    for (let i = 0; i < events; i++)
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i } });
  });
  // Its slots fill and nothing answers: the fan-out stops waiting for them (PACE_MS after the first
  // attempt started) and queues the rest due, long before the first attempts time out.
  await waitFor(async () => (await fanout.lag(events)) === 0, { what: 'every event fanned out' });
  const sent = w.receiver.received.length;
  t.ok(sent <= MAX_PER_WEBHOOK, `before any attempt ended (${sent} sent, all still hanging)`);
  const { pending } = await w.d.services.webhooks.store.backlog(events);
  t.equal(pending, events, 'every delivery recorded, waiting (due or being attempted)');
  const due = await w.d.services.webhooks.store.deliveries.countRange('queue', 'due', { limit: events });
  t.ok(due >= events - MAX_PER_WEBHOOK, `the rest queued due (${due}), where any daemon's sender and the metrics see them`);
});

t.test('resource_filter: every key must match its event field; an exhaustion about an exhaustion emits nothing', async (t) => {
  const w = await world(t);
  const byRun = (await w.create({ resource_filter: { workflow_run_id: 'run-1' } })).body.data;
  const byBoth = (await w.create({ resource_filter: { workflow_definition_id: 'wf-1', job_id: 'job-9' } })).body.data;
  const append = async (fields: Record<string, string>) =>
    w.d.storage.transaction({}, async (tx) =>
      w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: {}, ...fields }),
    );
  // No workflow routes exist yet: the events are appended as the run engine will append them.
  await append({ run_id: 'run-1', workflow_id: 'wf-1' });
  await append({ run_id: 'run-2', workflow_id: 'wf-1', job_id: 'job-9' });
  await append({ workflow_id: 'wf-2', job_id: 'job-9' });
  await waitFor(() => w.receiver.received.length >= 2, { what: 'the matching deliveries' });
  await passesOf(w.d, 'webhook-fanout', 'webhook-delivery');
  t.equal(w.receiver.received.length, 2, 'two deliveries in all');
  t.equal((await w.deliveries(byRun.id)).length, 1, 'run-1 only');
  t.equal((await w.deliveries(byBoth.id)).length, 1, 'wf-1 and job-9 together only');
  const matched = JSON.parse(w.receiver.deliveries((await w.deliveries(byBoth.id))[0].id)[0].body);
  t.equal(matched.run_id, 'run-2');

  // A catch-all webhook that always fails: its delivery of an exhaustion event exhausts too, and
  // that emits no further event (no loop).
  const receiver = await WebhookReceiver.start(t);
  receiver.setDefault({ kind: 'status', status: 500 });
  const all = (await w.create({ url: receiver.url, max_retries: 0 })).body.data;
  const failing = (await w.create({ url: receiver.url, max_retries: 0, event_filter: ['invitation.created'] })).body.data;
  await w.invite();
  const events = async () =>
    (
      await request(w.d.url, 'GET', `/v1/organizations/${w.org.id}/events?kind=webhook.delivery.exhausted&limit=200`, {
        headers: w.owner,
      })
    ).body.data as any[];
  // `failing` and `all` both exhaust on invitation.created (two exhaustion events); `all` receives the
  // one about `failing` (never its own) and exhausts on it too, which emits nothing.
  await waitFor(async () => (await w.deliveries(all.id)).filter((d) => d.status === 'failed').length >= 2, {
    what: "the catch-all's deliveries of the exhaustion events to fail",
  });
  await passesOf(w.d, 'webhook-fanout', 'webhook-delivery');
  const exhausted = await events();
  t.equal(exhausted.length, 2, 'one exhaustion event per exhausted delivery of a non-exhaustion event');
  t.equal((await w.deliveries(all.id)).length, 2, 'the catch-all: the invitation and the other exhaustion');
  t.same(exhausted.map((e) => e.payload.webhook_id).sort(), [all.id, failing.id].sort());
  t.equal(
    (await w.deliveries(all.id)).filter((d) => d.event_kind === 'webhook.delivery.exhausted').length,
    1,
    "the catch-all gets the other webhook's exhaustion, never its own",
  );
});

t.test(
  "one organization's many webhooks at a receiver that never answers do not hold back another organization's delivery",
  async (t) => {
    // Attempts would hang a minute: another organization's delivery can only go through a free slot.
    const w = await world(t, { SERVICE_WEBHOOK_TIMEOUT_MS: '60000', SERVICE_WEBHOOK_MAX_PER_ORG: '200' });
    const open = new OpenRequests();
    const silent = await WebhookReceiver.start(t, open);
    silent.setDefault({ kind: 'hang' });
    const hooks = 120;
    for (let i = 0; i < hooks; i++) await w.create({ url: silent.url, event_filter: ['workflow.node.progress'] });
    // 3 events x 120 webhooks = 360 attempts: more than every slot (MAX_IN_FLIGHT), each within its webhook's bound.
    await w.d.storage.transaction({}, async (tx) => {
      for (let i = 0; i < 3; i++)
        w.d.eventLog.append(tx, { kind: 'workflow.node.progress', organization_id: w.org.id, payload: { i } });
    });
    await waitFor(() => open.now >= MAX_PER_WEBHOOK, { what: 'the silent receiver holding attempts' });
    const other = asPrincipal(randomUUID());
    const otherOrg = await createOrganizationAs(w.d.url, other, `fair-${randomUUID().slice(0, 8)}`);
    const prompt = await WebhookReceiver.start(t);
    const created = await request(w.d.url, 'POST', `/v1/organizations/${otherOrg.id}/webhooks`, {
      headers: other,
      body: { url: prompt.url, event_filter: ['workflow.run.completed'] },
    });
    t.equal(created.status, 201);
    await w.d.storage.transaction({}, async (tx) =>
      w.d.eventLog.append(tx, { kind: 'workflow.run.completed', organization_id: otherOrg.id, payload: {} }),
    );
    await waitFor(() => prompt.received.length === 1, { what: "the other organization's delivery" });
    t.equal(silent.received.length, open.now, 'it arrived while every attempt to the silent receiver still hangs');
    t.ok(open.now < MAX_IN_FLIGHT, `the silent organization holds ${open.now} of ${MAX_IN_FLIGHT} slots`);
  },
);

t.test('an organization may have SERVICE_WEBHOOK_MAX_PER_ORG live webhooks; past it creation is 422', async (t) => {
  const w = await world(t, { SERVICE_WEBHOOK_MAX_PER_ORG: '3' });
  const made = [];
  for (let i = 0; i < 3; i++) made.push((await w.create()).body.data.id as string);
  const refused = await w.create();
  t.equal(refused.status, 422);
  t.equal(refused.body.error.code, 'validation_failed');
  t.match(refused.body.error.details, {
    fields: { webhooks: /has 3 webhooks, the most it may have \(3\)/ },
    limit: 'max_webhooks',
    max: 3,
  });
  // A deleted webhook no longer counts.
  t.equal((await request(w.d.url, 'DELETE', `/v1/webhooks/${made[0]}`, { headers: w.owner })).status, 200);
  t.equal((await w.create()).status, 201);
  // Another organization has its own.
  const other = asPrincipal(randomUUID());
  const otherOrg = await createOrganizationAs(w.d.url, other, `cap-${randomUUID().slice(0, 8)}`);
  const theirs = await request(w.d.url, 'POST', `/v1/organizations/${otherOrg.id}/webhooks`, {
    headers: other,
    body: { url: w.receiver.url },
  });
  t.equal(theirs.status, 201);

  // The organization setting max_webhooks lowers the cap, never past the server maximum.
  const settings = (body: unknown) =>
    request(w.d.url, 'PUT', `/v1/organizations/${otherOrg.id}/settings`, { headers: other, body });
  const tooHigh = await settings({ max_webhooks: 4 });
  t.equal(tooHigh.status, 422, 'max_webhooks past SERVICE_WEBHOOK_MAX_PER_ORG');
  t.match(tooHigh.body.error.details.fields, { max_webhooks: /at most 3 \(SERVICE_WEBHOOK_MAX_PER_ORG\)/ });
  t.equal(
    (await request(w.d.url, 'GET', `/v1/organizations/${otherOrg.id}/settings`, { headers: other })).body.data.max_webhooks,
    3,
  );
  const lowered = await settings({ max_webhooks: 1 });
  t.equal(lowered.status, 200);
  t.equal(lowered.body.data.max_webhooks, 1);
  const second = await request(w.d.url, 'POST', `/v1/organizations/${otherOrg.id}/webhooks`, {
    headers: other,
    body: { url: w.receiver.url },
  });
  t.equal(second.status, 422, 'past the organization setting');
  t.match(second.body.error.details, { limit: 'max_webhooks', max: 1 });
});
