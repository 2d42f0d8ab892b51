import { randomUUID } from 'node:crypto';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import type { Daemon } from '../src/main.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Security issue, item 10 (second half): with SERVICE_INVITE_ACCEPT_CONFIRM=1 the accept link's GET
// answers a page and accepts nothing (a mail scanner following the link cannot accept); the page's
// form POSTs the token, and that POST answers as the GET does by default.

async function invited(d: Daemon, email = 'guest@example.com') {
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `org-${randomUUID().slice(0, 8)}`);
  const created = await request(d.url, 'POST', '/v1/invitations', {
    headers: owner,
    body: { organization_id: org.id, email, role: 'member' },
  });
  if (created.status !== 201) throw new Error(`invite: ${created.status} ${JSON.stringify(created.body)}`);
  const id: string = created.body.data.id;
  const page = await d.services.outbox.listOutbox(operator, { organization_id: org.id, limit: 200 });
  const link = page.items.find((e) => e.invitation_id === id)!.accept_url!;
  const token = new URL(link).searchParams.get('token')!;
  const status = async () => (await request(d.url, 'GET', `/v1/invitations/${id}`, { headers: owner })).body.data.status;
  return { org, id, token, link, status };
}

/** POSTs `fields` as an HTML form would (application/x-www-form-urlencoded). */
function postForm(base: string, path: string, fields: Record<string, string>) {
  return request(base, 'POST', path, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: new URLSearchParams(fields).toString(),
  });
}

t.test('the GET shows a page and accepts nothing; the form POST accepts', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_INVITE_ACCEPT_CONFIRM: '1' });
  const inv = await invited(d);
  const path = `/v1/invitations/${inv.id}/accept`;

  const res = await fetch(inv.link);
  const html = await res.text();
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html; charset=utf-8/);
  t.equal(res.headers.get('x-frame-options'), 'DENY', 'the button cannot be framed');
  t.match(res.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  t.equal(res.headers.get('referrer-policy'), 'no-referrer', 'the token does not leak in a Referer');
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.match(html, /<form method="post" action="accept">/);
  t.match(html, `<input type="hidden" name="token" value="${inv.token}">`);
  for (let i = 0; i < 3; i++) await fetch(inv.link);
  t.equal(await inv.status(), 'pending', 'GETs (a mail scanner, a preview) accept nothing');
  t.equal((await fetch(inv.link, { method: 'HEAD' })).status, 200);
  t.equal(await inv.status(), 'pending', 'HEAD accepts nothing either');

  // The action "accept" resolves against the page's URL to the same path, without the query.
  t.equal(new URL('accept', inv.link).pathname, path);
  const accepted = await postForm(d.url, path, { token: inv.token });
  t.equal(accepted.status, 200, 'the form accepts');
  t.match(accepted.body.data, { status: 'accepted', invitation_id: inv.id, organization_id: inv.org.id, membership_id: String });
  t.equal(await inv.status(), 'accepted');
  const again = await postForm(d.url, path, { token: inv.token });
  t.match(again, { status: 409, body: { error: { code: 'already_accepted' } } }, 'a second POST: already accepted');
});

t.test('the page escapes whatever the link carries', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_INVITE_ACCEPT_CONFIRM: '1' });
  const hostile = `"><script>alert(1)</script><img src=x onerror='x'>&`;
  const res = await fetch(`${d.url}/v1/invitations/${randomUUID()}/accept?token=${encodeURIComponent(hostile)}`);
  const html = await res.text();
  t.equal(res.status, 200);
  t.notMatch(html, /<script|<img|onerror='/, 'no markup from the link');
  t.match(html, 'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&#39;x&#39;&gt;&amp;"');
});

t.test('a wrong token is the same failure by POST as by GET', async (t) => {
  const plain = await startTestDaemon(t);
  const inv = await invited(plain);
  const path = `/v1/invitations/${inv.id}/accept`;
  const wrong = 'A'.repeat(43);
  const byGet = await request(plain.url, 'GET', `${path}?token=${wrong}`);
  const byForm = await postForm(plain.url, path, { token: wrong });
  const byJson = await request(plain.url, 'POST', path, { body: { token: wrong } });
  t.equal(byGet.status, 400);
  t.same(byForm.body.error, byGet.body.error, 'form POST: the same error as GET');
  t.same(byJson.body.error, byGet.body.error, 'JSON POST: the same error as GET');
  t.equal(byForm.status, 400);
  t.same((await postForm(plain.url, path, {})).body.error, byGet.body.error, 'no token: the same');
  const repeated = await request(plain.url, 'POST', path, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: `token=${inv.token}&token=${inv.token}`,
  });
  t.same(repeated.body.error, byGet.body.error, 'a repeated token field: the same');
  t.equal(await inv.status(), 'pending');

  const text = await request(plain.url, 'POST', path, { headers: { 'content-type': 'text/plain' }, raw: `token=${inv.token}` });
  t.equal(text.status, 415, 'other body types are still refused');
  t.match(text.body.error.message, /application\/x-www-form-urlencoded/);
  const big = await postForm(plain.url, path, { token: inv.token, pad: 'x'.repeat(1024 * 1024) });
  t.equal(big.status, 413, 'the same 1 MiB limit');
  const other = await request(plain.url, 'POST', `/v1/organizations`, {
    headers: { ...asPrincipal(randomUUID()), 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'slug=nope',
  });
  t.equal(other.status, 415, 'other routes take JSON only');
});

t.test('with SERVICE_INVITE_REDIRECT_URL the POST redirects as the GET does', async (t) => {
  const wrong = 'A'.repeat(43);
  const redirecting = await startTestDaemon(t, {
    SERVICE_INVITE_ACCEPT_CONFIRM: '1',
    SERVICE_INVITE_REDIRECT_URL: 'https://app.example.com/joined',
  });
  const second = await invited(redirecting);
  const secondPath = `/v1/invitations/${second.id}/accept`;
  const failed = await postForm(redirecting.url, secondPath, { token: wrong });
  t.equal(failed.status, 303);
  t.equal(failed.headers.get('location'), 'https://app.example.com/joined?status=error&reason=invalid_token');
  const ok = await postForm(redirecting.url, secondPath, { token: second.token });
  t.equal(ok.status, 303);
  t.match(ok.headers.get('location'), /^https:\/\/app\.example\.com\/joined\?status=accepted&org_id=/);
});
