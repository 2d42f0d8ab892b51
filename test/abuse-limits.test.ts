import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, type JsonResponse } from './helpers.js';

// Security issue, item 6: abuse limits beyond one organization. Organizations created per principal
// per hour over /v1, and invitation mail per recipient address per hour across all organizations;
// both checked and recorded atomically with the write they count.

function assertRateLimited(t: Test, res: JsonResponse, limit: string, max: number): void {
  t.equal(res.status, 429, `429 (${limit})`);
  t.match(res.body.error, { code: 'rate_limited', details: { limit, max, retry_after_seconds: Number } });
  const retryAfter = Number(res.headers.get('retry-after'));
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After is 1-3600 s (${retryAfter})`);
  t.equal(retryAfter, res.body.error.details.retry_after_seconds, 'the header and the details agree');
}

t.test('one principal creates 10 organizations an hour over /v1; the 11th is 429 with Retry-After', async (t) => {
  const d = await startTestDaemon(t);
  const mallory = asPrincipal(randomUUID());
  for (let i = 0; i < 10; i++) await createOrganizationAs(d.url, mallory, `spam-${i}`);
  const eleventh = await request(d.url, 'POST', '/v1/organizations', { headers: mallory, body: { slug: 'spam-10' } });
  assertRateLimited(t, eleventh, 'organizations_per_hour', 10);
  t.match(eleventh.body.error.message, /created 10 organizations in the last hour/);
  t.equal((await request(d.url, 'GET', '/v1/organizations?limit=200', { headers: mallory })).body.data.length, 10, 'ten exist');

  t.ok(await createOrganizationAs(d.url, asPrincipal(randomUUID()), 'someone-else'), 'another principal is not limited');
  for (let i = 0; i < 3; i++) {
    const made = await d.services.organizations.createOrganization(operator, { slug: `operator-${i}` });
    t.ok(made.organization.id, `the operator (gRPC) is not limited (${i + 1})`);
  }
});

t.test('concurrent organization creates never pass the hourly limit', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_ORG_CREATE_PER_HOUR: '3' });
  const mallory = asPrincipal(randomUUID());
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      request(d.url, 'POST', '/v1/organizations', { headers: mallory, body: { slug: `race-${i}` } }),
    ),
  );
  t.equal(answers.filter((a) => a.status === 201).length, 3, 'exactly the limit');
  t.equal(answers.filter((a) => a.status === 429).length, 9, 'the rest are 429');
  t.equal((await request(d.url, 'GET', '/v1/organizations', { headers: mallory })).body.data.length, 3);
});

/** `n` organizations, each with its own owner. */
async function organizations(base: string, n: number, prefix: string) {
  const made: { id: string; owner: Record<string, string> }[] = [];
  for (let i = 0; i < n; i++) {
    const owner = asPrincipal(randomUUID());
    made.push({ id: (await createOrganizationAs(base, owner, `${prefix}-${i}`)).id, owner });
  }
  return made;
}

function invite(base: string, org: { id: string; owner: Record<string, string> }, email: string): Promise<JsonResponse> {
  return request(base, 'POST', '/v1/invitations', {
    headers: org.owner,
    body: { organization_id: org.id, email, role: 'member' },
  });
}

t.test('one address receives 5 invitations an hour, all organizations together; the 6th is 429', async (t) => {
  const d = await startTestDaemon(t);
  const orgs = await organizations(d.url, 6, 'sender');
  for (const org of orgs.slice(0, 5)) t.equal((await invite(d.url, org, 'victim@example.com')).status, 201);
  // The same address however it is spelled (emails match case-insensitively after trimming).
  const sixth = await invite(d.url, orgs[5], '  Victim@Example.COM ');
  assertRateLimited(t, sixth, 'invitations_per_recipient_per_hour', 5);
  t.match(sixth.body.error.message, /this address has received 5 invitations in the last hour/);
  const listed = await request(d.url, 'GET', `/v1/invitations?organization_id=${orgs[5].id}`, { headers: orgs[5].owner });
  t.same(listed.body.data, [], 'nothing was written for the refused one');

  t.equal((await invite(d.url, orgs[5], 'someone-else@example.com')).status, 201, 'other addresses are not limited');
  const first = (await request(d.url, 'GET', `/v1/invitations?organization_id=${orgs[0].id}`, { headers: orgs[0].owner })).body
    .data[0];
  const resend = await request(d.url, 'POST', `/v1/invitations/${first.id}/resend`, { headers: orgs[0].owner });
  assertRateLimited(t, resend, 'invitations_per_recipient_per_hour', 5);
});

t.test('concurrent invitations to one address never pass the per-recipient limit', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_INVITE_PER_RECIPIENT_PER_HOUR: '3' });
  const orgs = await organizations(d.url, 10, 'crowd');
  const answers = await Promise.all(orgs.map((org) => invite(d.url, org, 'target@example.com')));
  t.equal(answers.filter((a) => a.status === 201).length, 3, 'exactly the limit');
  t.equal(answers.filter((a) => a.status === 429).length, 7, 'the rest are 429');
});
