// The tenant portal in a real browser: Debian's Chromium driven by playwright-core (installed by
// .ci/run; skipped, saying so, without it). A minted link opens the portal; a failed delivery is
// replayed and the local receiver gets it; a secret is rotated; a running run turns completed live;
// a used link, an ended session and another organization's webhook are refused; tenant text that
// holds <script> is shown as text and never runs; pages fit 320 px and work from the keyboard.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import t from 'tap';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import {
  asPrincipal,
  createOrganizationAs,
  PATIENCE_MS,
  privateDir,
  repoRoot,
  request,
  startTestDaemon,
  untilStatus,
  waitFor,
} from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
// The screenshots go to a temp dir unless asked for (docs/portal.md says how to refresh docs/portal/).
const shots = process.env.SWITCHYARD_PORTAL_SCREENSHOTS === '1' ? path.join(repoRoot, 'docs', 'portal') : privateDir();

if (!existsSync(CHROMIUM)) {
  t.plan(0, `skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`);
} else {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  t.teardown(() => browser.close());

  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', SERVICE_WEBHOOK_RETRY_BASE_MS: '50' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `browser-${randomUUID().slice(0, 8)}`);
  const receiver = await WebhookReceiver.start(t);
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await request(d.url, method, p, { headers: owner, body });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const mint = async (body: Record<string, unknown> = {}) =>
    (await api('POST', `/v1/organizations/${org.id}/portal-sessions`, body)).url as string;
  /** A fresh browser context (its own cookies), 1000 px wide unless told. */
  const newPage = async (width = 1000): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    page.setDefaultTimeout(PATIENCE_MS);
    // A script that tenant text smuggled in would show a dialog: none may.
    page.on('dialog', (dialog) => {
      t.fail(`a dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
    return page;
  };

  // The receiver fails the first attempt with an answer that holds markup; no retries, so it ends failed.
  receiver.enqueue({ kind: 'status', status: 500, body: '<script>alert("answer")</script> upstream down' });
  const evil = '<script>alert("description")</script>';
  const hook = await api('POST', `/v1/organizations/${org.id}/webhooks`, {
    url: receiver.url,
    description: evil,
    event_filter: ['job.completed'],
    max_retries: 0,
  });
  const job = await api('POST', '/v1/jobs', {
    organization_id: org.id,
    modality: 'text',
    model: 'echo',
    input: { prompt: 'hello' },
  });
  await untilStatus(d.url, `/v1/jobs/${job.id}?organization_id=${org.id}`, owner, 'completed');
  let failed: any;
  await waitFor(
    async () => {
      failed = (await api('GET', `/v1/webhooks/${hook.id}/deliveries`))[0];
      return failed?.status === 'failed';
    },
    { what: 'the delivery to fail' },
  );

  const page = await newPage();
  const link = await mint({ capabilities: ['manage_webhooks'] });

  t.test('a minted link opens the portal; tenant text is shown as text', async (t) => {
    await page.goto(link);
    await page.waitForURL(`${d.url}/portal/webhooks`);
    t.equal(await page.locator('h1').textContent(), 'Webhooks');
    t.ok(await page.getByText(evil).first().isVisible(), 'the description, as text');
    t.equal(await page.locator('main script').count(), 0, 'no script element came from tenant text');
    await page.screenshot({ path: path.join(shots, 'webhooks.png'), fullPage: true });
  });

  t.test('a failed delivery is replayed and the receiver gets it', async (t) => {
    await page.getByRole('link', { name: 'Deliveries', exact: true }).first().click();
    await page.waitForURL(/\/portal\/deliveries/);
    const item = page.locator('li.delivery[data-status="failed"]').first();
    await item.locator('summary').click();
    t.ok(await item.getByText('<script>alert("answer")</script> upstream down').isVisible(), "the answer's excerpt, as text");
    t.ok(await item.getByText('500', { exact: true }).isVisible(), "the attempt's status");
    await page.screenshot({ path: path.join(shots, 'deliveries.png'), fullPage: true });
    const before = receiver.deliveries(failed.id).length;
    await item.getByRole('button', { name: 'Replay' }).click();
    await page.getByText('Queued again').waitFor();
    await waitFor(() => receiver.deliveries(failed.id).length > before, { what: 'the replayed delivery to arrive' });
    t.pass('the receiver got the delivery again');
    await waitFor(async () => (await api('GET', `/v1/webhooks/${hook.id}/deliveries/${failed.id}`)).status === 'delivered', {
      what: 'the delivery to be delivered',
    });
    await page.reload();
    t.ok(await page.locator(`li.delivery[data-status="delivered"]`).first().isVisible(), 'shown delivered');
  });

  t.test('the secret is rotated and shown once', async (t) => {
    await page.goto(`${d.url}/portal/webhooks/${hook.id}`);
    await page.screenshot({ path: path.join(shots, 'webhook.png'), fullPage: true });
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    t.match(secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    t.not(secret, hook.secret, 'a new secret');
    await page.screenshot({ path: path.join(shots, 'rotated.png') });
  });

  t.test('a running run moves to completed live', async (t) => {
    await api('POST', '/v1/workflows', { organization_id: org.id, name: 'approve', nodes: [{ key: 'review', kind: 'wait' }] });
    const run = await api('POST', '/v1/workflows/run?name=approve', { organization_id: org.id, input: {} });
    await untilStatus(d.url, `/v1/workflows/runs/${run.id}?organization_id=${org.id}`, owner, 'waiting');
    await page.goto(`${d.url}/portal/runs/${run.id}`);
    t.equal((await page.locator('#run-status').textContent())?.trim(), 'waiting');
    await page.locator('#run-events li').first().waitFor();
    await api('POST', `/v1/workflows/runs/${run.id}/input`, { node_key: 'review', input: { ok: true } });
    await page.locator('#run-status[data-status="completed"]').waitFor();
    t.equal((await page.locator('#run-status').textContent())?.trim(), 'completed', 'without a reload');
    await page.screenshot({ path: path.join(shots, 'run.png'), fullPage: true });
    await page.goto(`${d.url}/portal/runs`);
    await page.screenshot({ path: path.join(shots, 'runs.png'), fullPage: true });
  });

  t.test('usage and the event catalog', async (t) => {
    await page.goto(`${d.url}/portal/usage`);
    await page.locator('#usage-chart canvas').waitFor();
    t.ok(await page.getByRole('cell', { name: 'echo' }).first().isVisible(), 'the echo job is in the table');
    await page.screenshot({ path: path.join(shots, 'usage.png'), fullPage: true });
    await page.goto(`${d.url}/portal/events`);
    t.ok(await page.locator('section#job\\.completed').isVisible(), 'job.completed is described');
    await page.locator('section#job\\.completed summary').click();
    await page.screenshot({ path: path.join(shots, 'events.png') });
  });

  t.test('readable at 320 px wide, and usable from the keyboard', async (t) => {
    const narrow = await newPage(320);
    await narrow.goto(await mint());
    await narrow.waitForURL(/\/portal\/webhooks/);
    for (const p of ['/portal/webhooks', `/portal/deliveries?webhook=${hook.id}`, '/portal/usage', '/portal/runs']) {
      await narrow.goto(d.url + p);
      const width = Number(await narrow.evaluate('document.documentElement.scrollWidth'));
      t.ok(width <= 320, `${p}: no sideways scrolling (${width} px)`);
    }
    await narrow.goto(`${d.url}/portal/deliveries?webhook=${hook.id}`);
    await narrow.screenshot({ path: path.join(shots, 'deliveries-320.png'), fullPage: true });
    // The skip link comes first, then the navigation: real links, reached with Tab.
    await narrow.keyboard.press('Tab');
    t.equal(await narrow.evaluate('document.activeElement && document.activeElement.textContent'), 'Skip to content');
    await narrow.keyboard.press('Tab');
    t.equal(await narrow.evaluate('document.activeElement && document.activeElement.textContent'), 'Webhooks');
    await narrow.keyboard.press('Enter');
    await narrow.waitForURL(`${d.url}/portal/webhooks`);
    t.pass('Enter follows the link');
  });

  t.test('a used link, an ended session and another organization are refused', async (t) => {
    const again = await newPage();
    const used = await again.goto(link);
    t.equal(used?.status(), 410, 'a link used twice');
    t.ok(await again.getByText('used already').isVisible());

    const short = await newPage();
    const shortLink = await api('POST', `/v1/organizations/${org.id}/portal-sessions`, { ttl_seconds: 2 });
    await short.goto(shortLink.url);
    await short.waitForURL(/\/portal\/webhooks/);
    await waitFor(() => Date.now() > Date.parse(shortLink.expires_at), { what: 'the session to end' });
    const ended = await short.reload();
    t.equal(ended?.status(), 401, 'an ended session');
    // The browser drops the cookie at its Max-Age, so it may not even send it: not signed in either way.
    t.ok(await short.getByText(/has ended|not signed in/).isVisible());

    const strangerHeaders = asPrincipal(randomUUID());
    const stranger = await createOrganizationAs(d.url, strangerHeaders, `stranger-${randomUUID().slice(0, 8)}`);
    const theirs = await request(d.url, 'POST', `/v1/organizations/${stranger.id}/webhooks`, {
      headers: strangerHeaders,
      body: { url: receiver.url },
    });
    const other = await page.goto(`${d.url}/portal/webhooks/${theirs.body.data.id}`);
    t.equal(other?.status(), 404, "another organization's webhook");
  });
}
