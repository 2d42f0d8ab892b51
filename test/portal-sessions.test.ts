// The tenant portal's access (docs/portal.md): minting a link (admin only, bounded lifetime), the
// single-use exchange for a SameSite=Strict, HttpOnly cookie scoped to /portal, the session's end,
// and the safety of every page: CSP without unsafe-inline, CSRF and Origin checks on every change,
// another organization's ids as 404, read-only sessions that change nothing, tenant text escaped.
// Runs on PostgreSQL too (on-postgres-portal.test.ts).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { createPortalStore } from '../src/domain/portal/store.js';
import { newDelivery } from '../src/domain/webhooks/fanout.js';
import {
  asPrincipal,
  cliCleanEnv,
  createOrganizationAs,
  passesOf,
  request,
  spawnSwitchyard,
  startTestDaemon,
  untilStatus,
  waitFor,
} from './helpers.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';

interface Browser {
  cookie: string;
  csrf: string;
  get: (path: string) => Promise<{ status: number; headers: Headers; text: string }>;
  post: (
    path: string,
    fields: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; headers: Headers; text: string }>;
}

async function world(t: Test, env: Record<string, string> = {}) {
  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', ...env });
  const ownerId = randomUUID();
  const owner = asPrincipal(ownerId);
  const org = await createOrganizationAs(d.url, owner, `portal-${randomUUID().slice(0, 8)}`);
  const mint = (body: Record<string, unknown> = {}, headers = owner, orgId = org.id) =>
    request(d.url, 'POST', `/v1/organizations/${orgId}/portal-sessions`, { headers, body });
  /** A browser that opened a link: its cookie, and the CSRF token its pages carry. */
  const open = async (body: Record<string, unknown> = {}): Promise<Browser> => {
    const minted = await mint(body);
    t.equal(minted.status, 201, 'minted');
    const entered = await fetch(minted.body.data.url, { redirect: 'manual' });
    t.equal(entered.status, 303);
    const cookie = (entered.headers.get('set-cookie') ?? '').split(';')[0];
    const get = async (path: string) => {
      const res = await fetch(d.url + path, { headers: { cookie }, redirect: 'manual' });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    const page = await get('/portal/webhooks');
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const post = async (path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) => {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
      const res = await fetch(d.url + path, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: d.url, ...headers },
        body: form.toString(),
        redirect: 'manual',
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    return { cookie, csrf, get, post };
  };
  const createWebhook = async (description = 'hook', orgId = org.id, headers = owner) => {
    const res = await request(d.url, 'POST', `/v1/organizations/${orgId}/webhooks`, {
      headers,
      body: { url: 'http://127.0.0.1:9/hook', description },
    });
    t.equal(res.status, 201, 'webhook created');
    return res.body.data as { id: string };
  };
  /** A run of a one-`wait`-node workflow, waiting for input (so its event stream stays open). */
  const waitingRun = async (orgId = org.id, headers = owner) => {
    const name = `wait-${randomUUID().slice(0, 8)}`;
    const workflow = await request(d.url, 'POST', '/v1/workflows', {
      headers,
      body: { organization_id: orgId, name, nodes: [{ key: 'review', kind: 'wait' }] },
    });
    t.equal(workflow.status, 201, 'workflow registered');
    const run = await request(d.url, 'POST', `/v1/workflows/run?name=${name}`, {
      headers,
      body: { organization_id: orgId, input: {} },
    });
    t.equal(run.status, 202, 'run submitted');
    await untilStatus(d.url, `/v1/workflows/runs/${run.body.data.id}?organization_id=${orgId}`, headers, 'waiting');
    return run.body.data as { id: string };
  };
  /** A completed job, and (when `hook` listens for job.completed) the delivery its event made. */
  const completedJob = async (orgId = org.id, headers = owner) => {
    const job = await request(d.url, 'POST', '/v1/jobs', {
      headers,
      body: { organization_id: orgId, modality: 'text', model: 'echo', input: { prompt: 'hello' } },
    });
    t.equal(job.status, 202, 'job submitted');
    await untilStatus(d.url, `/v1/jobs/${job.body.data.id}?organization_id=${orgId}`, headers, 'completed');
    return job.body.data as { id: string };
  };
  const deliveryOf = async (hookId: string, headers = owner) => {
    let id: string | undefined;
    await waitFor(
      async () => {
        id = (await request(d.url, 'GET', `/v1/webhooks/${hookId}/deliveries`, { headers })).body.data?.[0]?.id;
        return id !== undefined;
      },
      { what: 'a delivery' },
    );
    return id!;
  };
  return { d, owner, ownerId, org, mint, open, createWebhook, waitingRun, completedJob, deliveryOf };
}

/** A form POST with the Host header the test says (fetch sends the URL's own). */
function postWithHost(url: string, host: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        host,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

t.test('an admin mints a link: a url under the public URL, one hour by default, read only by default', async (t) => {
  const { d, mint, org, owner, ownerId } = await world(t);
  const before = Date.now();
  const res = await mint();
  t.equal(res.status, 201);
  const s = res.body.data;
  t.match(s.url, new RegExp(`^${d.url}/portal/enter\\?token=psl_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$`));
  t.same(s.capabilities, ['read']);
  t.equal(s.organization_id, org.id);
  const ttl = Date.parse(s.expires_at) - before;
  t.ok(ttl > 3590_000 && ttl <= 3601_000, `expires in an hour (${ttl} ms)`);

  const both = await mint({ ttl_seconds: 86_400, capabilities: ['manage_webhooks'] });
  t.equal(both.status, 201);
  t.same(both.body.data.capabilities, ['read', 'manage_webhooks'], 'read is always included');

  for (const body of [
    { ttl_seconds: 86_401 },
    { ttl_seconds: 0 },
    { ttl_seconds: 1.5 },
    { capabilities: ['admin'] },
    { extra: 1 },
  ]) {
    const bad = await mint(body);
    t.equal(bad.status, 422, `422 for ${JSON.stringify(body)}`);
    t.equal(bad.body.error.code, 'validation_failed');
  }

  // A viewer may not mint; another organization's owner does not see this one.
  const viewerId = randomUUID();
  t.equal(
    (
      await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
        headers: owner,
        body: { principal_id: viewerId, role: 'viewer' },
      })
    ).status,
    201,
  );
  t.equal((await mint({}, asPrincipal(viewerId))).status, 403, 'a viewer is refused');
  const stranger = asPrincipal(randomUUID());
  await createOrganizationAs(d.url, stranger, `other-${randomUUID().slice(0, 8)}`);
  t.equal((await mint({}, stranger)).status, 404, "another organization's owner gets 404");

  // The mint is audited, the token never shown there.
  const audit = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log?action=portal_session.create`, {
    headers: owner,
  });
  t.equal(audit.status, 200);
  t.ok(audit.body.data.length >= 2, 'audited');
  t.notMatch(JSON.stringify(audit.body.data), /psl_/, 'no token in the audit log');

  // Each mint is a portal.session.created event of the organization, refusals are none.
  const events = await request(d.url, 'GET', `/v1/organizations/${org.id}/events?kind=portal.session.created`, {
    headers: owner,
  });
  t.equal(events.status, 200);
  t.same(
    events.body.data.map((e: { payload: unknown }) => e.payload),
    [
      { portal_session_id: s.id, principal_id: ownerId, capabilities: ['read'], expires_at: s.expires_at },
      {
        portal_session_id: both.body.data.id,
        principal_id: ownerId,
        capabilities: ['read', 'manage_webhooks'],
        expires_at: both.body.data.expires_at,
      },
    ],
    'one event per mint, in order, with who minted it and what it may do',
  );
  t.notMatch(JSON.stringify(events.body.data), /psl_/, 'no token in the event');
});

t.test('the link works once, for a cookie scoped to /portal; the session ends at expires_at', async (t) => {
  const { d, mint } = await world(t);
  const minted = (await mint({ ttl_seconds: 2 })).body.data;
  const first = await fetch(minted.url, { redirect: 'manual' });
  t.equal(first.status, 303);
  t.equal(first.headers.get('location'), '/portal/welcome', 'the token leaves the address bar');
  t.equal(first.headers.get('referrer-policy'), 'no-referrer');
  const cookie = first.headers.get('set-cookie') ?? '';
  t.match(cookie, /^sy_portal=[0-9a-f]{32}\.[A-Za-z0-9_-]{43}; /);
  for (const attr of ['HttpOnly', 'SameSite=Strict', 'Path=/portal']) t.match(cookie, attr, attr);
  t.notMatch(cookie, /Secure/, 'not Secure over plain HTTP in development');

  const second = await fetch(minted.url, { redirect: 'manual' });
  t.equal(second.status, 410, 'a link used twice is refused');
  t.match(await second.text(), /used already/);
  t.equal((await fetch(`${d.url}/portal/enter?token=psl_0000`, { redirect: 'manual' })).status, 401, 'a made-up token');

  const value = cookie.split(';')[0];
  const page = await fetch(`${d.url}/portal/webhooks`, { headers: { cookie: value } });
  t.equal(page.status, 200, 'the cookie opens the pages');
  t.equal((await fetch(`${d.url}/portal/webhooks`)).status, 401, 'no cookie: 401');
  const forged = value.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  t.equal((await fetch(`${d.url}/portal/webhooks`, { headers: { cookie: forged } })).status, 401, 'a forged cookie: 401');

  await waitFor(() => Date.now() > Date.parse(minted.expires_at), { what: 'the session to end' });
  const ended = await fetch(`${d.url}/portal/webhooks`, { headers: { cookie: value } });
  t.equal(ended.status, 401, 'an ended session is refused');
  t.match(await ended.text(), /has ended/);

  // A link not used before its end is refused too.
  const late = (await mint({ ttl_seconds: 1 })).body.data;
  await waitFor(() => Date.now() > Date.parse(late.expires_at), { what: 'the link to expire' });
  t.equal((await fetch(late.url, { redirect: 'manual' })).status, 410, 'an expired link is refused');
});

t.test('an ended session is refused everywhere: pages, changes and a live run stream', async (t) => {
  const { d, owner, mint, createWebhook, waitingRun } = await world(t);
  const hook = await createWebhook();
  const run = await waitingRun();
  const minted = (await mint({ ttl_seconds: 4, capabilities: ['manage_webhooks'] })).body.data;
  const entered = await fetch(minted.url, { redirect: 'manual' });
  t.equal(entered.status, 303);
  const cookie = (entered.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await fetch(`${d.url}/portal/webhooks`, { headers: { cookie } });
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(await page.text())?.[1] ?? '';

  // The run waits for input, so its stream stays open until something ends it: here, the session.
  const stream = await fetch(`${d.url}/portal/runs/${run.id}/events`, { headers: { cookie } });
  t.equal(stream.status, 200, 'the live stream opens while the session lasts');
  let text = '';
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of stream.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    ended = true;
  })();
  await waitFor(() => text.includes('event: workflow.run.created'), { what: 'the run history on the stream' });
  t.notOk(ended, 'the stream stays open while the session lasts');
  await waitFor(() => ended, { what: 'the stream to end with the session' });
  await reading;
  t.ok(Date.now() >= Date.parse(minted.expires_at), 'it ended once the session did, not before');
  t.notMatch(text, /workflow\.run\.completed/, 'the run itself had not ended');

  const again = await fetch(`${d.url}/portal/runs/${run.id}/events`, { headers: { cookie } });
  t.equal(again.status, 401, 'the stream cannot be opened again');
  await again.text();
  const post = await fetch(`${d.url}/portal/webhooks/${hook.id}/pause`, {
    method: 'POST',
    headers: { cookie, origin: d.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf }).toString(),
    redirect: 'manual',
  });
  t.equal(post.status, 401, 'a change is refused');
  t.match(await post.text(), /has ended/);
  const hookNow = await request(d.url, 'GET', `/v1/webhooks/${hook.id}`, { headers: owner });
  t.equal(hookNow.body.data.active, true, 'and nothing changed');
});

t.test('the sweep removes sessions and links that ended SERVICE_PORTAL_KEEP_ENDED_MS ago; live ones stay', async (t) => {
  const { d, mint } = await world(t, { SERVICE_PORTAL_KEEP_ENDED_MS: '1' });
  const enter = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    t.equal(res.status, 303, 'the link opens a session');
    return (res.headers.get('set-cookie') ?? '').split(';')[0];
  };
  const pageWith = async (cookie: string) => {
    const res = await fetch(`${d.url}/portal/webhooks`, { headers: { cookie } });
    return { status: res.status, text: await res.text() };
  };
  // One session used before it ends; then more ended ones than one sweep batch (100), unused links,
  // so that a pass takes several batches.
  const usedThenEnded = (await mint({ ttl_seconds: 2 })).body.data;
  const endedCookie = await enter(usedThenEnded.url);
  const unused = await Promise.all(Array.from({ length: 102 }, () => mint({ ttl_seconds: 1 }).then((r) => r.body.data)));
  const ended = [usedThenEnded, ...unused];
  const endedLink = unused[0];
  const live = (await mint()).body.data;
  const liveCookie = await enter(live.url);
  const liveLink = (await mint()).body.data;
  const lastEnd = Math.max(...ended.map((s: { expires_at: string }) => Date.parse(s.expires_at)));
  await waitFor(() => Date.now() > lastEnd + 5, { what: 'the short sessions to end' });

  const store = createPortalStore(d.storage);
  t.ok(await store.get(ended[0].id), 'an ended session is kept until the sweep');
  const before = await pageWith(endedCookie);
  t.equal(before.status, 401, 'an ended session is refused');
  t.match(before.text, /has ended/, 'and says it ended while its record is kept');

  await passesOf(d, 'portal-session-sweep');
  const left = await Promise.all(ended.map((s: { id: string }) => store.get(s.id)));
  t.equal(left.filter((r) => r !== undefined).length, 0, 'every ended session and link is gone after one pass');
  t.ok(await store.get(live.id), 'a live session is kept');
  t.ok(await store.get(liveLink.id), 'a live unused link is kept');

  const after = await pageWith(endedCookie);
  t.equal(after.status, 401, 'the removed session is still refused');
  t.match(after.text, /not signed in/);
  t.equal((await fetch(endedLink.url, { redirect: 'manual' })).status, 401, 'the removed link is refused');
  t.equal((await pageWith(liveCookie)).status, 200, 'the live session still opens the pages');
  await enter(liveLink.url);
});

t.test("the status filter finds a webhook's failed deliveries, newest first, and only them", async (t) => {
  const { d, owner, org, open, completedJob } = await world(t);
  // The receiver fails every other request it gets; no retries, so each failure ends failed.
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.statusCode = received % 2 === 1 ? 500 : 200;
      res.end(received % 2 === 1 ? 'down' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const hook = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
    headers: owner,
    body: {
      url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`,
      event_filter: ['job.completed'],
      max_retries: 0,
    },
  });
  t.equal(hook.status, 201, 'webhook created');
  const hookId = hook.body.data.id as string;
  for (let i = 0; i < 4; i++) await completedJob();
  let all: { id: string; status: string; created_at: string }[] = [];
  await waitFor(
    async () => {
      all = (await request(d.url, 'GET', `/v1/webhooks/${hookId}/deliveries`, { headers: owner })).body.data;
      return all.length === 4 && all.every((x) => x.status !== 'pending');
    },
    { what: 'four deliveries to end' },
  );
  const failedIds = all
    .filter((x) => x.status === 'failed')
    // Newest first as the index orders them: by created_at, then id.
    .sort((a, b) => (b.created_at + b.id).localeCompare(a.created_at + a.id))
    .map((x) => x.id);
  t.equal(failedIds.length, 2, 'two of them failed');
  const b = await open();
  const shownIds = (text: string) => [...text.matchAll(/Delivery <code>([^<]+)<\/code>/g)].map((m) => m[1]);
  const failedPage = await b.get(`/portal/deliveries?webhook=${hookId}&status=failed`);
  t.equal(failedPage.status, 200);
  t.same(shownIds(failedPage.text), failedIds, 'the failed ones, newest first, and no other');
  const deliveredPage = await b.get(`/portal/deliveries?webhook=${hookId}&status=delivered`);
  t.equal(shownIds(deliveredPage.text).length, 2, 'the delivered filter shows the other two');
  t.notOk(
    shownIds(deliveredPage.text).some((id) => failedIds.includes(id)),
    'and none of the failed ones',
  );
  const future = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
  const none = await b.get(`/portal/deliveries?webhook=${hookId}&status=failed&since=${future}`);
  t.same(shownIds(none.text), [], 'a window after them finds none');
});

