// Spec 3.1 and 7, contract 6: every invitation state transition and every accept failure, in JSON
// mode and in redirect mode, against a real daemon (held mail: development without a transport).

import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import type { Daemon } from '../src/main.js';
import {
  asPrincipal,
  createOrganizationAs,
  dumpStorage,
  request,
  startTestDaemon,
  startTestDaemonWithLogs,
  waitFor,
} from './helpers.js';

const REDIRECT = 'https://app.example.test/after-invite?from=mail';

interface World {
  d: Daemon;
  org: { id: string; slug: string };
  owner: string;
  admin: string;
  member: string;
  as: (principal: string) => Record<string, string>;
  invite: (email: string, role?: string, by?: string) => Promise<any>;
  /** The raw token of the invitation's current (held) mail, read from its accept link. */
  tokenOf: (invitationId: string) => Promise<string>;
  accept: (invitationId: string, token?: string, headers?: Record<string, string>) => Promise<any>;
}

async function world(t: Test, d: Daemon): Promise<World> {
  const owner: string = randomUUID();
  const admin: string = randomUUID();
  const member: string = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), `org-${randomUUID().slice(0, 8)}`);
  for (const [principal, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
      headers: asPrincipal(owner),
      body: { principal_id: principal, role },
    });
    t.equal(res.status, 201, `${role} added`);
  }
  const invite = async (email: string, role = 'member', by = admin) =>
    request(d.url, 'POST', '/v1/invitations', { headers: asPrincipal(by), body: { organization_id: org.id, email, role } });
  const tokenOf = async (invitationId: string) => {
    const page = await d.services.outbox.listOutbox(operator, { organization_id: org.id, limit: 200 });
    const entry = page.items.find((e) => e.invitation_id === invitationId && e.accept_url !== null);
    if (entry === undefined) throw new Error(`no held mail with a link for ${invitationId}`);
    return new URL(entry.accept_url!).searchParams.get('token')!;
  };
  const accept = async (invitationId: string, token?: string, headers: Record<string, string> = {}) =>
    request(
      d.url,
      'GET',
      `/v1/invitations/${invitationId}/accept${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
      { headers },
    );
  return { d, org, owner, admin, member, as: asPrincipal, invite, tokenOf, accept };
}

async function eventsOf(w: World, kind: string): Promise<any[]> {
  const res = await request(w.d.url, 'GET', `/v1/organizations/${w.org.id}/events?kind=${kind}`, {
    headers: asPrincipal(w.owner),
  });
  return res.body.data;
}

async function membersOf(w: World): Promise<any[]> {
  const res = await request(w.d.url, 'GET', `/v1/organizations/${w.org.id}/members?limit=200`, { headers: asPrincipal(w.owner) });
  return res.body.data;
}

/** What a failed accept must look like in each mode. */
function expectFailure(t: Test, res: any, mode: 'json' | 'redirect', reason: string, status: number): void {
  if (mode === 'json') {
    t.equal(res.status, status, `${reason}: status ${status}`);
    t.equal(res.body.error.code, reason, `${reason}: code`);
    t.equal(res.body.meta.status, status);
  } else {
    t.equal(res.status, 303, `${reason}: redirected`);
    const location = new URL(res.headers.get('location'));
    t.equal(`${location.origin}${location.pathname}`, 'https://app.example.test/after-invite');
    t.equal(location.searchParams.get('from'), 'mail', 'the configured query is kept');
    t.equal(location.searchParams.get('status'), 'error');
    t.equal(location.searchParams.get('reason'), reason);
  }
}

t.test('create -> pending -> accepted (anonymous link): membership, events, no raw token stored or logged', async (t) => {
  const { daemon: d, logs } = await startTestDaemonWithLogs(t);
  const w = await world(t, d);
  const before = Date.now();
  const created = await w.invite('  New.Person@Example.COM ', 'admin');
  t.equal(created.status, 201);
  t.same(created.body.meta, { status: 201 });
  const inv = created.body.data;
  t.equal(inv.status, 'pending');
  t.equal(inv.email, 'new.person@example.com', 'trimmed and lower-cased');
  t.equal(inv.role, 'admin');
  t.notOk('token_hash' in inv, 'the hash is never shown');
  const expires = Date.parse(inv.expires_at);
  t.ok(expires >= before + 604_800_000 && expires <= Date.now() + 604_800_000, 'expires_at = now + 7 days');

  const [createdEvent] = await eventsOf(w, 'invitation.created');
  t.same(createdEvent.payload, { invitation_id: inv.id, email: 'new.person@example.com', role: 'admin' });
  t.equal(createdEvent.organization_id, w.org.id);

  const shown = await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(w.admin) });
  t.equal(shown.status, 200);
  t.equal(shown.body.data.id, inv.id);
  const listed = await request(d.url, 'GET', `/v1/invitations?organization_id=${w.org.id}`, { headers: w.as(w.admin) });
  t.same(
    listed.body.data.map((i: any) => i.id),
    [inv.id],
  );
  t.equal(listed.body.meta.next_cursor, null);

  const token = await w.tokenOf(inv.id);
  t.match(token, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  t.notOk((await dumpStorage(d)).includes(token), 'the raw token is nowhere in LevelDB');

  const accepted = await w.accept(inv.id, token);
  t.equal(accepted.status, 200);
  const principal = await d.services.principals.findPrincipalByEmail('new.person@example.com');
  t.ok(principal, 'a principal was created for the invited email');
  const membership = (await membersOf(w)).find((m) => m.principal_id === principal!.id);
  t.ok(membership, 'the membership belongs to the principal of the invited email');
  t.equal(membership.role, 'admin', 'with the invited role');
  t.same(accepted.body, {
    meta: { status: 200 },
    data: { status: 'accepted', invitation_id: inv.id, organization_id: w.org.id, membership_id: membership.id },
  });

  const [acceptedEvent] = await eventsOf(w, 'invitation.accepted');
  t.same(acceptedEvent.payload, {
    invitation_id: inv.id,
    email: 'new.person@example.com',
    role: 'admin',
    membership_id: membership.id,
    principal_id: principal!.id,
  });
  const after = await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(w.admin) });
  t.equal(after.body.data.status, 'accepted');
  t.equal(after.body.data.membership_id, membership.id);
  const mail = await d.services.outbox.getOutboxEntry(operator, inv.outbox_entry_id);
  t.equal(mail.status, 'cancelled', 'the unsent (held) mail is cancelled once accepted');
  t.equal(mail.accept_url, null);

  t.notOk(logs().includes(token), 'the raw token is never logged');
  t.match(logs(), /accept\?token=\[redacted\]/, 'the request log shows the accept URL masked');
  t.notOk((await dumpStorage(d)).includes(token), 'still nowhere in LevelDB after accepting');
});

t.test('accept with credentials gives the membership to the caller', async (t) => {
  const d = await startTestDaemon(t);
  const w = await world(t, d);
  const inv = (await w.invite('someone@example.com', 'viewer')).body.data;
  const caller = randomUUID();
  const res = await w.accept(inv.id, await w.tokenOf(inv.id), w.as(caller));
  t.equal(res.status, 200);
  const members = await membersOf(w);
  const mine = members.find((m) => m.principal_id === caller);
  t.equal(mine?.role, 'viewer', 'the caller is now a viewer');
  t.equal(res.body.data.membership_id, mine?.id);
  t.equal(
    await d.services.principals.findPrincipalByEmail('someone@example.com'),
    undefined,
    'no principal was made for the email',
  );
  const [event] = await eventsOf(w, 'invitation.accepted');
  t.equal(event.payload.principal_id, caller);
});

t.test('pending -> revoked; revoke again is 409 invalid_state', async (t) => {
  const d = await startTestDaemon(t);
  const w = await world(t, d);
  const inv = (await w.invite('gone@example.com')).body.data;
  const revoked = await request(d.url, 'POST', `/v1/invitations/${inv.id}/revoke`, { headers: w.as(w.admin) });
  t.equal(revoked.status, 200);
  t.equal(revoked.body.data.status, 'revoked');
  t.equal(revoked.body.data.revoked_by, w.admin);
  const [event] = await eventsOf(w, 'invitation.revoked');
  t.same(event.payload, { invitation_id: inv.id, email: 'gone@example.com', role: 'member' });
  const again = await request(d.url, 'POST', `/v1/invitations/${inv.id}/revoke`, { headers: w.as(w.admin) });
  t.equal(again.status, 409);
  t.equal(again.body.error.code, 'invalid_state');
  const resend = await request(d.url, 'POST', `/v1/invitations/${inv.id}/resend`, { headers: w.as(w.admin) });
  t.equal(resend.status, 409, 'a revoked invitation cannot be re-sent');
  t.equal((await d.services.outbox.getOutboxEntry(operator, inv.outbox_entry_id)).status, 'cancelled');
  // After revoking, the same email can be invited again.
  t.equal((await w.invite('gone@example.com')).status, 201);
});

t.test('pending -> expired by the sweep', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_INVITE_TTL_MS: '800', SERVICE_INVITE_EXPIRY_SWEEP_MS: '40' });
  const w = await world(t, d);
  const inv = (await w.invite('late@example.com')).body.data;
  const token = await w.tokenOf(inv.id);
  // It reads as expired at once; the sweep then records when (expired_at).
  await waitFor(
    async () =>
      (await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(w.admin) })).body.data.expired_at != null,
    { what: 'the sweep to expire the invitation' },
  );
  const shown = (await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(w.admin) })).body.data;
  t.ok(shown.expired_at >= shown.expires_at, 'expired after its expiry');
  expectFailure(t, await w.accept(inv.id, token), 'json', 'expired', 410);
  t.equal((await d.services.outbox.getOutboxEntry(operator, inv.outbox_entry_id)).status, 'cancelled');
  t.equal((await w.invite('late@example.com')).status, 201, 'a new invitation can be created');
});

t.test('past expires_at but not yet swept: accept is 410 expired, and a new invite replaces it', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_INVITE_TTL_MS: '200' });
  const w = await world(t, d);
  const inv = (await w.invite('slow@example.com')).body.data;
  const token = await w.tokenOf(inv.id);
  await waitFor(() => Date.now() > Date.parse(inv.expires_at) + 5, { what: 'the expiry time to pass' });
  expectFailure(t, await w.accept(inv.id, token), 'json', 'expired', 410);
  const unswept = (await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(w.admin) })).body.data;
  t.equal(unswept.status, 'expired', 'it reads as expired before the sweep runs');
  t.equal(unswept.expired_at, null, 'the sweep has not run');
  const everywhere = await request(d.url, 'GET', `/v1/invitations?organization_id=${w.org.id}`, { headers: w.as(w.admin) });
  t.equal(everywhere.body.data.find((i: { id: string }) => i.id === inv.id).status, 'expired', 'in the list too');
  const pendingOnly = await request(d.url, 'GET', `/v1/invitations?organization_id=${w.org.id}&status=pending`, {
    headers: w.as(w.admin),
  });
  t.notOk(
    pendingOnly.body.data.some((i: { id: string }) => i.id === inv.id),
    'not among the pending ones',
  );
  for (const action of ['revoke', 'resend'])
    t.match(
      (await request(d.url, 'POST', `/v1/invitations/${inv.id}/${action}`, { headers: w.as(w.admin) })).body.error,
      { code: 'invalid_state', details: { status: 'expired' } },
      `${action}: refused as expired`,
    );
  const again = await w.invite('SLOW@example.com');
  t.equal(again.status, 201, 'not a duplicate: the old one is past its expiry');
  t.equal((await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(w.admin) })).body.data.status, 'expired');
});

for (const mode of ['json', 'redirect'] as const) {
  t.test(`accept failures (${mode} mode)`, async (t) => {
    const env: Record<string, string> = mode === 'redirect' ? { SERVICE_INVITE_REDIRECT_URL: REDIRECT } : {};
    const d = await startTestDaemon(t, env);
    const w = await world(t, d);
    const a = (await w.invite('a@example.com')).body.data;
    const tokenA = await w.tokenOf(a.id);

    expectFailure(t, await w.accept(a.id), mode, 'invalid_token', 400);
    expectFailure(t, await w.accept(a.id, ''), mode, 'invalid_token', 400);
    expectFailure(t, await w.accept(a.id, 'not-a-token'), mode, 'invalid_token', 400);
    const wrong = Buffer.alloc(32, 7).toString('base64url');
    expectFailure(t, await w.accept(a.id, wrong), mode, 'invalid_token', 400);
    expectFailure(t, await w.accept(randomUUID(), tokenA), mode, 'invalid_token', 400);
    expectFailure(t, await w.accept('no-such-id', tokenA), mode, 'invalid_token', 400);
    const twice = await request(d.url, 'GET', `/v1/invitations/${a.id}/accept?token=${tokenA}&token=${tokenA}`);
    expectFailure(t, twice, mode, 'invalid_token', 400);

    const ok = await w.accept(a.id, tokenA);
    if (mode === 'json') t.equal(ok.status, 200);
    else {
      t.equal(ok.status, 303);
      const location = new URL(ok.headers.get('location'));
      t.equal(location.searchParams.get('status'), 'accepted');
      t.equal(location.searchParams.get('org_id'), w.org.id);
      t.equal(location.searchParams.get('invitation_id'), a.id);
      t.equal(location.searchParams.get('from'), 'mail');
    }
    expectFailure(t, await w.accept(a.id, tokenA), mode, 'already_accepted', 409);
    expectFailure(t, await w.accept(a.id, wrong), mode, 'invalid_token', 400);

    const b = (await w.invite('b@example.com')).body.data;
    const tokenB = await w.tokenOf(b.id);
    t.equal((await request(d.url, 'POST', `/v1/invitations/${b.id}/revoke`, { headers: w.as(w.admin) })).status, 200);
    expectFailure(t, await w.accept(b.id, tokenB), mode, 'revoked', 410);

    // Expired needs a short lifetime: a second daemon, so the cases above are not racing a clock.
    await t.test('expired', async (t) => {
      const short = await world(t, await startTestDaemon(t, { ...env, SERVICE_INVITE_TTL_MS: '150' }));
      const c = (await short.invite('c@example.com')).body.data;
      const tokenC = await short.tokenOf(c.id);
      await waitFor(() => Date.now() > Date.parse(c.expires_at) + 5, { what: 'the expiry time to pass' });
      expectFailure(t, await short.accept(c.id, tokenC), mode, 'expired', 410);
    });
  });
}

t.test('resend: new token and mail, the old link is dead, the lifetime restarts', async (t) => {
  const d = await startTestDaemon(t);
  const w = await world(t, d);
  const inv = (await w.invite('again@example.com')).body.data;
  const oldToken = await w.tokenOf(inv.id);
  const resent = await request(d.url, 'POST', `/v1/invitations/${inv.id}/resend`, { headers: w.as(w.admin) });
  t.equal(resent.status, 200);
  t.equal(resent.body.data.status, 'pending');
  t.equal(resent.body.data.send_count, 2);
  t.not(resent.body.data.outbox_entry_id, inv.outbox_entry_id, 'a new mail');
  t.ok(resent.body.data.expires_at >= inv.expires_at, 'expiry starts again');
  t.equal(
    (await d.services.outbox.getOutboxEntry(operator, inv.outbox_entry_id)).status,
    'cancelled',
    'the old mail is cancelled',
  );
  const newToken = await w.tokenOf(inv.id);
  t.not(newToken, oldToken);
  expectFailure(t, await w.accept(inv.id, oldToken), 'json', 'invalid_token', 400);
  t.equal((await w.accept(inv.id, newToken)).status, 200, 'the new link works');
  const later = await request(d.url, 'POST', `/v1/invitations/${inv.id}/resend`, { headers: w.as(w.admin) });
  t.equal(later.status, 409, 'an accepted invitation cannot be re-sent');
  t.equal(later.body.error.code, 'invalid_state');
});

t.test(
  'create errors: 409 duplicate (case-insensitive), 403 non-admin, 404 other tenant, 401 anonymous, 422 bad body',
  async (t) => {
    const d = await startTestDaemon(t);
    const w = await world(t, d);
    t.equal((await w.invite('dup@example.com')).status, 201);
    const dup = await w.invite('  DUP@Example.com');
    t.equal(dup.status, 409);
    t.equal(dup.body.error.code, 'conflict');

    const byMember = await w.invite('x@example.com', 'member', w.member);
    t.equal(byMember.status, 403);
    t.equal(byMember.body.error.code, 'forbidden');
    const ownerRoleByAdmin = await w.invite('boss@example.com', 'owner', w.admin);
    t.equal(ownerRoleByAdmin.status, 403, 'only owners invite owners');
    t.equal((await w.invite('boss@example.com', 'owner', w.owner)).status, 201);

    const stranger = randomUUID();
    const otherOrg = await createOrganizationAs(d.url, asPrincipal(stranger), `other-${randomUUID().slice(0, 8)}`);
    const crossCreate = await w.invite('y@example.com', 'member', stranger);
    t.equal(crossCreate.status, 404, "creating in another tenant's organization is 404");
    const mine = (
      await request(d.url, 'POST', '/v1/invitations', {
        headers: asPrincipal(stranger),
        body: { organization_id: otherOrg.id, email: 'z@example.com', role: 'member' },
      })
    ).body.data;
    for (const [method, path] of [
      ['GET', `/v1/invitations/${mine.id}`],
      ['POST', `/v1/invitations/${mine.id}/revoke`],
      ['POST', `/v1/invitations/${mine.id}/resend`],
      ['GET', `/v1/invitations?organization_id=${otherOrg.id}`],
    ]) {
      const res = await request(d.url, method, path, { headers: w.as(w.admin) });
      t.equal(res.status, 404, `${method} ${path} of another tenant is 404`);
    }
    const unknown = await request(d.url, 'GET', `/v1/invitations/${randomUUID()}`, { headers: w.as(w.admin) });
    t.equal(unknown.status, 404);
    const memberReads = await request(d.url, 'GET', `/v1/invitations/${dup.body.error.details.invitation_id}`, {
      headers: w.as(w.member),
    });
    t.equal(memberReads.status, 403, 'a member sees the organization but may not read invitations');

    const anonymous = await request(d.url, 'POST', '/v1/invitations', {
      body: { organization_id: w.org.id, email: 'q@example.com', role: 'member' },
    });
    t.equal(anonymous.status, 401);
    const bad = await request(d.url, 'POST', '/v1/invitations', {
      headers: w.as(w.admin),
      body: { organization_id: 'nope', email: 'not an email', role: 'emperor' },
    });
    t.equal(bad.status, 422);
    t.same(Object.keys(bad.body.error.details.fields).sort(), ['email', 'organization_id', 'role']);
    const long = await w.invite(`${'a'.repeat(320)}@example.com`);
    t.equal(long.status, 422, 'oversized email refused');
  },
);

t.test('an ACL grant for invitation.create lets a non-admin invite; grants on the organization cover revoke', async (t) => {
  const d = await startTestDaemon(t);
  const w = await world(t, d);
  const helper = randomUUID();
  const joined = await request(d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.as(w.owner),
    body: { principal_id: helper, role: 'viewer' },
  });
  t.equal(joined.status, 201, 'the helper is a viewer');
  for (const action of ['invitation.create', 'invitation.revoke']) {
    const grant = await request(d.url, 'POST', `/v1/organizations/${w.org.id}/grants`, {
      headers: w.as(w.owner),
      body: { principal_id: helper, action, resource_type: 'organization', resource_id: w.org.id },
    });
    t.equal(grant.status, 201, `grant ${action}`);
  }
  // A grant delegates the action, never a role: the viewer invites viewers only.
  const above = await w.invite('above@example.com', 'member', helper);
  t.equal(above.status, 403, 'inviting above its own role is refused');
  t.equal(above.body.error.code, 'forbidden');
  const created = await w.invite('via-grant@example.com', 'viewer', helper);
  t.equal(created.status, 201);
  t.equal(created.body.data.created_by, helper);
  const revoked = await request(d.url, 'POST', `/v1/invitations/${created.body.data.id}/revoke`, { headers: w.as(helper) });
  t.equal(revoked.status, 200);
  const read = await request(d.url, 'GET', `/v1/invitations/${created.body.data.id}`, { headers: w.as(helper) });
  t.equal(read.status, 403, 'no grant to read');

  // A grant can name one invitation (resource type `invitation`); grants go to members, so the reader is a viewer.
  const inv = (await w.invite('single@example.com')).body.data;
  const reader = randomUUID();
  const readerJoined = await request(d.url, 'POST', `/v1/organizations/${w.org.id}/members`, {
    headers: w.as(w.owner),
    body: { principal_id: reader, role: 'viewer' },
  });
  t.equal(readerJoined.status, 201, 'the reader is a viewer');
  const grant = await request(d.url, 'POST', `/v1/organizations/${w.org.id}/grants`, {
    headers: w.as(w.owner),
    body: { principal_id: reader, action: 'invitation.read', resource_type: 'invitation', resource_id: inv.id },
  });
  t.equal(grant.status, 201);
  t.equal((await request(d.url, 'GET', `/v1/invitations/${inv.id}`, { headers: w.as(reader) })).status, 200);
  const other = (await w.invite('other@example.com')).body.data;
  t.equal(
    (await request(d.url, 'GET', `/v1/invitations/${other.id}`, { headers: w.as(reader) })).status,
    403,
    'other invitations stay unreadable: the grant names one',
  );
});
