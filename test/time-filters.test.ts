// Time filters compare times, not strings: `…56Z` and `…56.530Z` name instants, and a filter given to
// the second finds what was stored to the millisecond (issue 33 item 5). Runs on PostgreSQL too
// (test/on-postgres-time-filters.test.ts).
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';

/** The whole second `iso` falls in, written without milliseconds: `2026-11-28T18:42:56Z`. */
function toSecond(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

t.test('webhook recover finds deliveries by time, given to the second or to the millisecond', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', SERVICE_WEBHOOK_RETRY_BASE_MS: '100' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `times-${randomUUID().slice(0, 8)}`);
  const receiver = await WebhookReceiver.start(t);
  receiver.setDefault({ kind: 'status', status: 500 });
  const hook = (
    await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
      headers: owner,
      body: { url: receiver.url, event_filter: ['invitation.created'], max_retries: 0 },
    })
  ).body.data;
  const invite = () =>
    request(d.url, 'POST', '/v1/invitations', {
      headers: owner,
      body: { organization_id: org.id, email: `${randomUUID().slice(0, 8)}@example.com`, role: 'member' },
    });
  const deliveries = async () =>
    (await request(d.url, 'GET', `/v1/webhooks/${hook.id}/deliveries?limit=200`, { headers: owner })).body.data as any[];
  const allFailed = async (n: number) => {
    await waitFor(
      async () => {
        const all = await deliveries();
        return all.length === n && all.every((x) => x.status === 'failed');
      },
      { what: `${n} failed deliveries` },
    );
  };
  const recover = async (body: Record<string, string>) =>
    (await request(d.url, 'POST', `/v1/webhooks/${hook.id}/recover`, { headers: owner, body })).body.data?.recovered;

  await invite();
  await invite();
  await allFailed(2);
  const created = (await deliveries()).map((x) => x.created_at as string).sort();
  t.match(created[0], /\.\d{3}Z$/, 'stored to the millisecond');

  // To the second: the second the first delivery was made in holds it.
  t.equal(await recover({ since: toSecond(created[0]) }), 2, 'since given to the second');
  await allFailed(2);
  // To the millisecond: exactly the later delivery's time.
  const later = created.filter((c) => c >= created[1]).length;
  t.equal(await recover({ since: created[1] }), later, 'since given to the millisecond');
  await allFailed(2);
  // A window closed to the second just past the last delivery holds both.
  const past = toSecond(new Date(Date.parse(created[1]) + 1000).toISOString());
  t.equal(await recover({ since: toSecond(created[0]), until: past }), 2, 'since and until given to the second');
  await allFailed(2);
  // A window that ends at the second the first delivery was made in, before it: none of them.
  t.equal(
    await recover({ since: '2020-01-01T00:00:00Z', until: toSecond(created[0]) }),
    created.filter((c) => Date.parse(c) <= Date.parse(toSecond(created[0]))).length,
    'until given to the second ends at that instant',
  );
});

t.test('usage and audit filters given to the second find what was stored to the millisecond', async (t) => {
  const d = await startTestDaemon(t);
  const owner = asPrincipal(randomUUID());
  const second = toSecond(new Date().toISOString());
  const org = await createOrganizationAs(d.url, owner, `times-${randomUUID().slice(0, 8)}`);
  const call = await request(d.url, 'POST', '/v1/providers/execute', {
    headers: owner,
    body: { organization_id: org.id, modality: 'text', model: 'echo', input: { prompt: 'hello' } },
  });
  t.equal(call.status, 200);
  const usage = await request(d.url, 'GET', `/v1/organizations/${org.id}/usage?since=${second}`, { headers: owner });
  t.equal(usage.status, 200);
  t.equal(usage.body.data.length, 1, 'the call is in the window that begins at its second');

  // until later than since, by milliseconds the string comparison put before it.
  const audit = await request(
    d.url,
    'GET',
    `/v1/organizations/${org.id}/audit-log?since=${second}&until=${second.replace('Z', '.500Z')}`,
    { headers: owner },
  );
  t.equal(audit.status, 200, 'until half a second after since is after it');
});