t.test("the deliveries page lists every webhook's, pages back, and finds one older than the newest 1,000", async (t) => {
  const { d, owner, org, open } = await world(t);
  // Webhooks for a kind nothing here emits: every delivery they have is one this test wrote.
  const createWebhook = async (description: string) => {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
      headers: owner,
      body: { url: 'http://127.0.0.1:9/hook', description, event_filter: ['workflow.schedule.skipped'] },
    });
    t.equal(res.status, 201, 'webhook created');
    return res.body.data as { id: string };
  };
  const busy = await createWebhook('busy hook');
  const quiet = await createWebhook('quiet hook');
  const event = { id: 'evt_portal_page', kind: 'job.completed' as const, organization_id: org.id };
  const ended = (webhookId: string, status: 'delivered' | 'failed') => ({
    ...newDelivery({ id: webhookId, active: true, organization_id: org.id }, event, new Date().toISOString()),
    status,
    attempt: 1,
    next_attempt_at: null,
  });
  // One failed delivery of the quiet webhook, then 1,050 delivered ones of the busy webhook after it.
  const old = ended(quiet.id, 'failed');
  const store = d.services.webhooks.store;
  await d.storage.transaction({}, async (tx) => void (await tx.put(store.deliveries, old)));
  await waitFor(() => Date.now() > Date.parse(old.created_at) + 2, { what: 'a millisecond past the old delivery' });
  const mark = new Date().toISOString();
  await waitFor(() => Date.now() > Date.parse(mark) + 2, { what: 'a millisecond past the mark' });
  const newer = Array.from({ length: 1050 }, () => ended(busy.id, 'delivered'));
  await d.storage.transaction({}, async (tx) => {
    for (const x of newer) await tx.put(store.deliveries, x);
  });
  const newestFirst = newer.map((x) => x.id).reverse();

  const b = await open({ capabilities: ['manage_webhooks'] });
  const shownIds = (text: string) => [...text.matchAll(/Delivery <code>([^<]+)<\/code>/g)].map((m) => m[1]);
  const first = await b.get('/portal/deliveries');
  t.equal(first.status, 200);
  t.same(shownIds(first.text), newestFirst.slice(0, 50), 'no webhook chosen: the newest 50 of the organization');
  t.match(first.text, /to busy hook/, 'each delivery names its webhook');
  const next = /<a href="([^"]+)" rel="next">Older deliveries<\/a>/.exec(first.text)?.[1].replaceAll('&amp;', '&');
  t.ok(next, 'a link to older deliveries');
  const second = await b.get(next!);
  t.same(shownIds(second.text), newestFirst.slice(50, 100), 'the link shows the next 50');

  const before = await b.get(`/portal/deliveries?until=${encodeURIComponent(mark)}`);
  t.same(shownIds(before.text), [old.id], 'a window before the newest 1,050 finds the old one');
  t.match(before.text, /to quiet hook/);
  t.notOk(/rel="next"/.test(before.text), 'and nothing older');
  t.same(shownIds((await b.get('/portal/deliveries?status=failed')).text), [old.id], 'by status, across webhooks');
  t.same(shownIds((await b.get(`/portal/deliveries?webhook=${quiet.id}&status=delivered`)).text), [], 'by webhook and status');
  const busyOnly = await b.get(`/portal/deliveries?webhook=${busy.id}&since=${encodeURIComponent(mark)}`);
  t.same(shownIds(busyOnly.text), newestFirst.slice(0, 50), 'by webhook and time');
  t.match(busyOnly.text, /Recover a window/, 'a chosen webhook offers recovery');
});

