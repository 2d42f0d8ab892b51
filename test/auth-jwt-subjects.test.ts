// Contract 13 (JWT subjects): a `sub` is the identity provider's subject (`auth0|...`, `user_...`, a
// UUID); its principal is created just in time and bound once; an invitee who accepted by link is
// bound to a token whose email the provider verified, never to one it did not; `principal link`
// binds by hand. Tokens are shaped as Auth0's (namespaced custom claims for access tokens).
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import t, { type Test } from 'tap';
import { AdminClient, CliError } from '../src/cli/client.js';
import type { PrincipalServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/PrincipalService.js';
import { operator } from '../src/domain/identity/caller.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon } from './helpers.js';

const SECRET = randomBytes(32).toString('base64url');
const key = new TextEncoder().encode(SECRET);
const ISSUER = 'https://switchyard-test.eu.auth0.com/';
const now = () => Math.floor(Date.now() / 1000);

/** A token as Auth0 issues it (HS256 here, the daemon's only algorithm): iss, aud, sub, iat, exp, and the claims given. */
async function tokenFor(sub: string, claims: JWTPayload = {}): Promise<string> {
  return new SignJWT({ sub, aud: 'https://api.switchyard.example', iss: ISSUER, exp: now() + 600, ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(key);
}

async function world(t: Test, env: Record<string, string> = {}) {
  const d = await startTestDaemon(t, { JWT_SECRET: SECRET, ...env });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `idp-${randomUUID().slice(0, 8)}`);
  const client = new AdminClient({ kind: 'unix', socketPath: d.grpc.socketPath });
  t.teardown(() => client.close());
  const principals = client.service<PrincipalServiceDefinition>('PrincipalService');
  /** Invites `email` and accepts by link without signing in: the invitee's principal, registered for the email. */
  const inviteAndAccept = async (email: string, role = 'member') => {
    const invited = await request(d.url, 'POST', '/v1/invitations', {
      headers: owner,
      body: { organization_id: org.id, email, role },
    });
    t.equal(invited.status, 201, 'invited');
    const page = await d.services.outbox.listOutbox(operator, { organization_id: org.id, limit: 200 });
    const link = page.items.find((e) => e.invitation_id === invited.body.data.id && e.accept_url !== null)!.accept_url!;
    const accepted = await request(d.url, 'GET', new URL(link).pathname + new URL(link).search);
    t.equal(accepted.status, 200, 'accepted by link, anonymously');
    return (await principals.GetPrincipal({ principal: email })).principal!;
  };
  const orgAs = (token: string) => request(d.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(token) });
  const membersAs = (token: string) => request(d.url, 'GET', `/v1/organizations/${org.id}/members`, { headers: bearer(token) });
  return { d, owner, org, principals, inviteAndAccept, orgAs, membersAs };
}

const email = () => `${randomUUID().slice(0, 8)}@example.com`;

t.test('a provider subject: its principal is created on first use, then the same one every time', async (t) => {
  const w = await world(t);
  for (const sub of ['auth0|64f1c2a9e8b7d6c5b4a3f201', 'user_2abcDEF123', 'google-oauth2|1174', 'a'.repeat(255)]) {
    const first = await request(w.d.url, 'POST', '/v1/organizations', {
      headers: bearer(await tokenFor(sub)),
      body: { slug: `s-${randomUUID().slice(0, 8)}` },
    });
    t.equal(first.status, 201, `${sub.slice(0, 30)}: accepted`);
    const [member] = (
      await request(w.d.url, 'GET', `/v1/organizations/${first.body.data.id}/members`, { headers: bearer(await tokenFor(sub)) })
    ).body.data;
    t.match(member.principal_id, /^[0-9a-f-]{36}$/, 'the principal has an id of ours');
    t.equal(member.role, 'owner', 'a second token with the same sub is the same principal');
    const shown = (await w.principals.GetPrincipal({ principal: member.principal_id })).principal!;
    t.same(
      shown,
      { id: member.principal_id, email: null, external_id: sub, created_at: shown.created_at },
      'external_id: the sub',
    );
  }
  const other = await request(w.d.url, 'GET', '/v1/organizations', { headers: bearer(await tokenFor('auth0|someone-else')) });
  t.same(other.body.data, [], 'another subject is another principal');
});

t.test('an invitee accepted by link is bound by a verified email, and acts as the member the invitation made', async (t) => {
  const w = await world(t);
  const address = email();
  const invitee = await w.inviteAndAccept(address, 'admin');
  t.equal(invitee.external_id, null, 'not bound yet');
  const sub = 'auth0|invitee-01';

  // An email the provider did not verify binds nothing: the token is a new principal of its own.
  for (const claims of [
    { email: address },
    { email: address, email_verified: false },
    { email: address, email_verified: 'true' },
  ]) {
    const unverified = await tokenFor(`auth0|impostor-${randomUUID().slice(0, 4)}`, claims);
    t.equal((await w.orgAs(unverified)).status, 404, `${JSON.stringify(claims)}: not a member`);
  }
  t.equal((await w.principals.GetPrincipal({ principal: address })).principal!.external_id, null, 'still unbound');

  const verified = await tokenFor(sub, { email: address.toUpperCase(), email_verified: true, name: 'In Vitee' });
  t.equal((await w.orgAs(verified)).status, 200, 'the invitee, signed in');
  const members = (await w.membersAs(verified)).body.data;
  t.ok(
    members.some((m: any) => m.principal_id === invitee.id && m.role === 'admin'),
    'as the member (and role) the invitation made',
  );
  t.same(
    (await w.principals.GetPrincipal({ principal: address })).principal,
    { ...invitee, external_id: sub },
    'bound to the sub',
  );
  t.equal((await w.orgAs(await tokenFor(sub))).status, 200, 'later tokens need no email');

  // Bound once: another subject with the same verified email is a principal of its own.
  const second = await tokenFor('auth0|other-account', { email: address, email_verified: true });
  t.equal((await w.orgAs(second)).status, 404, 'a second subject does not take the bound principal');
});

t.test('SERVICE_JWT_EMAIL_CLAIM names a namespaced claim (Auth0 access tokens)', async (t) => {
  const claim = 'https://switchyard.example/email';
  const w = await world(t, { SERVICE_JWT_EMAIL_CLAIM: claim });
  const address = email();
  const invitee = await w.inviteAndAccept(address);
  const plain = await tokenFor('auth0|plain-claims', { email: address, email_verified: true });
  t.equal((await w.orgAs(plain)).status, 404, 'the default claim is not read when another is named');
  const token = await tokenFor('auth0|namespaced', { [claim]: address, [`${claim}_verified`]: true });
  t.equal((await w.orgAs(token)).status, 200);
  t.equal((await w.principals.GetPrincipal({ principal: invitee.id })).principal!.external_id, 'auth0|namespaced');
});

t.test('a new subject with a verified email no principal has: the email goes on the new principal', async (t) => {
  const w = await world(t);
  const address = email();
  const token = await tokenFor('auth0|newcomer', { email: address, email_verified: true });
  t.equal((await request(w.d.url, 'GET', '/v1/organizations', { headers: bearer(token) })).status, 200);
  const shown = (await w.principals.GetPrincipal({ principal: address })).principal!;
  t.equal(shown.external_id, 'auth0|newcomer');
  // An invitation to that email, accepted by link, is then this principal's membership.
  t.equal((await w.inviteAndAccept(address)).id, shown.id, 'the invitation finds the signed-in principal');
  t.equal((await w.orgAs(token)).status, 200, 'a member at once');
});

t.test('concurrent first requests with one new subject create one principal', async (t) => {
  const w = await world(t);
  const address = email();
  await w.inviteAndAccept(address);
  for (const [what, claims] of [
    ['a new subject', {}],
    ['a subject binding an invitee', { email: address, email_verified: true }],
  ] as const) {
    const sub = `auth0|race-${randomUUID()}`;
    const token = await tokenFor(sub, claims);
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(w.d.url, 'POST', '/v1/organizations', {
          headers: bearer(token),
          body: { slug: `race-${i}-${randomUUID().slice(0, 6)}` },
        }),
      ),
    );
    t.same(
      created.map((r) => r.status),
      Array(8).fill(201),
      `${what}: every request accepted`,
    );
    const owners = await Promise.all(
      created.map(
        async (r) =>
          (await request(w.d.url, 'GET', `/v1/organizations/${r.body.data.id}/members`, { headers: bearer(token) })).body.data[0]
            .principal_id,
      ),
    );
    t.equal(new Set(owners).size, 1, `${what}: one principal owns them all`);
    t.equal((await w.principals.GetPrincipal({ principal: owners[0] })).principal!.external_id, sub);
  }
});

