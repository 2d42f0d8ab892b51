import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Attacks from the adversarial review (issue "Security hardening", items 10, 11 and 12), each
// performed as written and shown refused.

t.test('HEAD on an accept link never accepts (link checkers send HEAD)', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), 'scanned');
  const inv = (
    await request(d.url, 'POST', '/v1/invitations', {
      headers: asPrincipal(owner),
      body: { organization_id: org.id, email: 'scanned@example.com', role: 'viewer' },
    })
  ).body.data;
  const mail = (await d.services.outbox.listOutbox(operator, { organization_id: org.id })).items.find(
    (e) => e.invitation_id === inv.id,
  );
  const link = new URL(mail!.accept_url!);
  const head = await request(d.url, 'HEAD', `${link.pathname}${link.search}`);
  t.equal(head.status, 200, 'the link answers a link checker');
  const shown = await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: asPrincipal(owner) });
  t.equal(shown.body.data.status, 'pending', 'and is not accepted by it');
  const accepted = await request(d.url, 'GET', `${link.pathname}${link.search}`);
  t.equal(accepted.status, 200, 'GET (the one-click link) accepts');
  t.equal(accepted.body.data.status, 'accepted');
});

t.test('a JWT whose base64url parts are not canonical is refused', async (t) => {
  const secret = randomBytes(32).toString('base64url');
  const d = await startTestDaemon(t, { JWT_SECRET: secret });
  const principal = randomUUID();
  const token = await new SignJWT({ sub: principal })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));
  const orgs = (raw: string) => request(d.url, 'GET', '/v1/organizations', { headers: bearer(raw) });
  t.equal((await orgs(token)).status, 200, 'the canonical token works');
  const [h, p, s] = token.split('.');
  const lastBitFlipped = s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) ^ 1);
  for (const [what, variant] of [
    ['a signature with = appended', `${h}.${p}.${s}=`],
    ['a signature with == appended', `${h}.${p}.${s}==`],
    ['a payload with = appended', `${h}.${p}=.${s}`],
    ['standard base64 characters', `${h}.${p}.${s.replaceAll('-', '+').replaceAll('_', '/')}+`],
    ['a signature whose spare bits differ', `${h}.${p}.${lastBitFlipped}`],
  ] as const) {
    if (variant === token) continue;
    const res = await orgs(variant);
    t.equal(res.status, 401, what);
    t.equal(res.body.error.code, 'unauthenticated', what);
  }
});

t.test('free text refuses control characters, bidi overrides and lone surrogates, the same on every route', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'clean');
  const orgPath = `/v1/organizations/${org.id}`;
  const bad: [string, string][] = [
    ['CR LF', 'Your Bank\r\nSecurity Team'],
    ['NUL', 'a\u0000b'],
    ['a C1 control', 'a\u0085b'],
    ['a bidi override', 'invoice\u202efdp.exe'],
    ['a bidi isolate', 'a\u2066b'],
    ['a lone surrogate', 'a\ud800b'],
    ['a line separator', 'a\u2028b'],
  ];
  const routes: [string, string, string, (text: string) => unknown][] = [
    [
      'create organization display_name',
      'POST',
      '/v1/organizations',
      (text) => ({ slug: `c-${randomUUID().slice(0, 8)}`, display_name: text }),
    ],
    ['rename organization', 'PATCH', orgPath, (text) => ({ display_name: text })],
    ['team name', 'POST', `${orgPath}/teams`, (text) => ({ name: text })],
    ['API key name', 'POST', '/v1/api-keys', (text) => ({ name: text, organization_id: org.id })],
    ['settings display_name', 'PUT', `${orgPath}/settings`, (text) => ({ display_name: text })],
    ['settings email_from_name', 'PUT', `${orgPath}/settings`, (text) => ({ email_from_name: text })],
  ];
  for (const [route, method, p, body] of routes) {
    for (const [what, text] of bad) {
      const res = await request(d.url, method, p, { headers: asOwner, body: body(text) });
      t.equal(res.status, 422, `${route}: ${what}`);
      t.equal(res.body.error?.code, 'validation_failed', `${route}: ${what}`);
    }
    const fine = await request(d.url, method, p, { headers: asOwner, body: body('Ærø Café 😀') });
    t.ok(fine.status < 300, `${route}: ordinary text (accents, emoji) is fine`);
  }
});