t.test('pages carry a strict CSP; static files are served', async (t) => {
  const { d, open } = await world(t);
  const b = await open();
  const page = await b.get('/portal/webhooks');
  const csp = page.headers.get('content-security-policy') ?? '';
  t.match(csp, "script-src 'self'");
  t.match(csp, "style-src 'self'");
  t.match(csp, "frame-ancestors 'none'");
  t.notMatch(csp, 'unsafe-inline');
  t.notMatch(page.text, /<script>|<style|\sstyle=|\son[a-z]+="/, 'no inline script, style or handler');
  t.equal(page.headers.get('x-frame-options'), 'DENY');
  for (const file of ['portal.js', 'portal.css', 'uplot.js', 'uplot.css']) {
    const res = await fetch(`${d.url}/portal/static/${file}`);
    t.equal(res.status, 200, file);
    await res.arrayBuffer();
  }
  t.equal((await fetch(`${d.url}/portal/static/..%2fpackage.json`)).status, 404);
  const catalog = await b.get('/portal/events');
  t.equal(catalog.status, 200, 'the event catalog page');
  t.match(catalog.text, /id="job\.completed"/);
  const openapi = await request(d.url, 'GET', '/openapi.json');
  t.notOk(
    Object.keys(openapi.body.paths).some((p) => p.startsWith('/portal')),
    'HTML pages are not in the API document',
  );
  t.ok(openapi.body.paths['/v1/organizations/{id}/portal-sessions'], 'the mint route is');
});

t.test('changes need the CSRF token and the portal Origin; read-only sessions change nothing', async (t) => {
  const { d, open, createWebhook } = await world(t);
  const hook = await createWebhook();
  const manager = await open({ capabilities: ['manage_webhooks'] });
  t.ok(manager.csrf.length > 20, 'pages carry a CSRF token');

  const missing = await manager.post(`/portal/webhooks/${hook.id}/pause`, {});
  t.equal(missing.status, 403, 'no token: 403');
  const wrong = await manager.post(`/portal/webhooks/${hook.id}/pause`, { _csrf: manager.csrf.replace(/.$/, 'x') });
  t.equal(wrong.status, 403, 'a wrong token: 403');
  const elsewhere = await manager.post(
    `/portal/webhooks/${hook.id}/pause`,
    { _csrf: manager.csrf },
    { origin: 'https://evil.example' },
  );
  t.equal(elsewhere.status, 403, 'another Origin: 403');
  // The Host is the client's to say: an Origin that only matches it is not the daemon's.
  const claimed = await postWithHost(
    `${d.url}/portal/webhooks/${hook.id}/pause`,
    'evil.example',
    { cookie: manager.cookie, origin: 'http://evil.example' },
    new URLSearchParams({ _csrf: manager.csrf }).toString(),
  );
  t.equal(claimed, 403, 'an Origin matching only the Host the request names: 403');
  const other = await open({ capabilities: ['manage_webhooks'] });
  t.equal(
    (await manager.post(`/portal/webhooks/${hook.id}/pause`, { _csrf: other.csrf })).status,
    403,
    "another session's token: 403",
  );
  t.equal((await request(d.url, 'GET', `/v1/webhooks/${hook.id}`, { headers: asPrincipal(randomUUID()) })).status, 404);

  const paused = await manager.post(`/portal/webhooks/${hook.id}/pause`, { _csrf: manager.csrf });
  t.equal(paused.status, 303, 'with the token: done');
  t.match((await manager.get(`/portal/webhooks/${hook.id}`)).text, /badge-paused/);

  const rotated = await manager.post(`/portal/webhooks/${hook.id}/rotate`, { _csrf: manager.csrf });
  t.equal(rotated.status, 200);
  t.match(rotated.text, /value="whsec_[A-Za-z0-9+/=]{40,}"/, 'the new secret, shown once');

  const created = await manager.post('/portal/webhooks', {
    _csrf: manager.csrf,
    url: 'http://127.0.0.1:9/new',
    description: 'from the portal',
    event_filter: ['job.completed', 'job.failed'],
  });
  t.equal(created.status, 200);
  t.match(created.text, /whsec_/);
  const invalid = await manager.post('/portal/webhooks', { _csrf: manager.csrf, url: '', event_filter: 'no.such.kind' });
  t.equal(invalid.status, 422, 'a bad form: 422 with the reasons');
  t.match(invalid.text, /event_filter/);

  const reader = await open();
  const delivery = `dlv_${'0'.repeat(26)}`;
  for (const [path, fields] of [
    [`/portal/webhooks/${hook.id}/pause`, {}],
    [`/portal/webhooks/${hook.id}/resume`, {}],
    [`/portal/webhooks/${hook.id}/rotate`, {}],
    [`/portal/webhooks/${hook.id}`, { description: 'changed' }],
    ['/portal/webhooks', { url: 'http://127.0.0.1:9/x' }],
    [`/portal/webhooks/${hook.id}/deliveries/${delivery}/replay`, {}],
    [`/portal/webhooks/${hook.id}/recover`, { since: '2026-01-01T00:00' }],
  ] as const) {
    const res = await reader.post(path, { _csrf: reader.csrf, ...fields });
    t.equal(res.status, 403, `a read-only session cannot POST ${path}`);
  }
  const page = await reader.get(`/portal/webhooks/${hook.id}`);
  t.notMatch(page.text, /Rotate secret|<form method="post"/, 'and is offered no form that changes anything');
  t.match(page.text, /badge-paused/, 'still paused');
});

t.test("another organization's ids are 404; tenant text is escaped", async (t) => {
  const { d, open, createWebhook, waitingRun, completedJob, deliveryOf } = await world(t);
  const strangerHeaders = asPrincipal(randomUUID());
  const strangerOrg = await createOrganizationAs(d.url, strangerHeaders, `stranger-${randomUUID().slice(0, 8)}`);
  const theirs = await createWebhook('theirs', strangerOrg.id, strangerHeaders);
  const theirRun = await waitingRun(strangerOrg.id, strangerHeaders);
  const theirJob = await completedJob(strangerOrg.id, strangerHeaders);
  const theirDelivery = await deliveryOf(theirs.id, strangerHeaders);
  const b = await open({ capabilities: ['manage_webhooks'] });
  t.equal((await b.get(`/portal/webhooks/${theirs.id}`)).status, 404, "another organization's webhook: 404");
  t.equal((await b.get(`/portal/webhooks/${randomUUID()}`)).status, 404, 'no such webhook: the same 404');
  t.equal((await b.get('/portal/webhooks/not-an-id')).status, 404);
  t.equal((await b.post(`/portal/webhooks/${theirs.id}/pause`, { _csrf: b.csrf })).status, 404, 'and cannot be changed');
  t.equal((await b.get(`/portal/deliveries?webhook=${theirs.id}`)).status, 404, 'nor its deliveries read');
  t.equal(
    (await b.post(`/portal/webhooks/${theirs.id}/deliveries/${theirDelivery}/replay`, { _csrf: b.csrf })).status,
    404,
    "another organization's delivery: 404",
  );
  const mine = await createWebhook('mine');
  t.equal(
    (await b.post(`/portal/webhooks/${mine.id}/deliveries/${theirDelivery}/replay`, { _csrf: b.csrf })).status,
    404,
    "another organization's delivery under one of ours: 404",
  );
  t.equal(
    (await b.post(`/portal/webhooks/${theirs.id}/recover`, { _csrf: b.csrf, since: '2026-01-01T00:00' })).status,
    404,
    "another organization's webhook cannot be recovered",
  );
  t.equal((await b.get(`/portal/runs/${theirRun.id}`)).status, 404, "another organization's run: 404");
  t.equal((await b.get(`/portal/runs/${theirRun.id}/events`)).status, 404, 'nor its event stream');
  t.equal((await b.get(`/portal/runs/${randomUUID()}`)).status, 404);
  const runs = await b.get('/portal/runs');
  t.equal(runs.status, 200);
  t.notOk(runs.text.includes(theirRun.id), "another organization's run is not listed");
  t.notOk(runs.text.includes(theirJob.id.slice(0, 8)), "another organization's job is not listed");

  const evil = '<script>alert("x")</script><img src=x onerror=alert(1)>';
  const escaped = await createWebhook(evil);
  for (const path of ['/portal/webhooks', `/portal/webhooks/${escaped.id}`, `/portal/deliveries?webhook=${escaped.id}`]) {
    const page = await b.get(path);
    t.equal(page.status, 200, path);
    t.notOk(page.text.includes('<script>alert'), `${path}: no raw script`);
    t.notOk(page.text.includes('<img src=x'), `${path}: no raw markup`);
    t.ok(page.text.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), `${path}: shown as text`);
  }
});

