// Contract 13: a platform webhook, the operator's, receives the events of every organization
// (organization.created included), signed, filtered and retried as any webhook's; an organization's
// webhook never sees another organization's events; /v1 callers cannot see or touch a platform
// webhook (404). Real daemon, real local receivers; on PostgreSQL too (on-postgres-webhooks).
import { randomUUID } from 'node:crypto';
import { verify as verifyGithub } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { WebhookReceiver, type Received } from './fakes/webhook-receiver.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

const fast = { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', SERVICE_WEBHOOK_RETRY_BASE_MS: '50', SERVICE_WEBHOOK_TIMEOUT_MS: '2000' };

interface Delivered {
  kind: string;
  organization_id: string;
  payload: Record<string, unknown>;
}

/** The events a receiver got, as their bodies say. */
const bodies = (r: WebhookReceiver): Delivered[] => r.received.map((x) => JSON.parse(x.body) as Delivered);

/** Waits until `receiver` got an event matching `test`; answers it. */
async function receivedWhere(receiver: WebhookReceiver, what: string, test: (e: Delivered) => boolean): Promise<Delivered> {
  await waitFor(() => bodies(receiver).some(test), { what });
  return bodies(receiver).find(test)!;
}

t.test('a platform webhook gets every organization’s events; an organization’s gets only its own', async (t) => {
  const d = await startTestDaemon(t, fast);
  const platformReceiver = await WebhookReceiver.start(t);
  const orgReceiver = await WebhookReceiver.start(t);
  const hooks = d.services.webhooks;

  const platform = await hooks.createWebhook(operator, null, { url: platformReceiver.url, max_retries: 1 });
  t.match(platform, { organization_id: null, all_organizations: true, secret: /^whsec_/ });

  const ownerA = randomUUID();
  const ownerB = randomUUID();
  const a = await createOrganizationAs(d.url, asPrincipal(ownerA), 'platform-a');
  const created = await request(d.url, 'POST', `/v1/organizations/${a.id}/webhooks`, {
    headers: asPrincipal(ownerA),
    body: { url: orgReceiver.url },
  });
  t.equal(created.status, 201);
  t.equal(created.body.data.all_organizations, false);
  const b = await createOrganizationAs(d.url, asPrincipal(ownerB), 'platform-b');
  for (const [org, owner] of [
    [a, ownerA],
    [b, ownerB],
  ] as const) {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
      headers: asPrincipal(owner),
      body: { principal_id: randomUUID(), role: 'member' },
    });
    t.equal(res.status, 201);
  }

  t.test('the platform webhook: organization.created and the rest of both organizations, signed', async (t) => {
    for (const org of [a, b]) {
      const event = await receivedWhere(
        platformReceiver,
        `organization.created of ${org.slug}`,
        (e) => e.kind === 'organization.created' && e.organization_id === org.id,
      );
      t.match(event.payload, { organization_id: org.id, slug: org.slug });
      // The member added last: both organizations' events reach the one platform receiver.
      await receivedWhere(
        platformReceiver,
        `the member added to ${org.slug}`,
        (e) => e.kind === 'member.added' && e.organization_id === org.id && e.payload.role === 'member',
      );
    }
    const first = platformReceiver.received[0];
    const headers = first.headers as Record<string, string>;
    t.ok(new StandardWebhook(platform.secret).verify(first.body, headers), 'Standard Webhooks signature');
    t.ok(await verifyGithub(platform.secret, first.body, headers['x-service-signature']), 'X-Service-Signature');
    t.equal(headers['x-service-event'], JSON.parse(first.body).kind);
  });

  t.test("the organization's webhook: its own events only", async (t) => {
    // B's member was added after A's: once the platform receiver has it, the fan-out passed it.
    await receivedWhere(platformReceiver, "B's member", (e) => e.kind === 'member.added' && e.organization_id === b.id);
    await receivedWhere(orgReceiver, "A's member", (e) => e.kind === 'member.added' && e.organization_id === a.id);
    t.same([...new Set(bodies(orgReceiver).map((e) => e.organization_id))], [a.id], "nothing of B's");
  });

  t.test('/v1 callers cannot see, change or delete it: 404', async (t) => {
    const as = asPrincipal(ownerA);
    const base = `/v1/webhooks/${platform.id}`;
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['PATCH', base, { active: false }],
      ['DELETE', base, undefined],
      ['GET', `${base}/deliveries`, undefined],
      ['POST', `${base}/rotate-secret`, {}],
      ['POST', `${base}/recover`, { since: '2026-01-01T00:00:00Z' }],
    ] as const) {
      const res = await request(d.url, method, path, { headers: as, body });
      t.equal(res.status, 404, `${method} ${path}`);
    }
    const listed = await request(d.url, 'GET', `/v1/organizations/${a.id}/webhooks`, { headers: as });
    t.same(
      listed.body.data.map((w: { id: string }) => w.id),
      [created.body.data.id],
      "A's list holds A's webhook alone",
    );
    t.equal((await hooks.getWebhook(operator, platform.id)).url, platformReceiver.url, 'still there for the operator');
    t.same(
      (await hooks.listPlatformWebhooks(operator, {})).items.map((w) => w.id),
      [platform.id],
      'the operator lists it',
    );
  });

  t.test('filters, pause and resume apply as to any webhook', async (t) => {
    await hooks.updateWebhook(operator, platform.id, { event_filter: ['organization.created'], active: false });
    const before = platformReceiver.received.length;
    const c = await createOrganizationAs(d.url, asPrincipal(randomUUID()), 'platform-c');
    const held = async () =>
      (await hooks.listDeliveries(operator, platform.id, { limit: 200 })).items.filter((x) => x.status === 'pending');
    await waitFor(async () => (await held()).length === 1, { what: "C's organization.created held while paused" });
    t.equal(platformReceiver.received.length, before, 'nothing sent while paused');
    await hooks.updateWebhook(operator, platform.id, { active: true });
    const got = await receivedWhere(platformReceiver, "C's organization.created", (e) => e.organization_id === c.id);
    t.equal(got.kind, 'organization.created');
    // C's founding owner's member.added came before: the filter kept it out.
    const d2 = await createOrganizationAs(d.url, asPrincipal(randomUUID()), 'platform-d');
    await receivedWhere(platformReceiver, "D's organization.created", (e) => e.organization_id === d2.id);
    t.same(
      bodies(platformReceiver)
        .slice(before)
        .map((e) => e.kind),
      ['organization.created', 'organization.created'],
      'only the filtered kind',
    );
  });

  t.test("a platform webhook's exhausted delivery writes nothing in the organization's log", async (t) => {
    await hooks.updateWebhook(operator, platform.id, { event_filter: [] });
    platformReceiver.setDefault({ kind: 'status', status: 500, body: 'down' });
    const e = await createOrganizationAs(d.url, asPrincipal(randomUUID()), 'platform-e');
    const failed = async () =>
      (await hooks.listDeliveries(operator, platform.id, { limit: 200 })).items.filter((x) => x.status === 'failed');
    await waitFor(async () => (await failed()).length >= 2, { what: "E's two deliveries failed (max_retries 1)" });
    const log = await d.services.events.listEvents(operator, e.id, { limit: 200 });
    t.same(
      log.items.map((x) => x.kind),
      ['organization.created', 'member.added'],
      'no webhook.delivery.exhausted about a webhook E cannot see',
    );
    const attempts = platformReceiver.received.filter((r: Received) => JSON.parse(r.body).organization_id === e.id);
    t.equal(attempts.length, 4, 'two attempts of each (max_retries 1), as any webhook');
  });
});

t.test('platform webhooks have their own cap, SERVICE_WEBHOOK_MAX_PER_ORG, apart from every organization', async (t) => {
  const d = await startTestDaemon(t, { ...fast, SERVICE_WEBHOOK_MAX_PER_ORG: '2' });
  const receiver = await WebhookReceiver.start(t);
  const hooks = d.services.webhooks;
  const made = [];
  for (let i = 0; i < 2; i++) made.push(await hooks.createWebhook(operator, null, { url: receiver.url }));
  await t.rejects(hooks.createWebhook(operator, null, { url: receiver.url }), {
    code: 'validation_failed',
    details: { fields: { webhooks: /there are 2 platform webhooks/ }, limit: 'max_webhooks', max: 2 },
  });
  // An organization's count is its own: the platform's two do not use up its cap.
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, 'platform-cap');
  for (let i = 0; i < 2; i++) {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
      headers: owner,
      body: { url: receiver.url },
    });
    t.equal(res.status, 201, `the organization's webhook ${i + 1}`);
  }
  // A deleted platform webhook no longer counts.
  await hooks.deleteWebhook(operator, made[0].id);
  t.match(await hooks.createWebhook(operator, null, { url: receiver.url }), { all_organizations: true });
});
