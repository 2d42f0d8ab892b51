// Issue 37 (the portal's deliveries page): GET /v1/organizations/{id}/deliveries lists the deliveries of
// every webhook of the organization, newest first, filtered by webhook, status and time, a page at a
// time; never the platform webhooks' deliveries of its events, nor another organization's. Real daemon,
// real local receivers; on PostgreSQL too (on-postgres-webhooks).
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

const fast = { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', SERVICE_WEBHOOK_RETRY_BASE_MS: '50', SERVICE_WEBHOOK_TIMEOUT_MS: '2000' };

/** The whole second `iso` falls in, written without milliseconds: `2026-11-28T18:42:56Z`. */
function toSecond(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

t.test("every webhook's deliveries, newest first, filtered and paged; not the platform's nor another's", async (t) => {
  const d = await startTestDaemon(t, fast);
  const answering = await WebhookReceiver.start(t);
  const failing = await WebhookReceiver.start(t);
  failing.setDefault({ kind: 'status', status: 500 });
  const platformReceiver = await WebhookReceiver.start(t);
  const platform = await d.services.webhooks.createWebhook(operator, null, { url: platformReceiver.url });

  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `dl-${randomUUID().slice(0, 8)}`);
  const ownerB = asPrincipal(randomUUID());
  const orgB = await createOrganizationAs(d.url, ownerB, `dl-${randomUUID().slice(0, 8)}`);
  const hookOf = async (o: { id: string }, who: Record<string, string>, body: Record<string, unknown>): Promise<string> => {
    const res = await request(d.url, 'POST', `/v1/organizations/${o.id}/webhooks`, {
      headers: who,
      body: { event_filter: ['invitation.created'], ...body },
    });
    t.equal(res.status, 201);
    return res.body.data.id as string;
  };
  const good = await hookOf(org, owner, { url: answering.url });
  const bad = await hookOf(org, owner, { url: failing.url, max_retries: 0 });
  const other = await hookOf(orgB, ownerB, { url: answering.url });
  const invite = async (o: { id: string }, who: Record<string, string>) => {
    const res = await request(d.url, 'POST', '/v1/invitations', {
      headers: who,
      body: { organization_id: o.id, email: `${randomUUID().slice(0, 8)}@example.com`, role: 'member' },
    });
    t.equal(res.status, 201);
  };
  const ofWebhook = async (id: string, who = owner) =>
    (await request(d.url, 'GET', `/v1/webhooks/${id}/deliveries?limit=200`, { headers: who })).body.data as any[];
  const settled = async (id: string, n: number, status: string, who = owner) =>
    waitFor(
      async () => {
        const all = await ofWebhook(id, who);
        return all.length === n && all.every((x) => x.status === status);
      },
      { what: `${n} ${status} deliveries of ${id}` },
    );
  const list = (query = '', who = owner, orgId = org.id) =>
    request(d.url, 'GET', `/v1/organizations/${orgId}/deliveries${query}`, { headers: who });
  const ids = async (query: string): Promise<string[]> => {
    const res = await list(query);
    t.equal(res.status, 200, `${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return (res.body.data as { id: string }[]).map((x) => x.id);
  };

  await invite(org, owner);
  await invite(org, owner);
  await settled(good, 2, 'delivered');
  await settled(bad, 2, 'failed');
  const mark = new Date().toISOString();
  await waitFor(() => Date.now() > Date.parse(mark) + 2, { what: 'a millisecond past the mark' });
  await invite(org, owner);
  await invite(orgB, ownerB);
  await settled(good, 3, 'delivered');
  await settled(bad, 3, 'failed');
  await settled(other, 1, 'delivered', ownerB);

  const goodIds = (await ofWebhook(good)).map((x) => x.id as string);
  const badIds = (await ofWebhook(bad)).map((x) => x.id as string);
  const newestFirst = (xs: string[]) => [...xs].sort().reverse();
  const all = newestFirst([...goodIds, ...badIds]);

  const whole = await list('?limit=200');
  t.equal(whole.status, 200);
  t.same(
    (whole.body.data as { id: string }[]).map((x) => x.id),
    all,
    "both webhooks' deliveries, newest first, and nothing else",
  );
  t.equal(whole.body.meta.next_cursor, null);
  t.match(whole.body.data[0], { webhook_id: String, event_kind: 'invitation.created', attempts: Array });
  // The platform webhook got the organization's events too; its deliveries are not the organization's.
  const platformOwn = (await d.services.webhooks.listDeliveries(operator, platform.id, { limit: 200 })).items;
  t.ok(platformOwn.length >= 3, 'the platform webhook has deliveries of the same events');
  t.notOk(
    (whole.body.data as { webhook_id: string }[]).some((x) => x.webhook_id === platform.id || x.webhook_id === other),
    "no platform webhook's and no other organization's delivery is listed",
  );

  t.same(await ids('?status=failed'), newestFirst(badIds), 'by status: failed');
  t.same(await ids('?status=delivered'), newestFirst(goodIds), 'by status: delivered');
  t.same(await ids('?status=pending'), [], 'by status: none pending');
  t.same(await ids(`?webhook_id=${bad}`), newestFirst(badIds), 'by webhook');
  t.same(await ids(`?webhook_id=${good}&status=delivered`), newestFirst(goodIds), 'by webhook and status');
  t.same(await ids(`?webhook_id=${good}&status=failed`), [], 'by webhook and another status: none');

  // Time: [since, until), in milliseconds or whole seconds, compared as times.
  t.same(await ids(`?since=${mark}`), all.slice(0, 2), 'since the mark: the last invitation’s two');
  t.same(await ids(`?until=${mark}`), all.slice(2), 'until the mark: the first four');
  t.same(await ids(`?status=failed&since=${mark}`), [badIds.sort().at(-1)], 'status and time together');
  const firstCreated = (whole.body.data as { created_at: string }[]).at(-1)!.created_at;
  t.same(await ids(`?since=${toSecond(firstCreated)}`), all, 'since given to the second');
  t.same(await ids(`?until=${toSecond(firstCreated)}`), [], 'until given to the second ends at that instant');
  const late = toSecond(new Date(Date.now() + 2000).toISOString());
  t.same(await ids(`?since=${toSecond(firstCreated)}&until=${late}`), all, 'a window given to the second');

  // Pages: the contract's list shape, a cursor resuming where the page ended.
  const first = await list('?limit=4');
  t.equal(first.body.data.length, 4);
  t.type(first.body.meta.next_cursor, 'string');
  const second = await list(`?limit=4&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
  t.equal(second.body.meta.next_cursor, null, 'the second page is the last');
  t.same(
    [...first.body.data, ...second.body.data].map((x: { id: string }) => x.id),
    all,
    'two pages: every delivery once',
  );
  const failedFirst = await list('?status=failed&limit=2');
  const failedNext = await list(`?status=failed&limit=2&cursor=${encodeURIComponent(failedFirst.body.meta.next_cursor)}`);
  t.same(
    [...failedFirst.body.data, ...failedNext.body.data].map((x: { id: string }) => x.id),
    newestFirst(badIds),
    'a filtered list pages too',
  );

  // Bad input, another organization, a role without the permission.
  t.equal((await list('?since=yesterday')).status, 400, 'a time that is not one');
  t.equal((await list(`?since=${mark}&until=${firstCreated}`)).status, 400, 'until before since');
  t.equal((await list('?status=lost')).status, 400, 'an unknown status');
  t.equal((await list(`?webhook_id=${other}`)).status, 404, "another organization's webhook is 404");
  t.equal((await list('', owner, orgB.id)).status, 404, "another organization's list is 404");
  const member = randomUUID();
  const added = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: owner,
    body: { principal_id: member, role: 'member' },
  });
  t.equal(added.status, 201);
  const refused = await list('', asPrincipal(member));
  t.equal(refused.status, 403, 'a member may not read the deliveries');
  t.equal(refused.body.error.code, 'forbidden');
});