t.test('a sub that is an existing principal id still names it', async (t) => {
  const w = await world(t);
  const address = email();
  const invitee = await w.inviteAndAccept(address);
  t.equal((await w.orgAs(await tokenFor(invitee.id))).status, 200, 'the invitee by its id');
  t.equal((await w.principals.GetPrincipal({ principal: invitee.id })).principal!.external_id, null, 'and it stays unbound');
});

t.test('principal link binds by hand (operator only); conflicts and unknown emails are refused', async (t) => {
  const w = await world(t);
  const address = email();
  const invitee = await w.inviteAndAccept(address);
  const sub = 'okta|00u1a2b3c4';
  t.equal((await w.orgAs(await tokenFor(sub))).status, 404, 'before the link: a stranger (and a principal of its own now)');
  const refused = await w.principals.LinkPrincipal({ email: address, subject: sub }).catch((e: unknown) => e);
  t.match(refused, CliError, 'the subject already names that just-created principal');
  t.equal((refused as CliError).code, 'conflict');

  const fresh = 'okta|00u9z8y7x6';
  const linked = await w.principals.LinkPrincipal({ email: address.toUpperCase(), subject: fresh });
  t.same(linked, { ...invitee, external_id: fresh }, 'bound');
  t.equal((await w.orgAs(await tokenFor(fresh))).status, 200, 'the token acts as the invitee');
  t.same(await w.principals.LinkPrincipal({ email: address, subject: fresh }), linked, 'linking again is a no-op');
  const again = await w.principals.LinkPrincipal({ email: address, subject: 'okta|another' }).catch((e: unknown) => e);
  t.equal((again as CliError).code, 'conflict', 'bound to another subject');
  const unknown = await w.principals.LinkPrincipal({ email: email(), subject: 'okta|nobody' }).catch((e: unknown) => e);
  t.equal((unknown as CliError).code, 'not_found');
  const bad = await w.principals.LinkPrincipal({ email: address, subject: 'x'.repeat(256) }).catch((e: unknown) => e);
  t.equal((bad as CliError).code, 'validation_failed');
});