t.test('switchyard portal link mints over gRPC', async (t) => {
  const { d, org } = await world(t);
  const run = spawnSwitchyard(
    t,
    [
      '--socket',
      d.grpc.socketPath,
      'portal',
      'link',
      '--org',
      org.slug,
      '--ttl',
      '2h',
      '--capability',
      'manage_webhooks',
      '--json',
    ],
    cliCleanEnv,
  );
  t.equal(await run.exited, 0, run.stderr());
  const s = JSON.parse(run.stdout());
  t.match(s.url, `${d.url}/portal/enter?token=psl_`);
  t.same(s.capabilities, ['read', 'manage_webhooks']);
  const ttl = Date.parse(s.expires_at) - Date.now();
  t.ok(ttl > 7100_000 && ttl <= 7200_000, 'two hours');
  t.equal((await fetch(s.url, { redirect: 'manual' })).status, 303, 'the link works');

  const bad = spawnSwitchyard(
    t,
    ['--socket', d.grpc.socketPath, 'portal', 'link', '--org', org.slug, '--ttl', '2d', '--json'],
    cliCleanEnv,
  );
  t.equal(await bad.exited, 1, 'more than 24 hours is refused');
  t.match(bad.stderr(), /validation_failed/);
});

t.test('"Send a test event": one signed delivery to that webhook alone, shown on the deliveries page', async (t) => {
  const { d, open, owner, org } = await world(t);
  const receiver = await WebhookReceiver.start(t);
  const bystander = await WebhookReceiver.start(t);
  const hookAt = async (url: string) => {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
      headers: owner,
      // A filter that leaves the test kind out: the test event is sent whatever the filters.
      body: { url, event_filter: ['job.completed'] },
    });
    t.equal(res.status, 201);
    return res.body.data as { id: string; secret: string; standard_secret: string };
  };
  const hook = await hookAt(receiver.url);
  const other = await hookAt(bystander.url);
  const manager = await open({ capabilities: ['manage_webhooks'] });

  const detail = await manager.get(`/portal/webhooks/${hook.id}`);
  t.match(detail.text, new RegExp(`action="/portal/webhooks/${hook.id}/test"`), 'a manage session is offered the button');
  t.equal((await manager.post(`/portal/webhooks/${hook.id}/test`, {})).status, 403, 'without the CSRF token: 403');
  const sent = await manager.post(`/portal/webhooks/${hook.id}/test`, { _csrf: manager.csrf });
  t.equal(sent.status, 303);
  const location = sent.headers.get('location') ?? '';
  t.match(location, new RegExp(`^/portal/deliveries\\?webhook=${hook.id}&tested=evt_[0-9A-Za-z]+$`));
  const eventId = /tested=(evt_[0-9A-Za-z]+)/.exec(location)![1];

  await waitFor(() => receiver.received.length > 0, { what: 'the test delivery' });
  const got = receiver.received[0];
  const body = JSON.parse(got.body);
  t.equal(body.id, eventId);
  t.equal(body.kind, 'webhook.test');
  t.equal(body.payload.webhook_id, hook.id);
  t.ok(
    new StandardWebhook(hook.standard_secret).verify(got.body, got.headers as Record<string, string>),
    'signed as any delivery',
  );

  const shown = await manager.get(location);
  t.equal(shown.status, 200);
  t.match(shown.text, new RegExp(`Test event <code>${eventId}</code> sent`));
  await waitFor(async () => (await manager.get(location)).text.includes('data-status="delivered"'), {
    what: 'the delivered test delivery on the page',
  });
  t.match((await manager.get(location)).text, /<code>webhook\.test<\/code>/);

  // The same call over /v1 (admin): 202 with the event; a paused or another organization's webhook is refused.
  const v1 = await request(d.url, 'POST', `/v1/webhooks/${hook.id}/test`, { headers: owner });
  t.equal(v1.status, 202);
  t.same(Object.keys(v1.body.data).sort(), ['event_id', 'webhook_id']);
  t.equal(v1.body.data.webhook_id, hook.id);
  await waitFor(() => receiver.received.some((r) => JSON.parse(r.body).id === v1.body.data.event_id), {
    what: 'the /v1 test delivery',
  });
  t.equal((await request(d.url, 'POST', `/v1/webhooks/${randomUUID()}/test`, { headers: owner })).status, 404);
  const stranger = asPrincipal(randomUUID());
  await createOrganizationAs(d.url, stranger, `other-${randomUUID().slice(0, 8)}`);
  t.equal(
    (await request(d.url, 'POST', `/v1/webhooks/${hook.id}/test`, { headers: stranger })).status,
    404,
    "another org's: 404",
  );
  t.equal((await manager.post(`/portal/webhooks/${hook.id}/pause`, { _csrf: manager.csrf })).status, 303);
  const paused = await request(d.url, 'POST', `/v1/webhooks/${hook.id}/test`, { headers: owner });
  t.equal(paused.status, 409, 'a paused webhook is refused');
  t.equal(paused.body.error.code, 'invalid_state');
  t.notMatch((await manager.get(`/portal/webhooks/${hook.id}`)).text, /Send a test event/, 'nor offered while paused');

  const reader = await open();
  t.equal((await reader.post(`/portal/webhooks/${hook.id}/test`, { _csrf: reader.csrf })).status, 403, 'read-only: 403');
  // Both test events were fanned out (their deliveries exist): the other webhook got no delivery of them.
  const others = await request(d.url, 'GET', `/v1/webhooks/${other.id}/deliveries`, { headers: owner });
  t.same(others.body.data, [], "the organization's other webhook has no delivery of them");
  t.equal(bystander.received.length, 0, 'and its receiver got nothing');
});
