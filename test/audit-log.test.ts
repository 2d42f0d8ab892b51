// Issue 15 item 2: every change made by a person, a key or the operator is in the audit log once,
// with its actor, target, changed fields (never a secret), time, request id and source, written in
// the change's own transaction; an organization's log is for its admins only (another's is 404).
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import t, { type Test } from 'tap';
import { AdminClient } from '../src/cli/client.js';
import { operator } from '../src/domain/identity/caller.js';
import type { AuditServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/AuditService.js';
import type { MemberServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/MemberService.js';
import type { OrganizationServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/OrganizationService.js';
import type { ProviderServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/ProviderService.js';
import type { TeamServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/TeamService.js';
import type { Daemon } from '../src/main.js';
import {
  asPrincipal,
  bearer,
  cliCleanEnv,
  createOrganizationAs,
  privateDir,
  request,
  spawnDaemon,
  spawnSwitchyard,
  startTestDaemon,
} from './helpers.js';

interface AuditRecord {
  id: string;
  organization_id: string | null;
  actor: { type: string; principal_id?: string; api_key_id?: string; method?: string };
  action: string;
  target: { type: string; id: string };
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
  timestamp: string;
  request_id: string | null;
  source: string;
}

function clientFor(t: Test, daemon: Daemon): AdminClient {
  const client = new AdminClient({ kind: 'unix', socketPath: daemon.grpc.socketPath });
  t.teardown(() => client.close());
  return client;
}

/** Every record of the organization's audit log, through the HTTP API and its cursors. */
async function auditOf(d: Daemon, orgId: string, as: Record<string, string>, query = ''): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  let cursor = '';
  do {
    const sep = query === '' ? '?' : `?${query}&`;
    const res = await request(d.url, 'GET', `/v1/organizations/${orgId}/audit-log${sep}limit=7${cursor}`, { headers: as });
    if (res.status !== 200) throw new Error(`audit-log answered ${res.status}: ${JSON.stringify(res.body)}`);
    records.push(...(res.body.data as AuditRecord[]));
    cursor = res.body.meta.next_cursor === null ? '' : `&cursor=${res.body.meta.next_cursor}`;
  } while (cursor !== '');
  return records;
}

/** A request with a request id of our choosing, so the record can be matched to it. */
function call(d: Daemon, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const requestId = `req-${randomUUID()}`;
  return request(d.url, method, path, { headers: { ...headers, 'x-request-id': requestId }, body }).then((res) => ({
    ...res,
    requestId,
  }));
}

t.test('each change over HTTP is recorded once, with the person, the request id and the changed fields', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1' });
  const owner = randomUUID();
  const as = asPrincipal(owner);
  const created = await call(d, 'POST', '/v1/organizations', as, { slug: `audit-${randomUUID().slice(0, 8)}` });
  t.equal(created.status, 201);
  const org = created.body.data.id as string;
  const expected: { action: string; requestId: string; target: string }[] = [
    { action: 'organization.create', requestId: created.requestId, target: org },
  ];
  const expect = (action: string, res: { requestId: string; status: number }, target: string, status = 200) => {
    t.equal(res.status, status, `${action} answered ${status}`);
    expected.push({ action, requestId: res.requestId, target });
  };

  const renamed = await call(d, 'PATCH', `/v1/organizations/${org}`, as, { display_name: 'Audit Inc.' });
  expect('organization.update', renamed, org);
  const member = randomUUID();
  const added = await call(d, 'POST', `/v1/organizations/${org}/members`, as, { principal_id: member, role: 'viewer' });
  expect('member.create', added, added.body.data.id, 201);
  const raised = await call(d, 'PATCH', `/v1/organizations/${org}/members/${added.body.data.id}`, as, { role: 'member' });
  expect('member.update', raised, added.body.data.id);
  const team = await call(d, 'POST', `/v1/organizations/${org}/teams`, as, { name: 'platform' });
  expect('team.create', team, team.body.data.id, 201);
  const grant = await call(d, 'POST', `/v1/organizations/${org}/grants`, as, {
    principal_id: member,
    action: 'team.read',
    resource_type: 'team',
    resource_id: team.body.data.id,
  });
  expect('grant.create', grant, grant.body.data.id, 201);
  const grantGone = await call(d, 'DELETE', `/v1/organizations/${org}/grants/${grant.body.data.id}`, as);
  expect('grant.delete', grantGone, grant.body.data.id);
  const teamGone = await call(d, 'DELETE', `/v1/organizations/${org}/teams/${team.body.data.id}`, as);
  expect('team.delete', teamGone, team.body.data.id);
  const key = await call(d, 'POST', '/v1/api-keys', as, { name: 'ci', organization_id: org });
  expect('apikey.create', key, key.body.data.id, 201);
  const revoked = await call(d, 'DELETE', `/v1/api-keys/${key.body.data.id}`, as);
  expect('apikey.revoke', revoked, key.body.data.id);
  const settings = await call(d, 'PUT', `/v1/organizations/${org}/settings`, as, { max_pending_invitations: 7 });
  expect('settings.update', settings, org);
  const invited = await call(d, 'POST', '/v1/invitations', as, {
    organization_id: org,
    email: 'Ann@Example.com',
    role: 'member',
  });
  expect('invitation.create', invited, invited.body.data.id, 201);
  const resent = await call(d, 'POST', `/v1/invitations/${invited.body.data.id}/resend`, as);
  expect('invitation.resend', resent, invited.body.data.id);
  const other = await call(d, 'POST', '/v1/invitations', as, { organization_id: org, email: 'bob@example.com', role: 'viewer' });
  expect('invitation.create', other, other.body.data.id, 201);
  const page = await d.services.outbox.listOutbox(operator, { organization_id: org, limit: 200 });
  const mail = page.items.find((e) => e.invitation_id === other.body.data.id && e.accept_url !== null)!;
  const token = new URL(mail.accept_url!).searchParams.get('token')!;
  const accepted = await call(d, 'GET', `/v1/invitations/${other.body.data.id}/accept?token=${token}`, {});
  expect('invitation.accept', accepted, other.body.data.id);
  const revokedInvite = await call(d, 'POST', `/v1/invitations/${invited.body.data.id}/revoke`, as);
  expect('invitation.revoke', revokedInvite, invited.body.data.id);
  const hook = await call(d, 'POST', `/v1/organizations/${org}/webhooks`, as, {
    url: 'http://127.0.0.1:9/hook',
    state: { a: 1 },
  });
  expect('webhook.create', hook, hook.body.data.id, 201);
  const paused = await call(d, 'PATCH', `/v1/webhooks/${hook.body.data.id}`, as, { active: false });
  expect('webhook.update', paused, hook.body.data.id);
  const rotated = await call(d, 'POST', `/v1/webhooks/${hook.body.data.id}/rotate-secret`, as, {});
  expect('webhook.rotate_secret', rotated, hook.body.data.id);
  const hookGone = await call(d, 'DELETE', `/v1/webhooks/${hook.body.data.id}`, as);
  expect('webhook.delete', hookGone, hook.body.data.id);
  const removed = await call(d, 'DELETE', `/v1/organizations/${org}/members/${added.body.data.id}`, as);
  expect('member.delete', removed, added.body.data.id);

  // A refused change leaves no record: a team name the organization already has.
  const taken = await call(d, 'POST', `/v1/organizations/${org}/teams`, as, { name: 'platform' });
  t.equal(taken.status, 201);
  expected.push({ action: 'team.create', requestId: taken.requestId, target: taken.body.data.id });
  const refused = await call(d, 'POST', `/v1/organizations/${org}/teams`, as, { name: 'Platform' });
  t.equal(refused.status, 409, 'the same name again is refused');

  const invitee = (await request(d.url, 'GET', `/v1/invitations/${other.body.data.id}`, { headers: as })).body.data.accepted_by;
  t.match(invitee, /^[0-9a-f-]{36}$/, 'the invitee became a principal');
  const records = await auditOf(d, org, as);
  t.same(
    records.map((r) => [r.action, r.request_id, r.target.id]),
    expected.map((e) => [e.action, e.requestId, e.target]),
    'every change once, in order, with the request id it came with and its target',
  );
  for (const r of records) {
    t.equal(r.source, 'http', `${r.action}: through HTTP`);
    t.equal(r.organization_id, org);
    t.match(r.id, /^aud_[0-9A-Z]{26}$/);
    t.match(r.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    if (r.action === 'invitation.accept')
      t.same(
        r.actor,
        { type: 'principal', principal_id: invitee, method: 'invitation_link' },
        'an anonymous accept: the invitee, by link',
      );
    else t.same(r.actor, { type: 'principal', principal_id: owner, method: 'dev' }, `${r.action}: by the owner`);
  }
  const byAction = (action: string) => records.find((r) => r.action === action)!;
  t.same(byAction('organization.update').changes, {
    before: { display_name: created.body.data.display_name },
    after: { display_name: 'Audit Inc.' },
  });
  t.same(byAction('member.update').changes, { before: { role: 'viewer' }, after: { role: 'member' } }, 'only the changed field');
  t.same(byAction('settings.update').changes, {
    before: { max_pending_invitations: null },
    after: { max_pending_invitations: 7 },
  });
  t.equal(byAction('member.create').changes.before, null, 'a creation has no before');
  t.equal(byAction('member.delete').changes.after, null, 'a deletion has no after');
  t.same(byAction('webhook.update').changes, { before: { active: true }, after: { active: false } });
  t.match(
    byAction('webhook.rotate_secret').changes,
    {
      before: { secret_sealed: '[redacted]', previous_secret_sealed: null, previous_secret_expires_at: null },
      after: { secret_sealed: '[redacted]', previous_secret_sealed: '[redacted]', previous_secret_expires_at: String },
    },
    'a rotation says the secret changed, never what it is',
  );
  t.same(byAction('apikey.revoke').changes.after, { revoked_at: revoked.body.data.revoked_at, revoked_reason: 'revoked' });

  // Nothing secret in any record: raw key, its hash, webhook secrets (raw and sealed), invitation tokens.
  const text = JSON.stringify(records);
  // What the store keeps of the key (contract 4: SHA-256 of the whole key, hex), on either engine.
  const keyHash = createHash('sha256')
    .update(key.body.data.raw_key as string)
    .digest('hex');
  for (const [what, secret] of [
    ['raw key', key.body.data.raw_key as string],
    ['key hash', keyHash],
    ['webhook secret', hook.body.data.secret as string],
    ['rotated secret', rotated.body.data.secret as string],
    ['invitation token', token],
  ] as const)
    t.notOk(text.includes(secret), `no ${what} in the audit log`);
  t.notOk(/"token_hash":"[0-9a-f]/.test(text), 'no token hash');
  t.notOk(/"key_hash":"[0-9a-f]/.test(text), 'no key hash');
  t.notOk(/sealed":"(?!\[redacted\])/.test(text), 'no sealed secret');

  // Webhook receivers see only the catalog's kinds: the audit log adds nothing to the event log.
  const events = await request(d.url, 'GET', `/v1/organizations/${org}/events?limit=200`, { headers: as });
  t.same(
    [...new Set((events.body.data as { kind: string }[]).map((e) => e.kind))].sort(),
    [
      'invitation.accepted',
      'invitation.created',
      'invitation.revoked',
      'member.added',
      'member.removed',
      'member.role_changed',
      'organization.created',
    ],
    'the event log holds domain events only',
  );
});

t.test('filters: actor, action, both, and a time window; cursors page through each', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const as = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, as, `f-${randomUUID().slice(0, 8)}`);
  const admin = randomUUID();
  await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: as,
    body: { principal_id: admin, role: 'admin' },
  });
  const before = new Date().toISOString();
  for (let i = 0; i < 9; i++) {
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/teams`, {
      headers: asPrincipal(admin),
      body: { name: `t${i}` },
    });
    t.equal(res.status, 201);
  }
  const between = new Date(Date.now() + 2).toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  await request(d.url, 'PATCH', `/v1/organizations/${org.id}`, { headers: asPrincipal(admin), body: { display_name: 'F' } });

  const all = await auditOf(d, org.id, as);
  t.same(
    all.map((r) => r.action),
    ['organization.create', 'member.create', ...Array<string>(9).fill('team.create'), 'organization.update'],
  );
  const byAdmin = await auditOf(d, org.id, as, `actor=${admin}`);
  t.equal(byAdmin.length, 10, "the admin's changes, over two pages");
  t.ok(byAdmin.every((r) => r.actor.principal_id === admin));
  const teams = await auditOf(d, org.id, as, 'action=team.create');
  t.equal(teams.length, 9, 'one action');
  t.equal((await auditOf(d, org.id, as, `actor=${owner}&action=team.create`)).length, 0, 'actor and action together');
  t.equal((await auditOf(d, org.id, as, `actor=${admin}&action=organization.update`)).length, 1);
  const windowed = await auditOf(d, org.id, as, `since=${before}&until=${between}`);
  t.same(
    windowed.map((r) => r.action),
    Array<string>(9).fill('team.create'),
    'since (inclusive) to until (exclusive)',
  );
  t.equal((await auditOf(d, org.id, as, `since=${between}`)).length, 1, 'after the window');

  const bad = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log?actor=someone&since=yesterday`, { headers: as });
  t.equal(bad.status, 400);
  t.match(bad.body.error, { code: 'invalid_request' });
  const backwards = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log?since=${between}&until=${before}`, {
    headers: as,
  });
  t.equal(backwards.status, 400, 'until before since');
});

t.test('who may read it: admins of the organization; members are refused; another organization is 404', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), `r-${randomUUID().slice(0, 8)}`);
  const member = randomUUID();
  await request(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
    headers: asPrincipal(owner),
    body: { principal_id: member, role: 'member' },
  });
  const stranger = randomUUID();
  const theirs = await createOrganizationAs(d.url, asPrincipal(stranger), `s-${randomUUID().slice(0, 8)}`);

  const asMember = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log`, { headers: asPrincipal(member) });
  t.equal(asMember.status, 403, 'a member may not read it');
  const asStranger = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log`, { headers: asPrincipal(stranger) });
  t.equal(asStranger.status, 404, "another organization's audit log is not found");
  const anonymous = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log`);
  t.equal(anonymous.status, 401);
  t.equal((await auditOf(d, theirs.id, asPrincipal(stranger))).length, 1, 'each sees its own');
});

t.test('through an API key: the key is the actor, with the principal it acts as', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), `k-${randomUUID().slice(0, 8)}`);
  const key = await request(d.url, 'POST', '/v1/api-keys', {
    headers: asPrincipal(owner),
    body: { name: 'bot', organization_id: org.id },
  });
  const viaKey = await request(d.url, 'POST', `/v1/organizations/${org.id}/teams`, {
    headers: bearer(key.body.data.raw_key),
    body: { name: 'robots' },
  });
  t.equal(viaKey.status, 201);
  const records = await auditOf(d, org.id, bearer(key.body.data.raw_key), `actor=${key.body.data.id}`);
  t.equal(records.length, 1);
  t.same(records[0].actor, { type: 'api_key', api_key_id: key.body.data.id, principal_id: owner });
  t.equal(records[0].action, 'team.create');
  t.equal(records[0].target.id, viaKey.body.data.id);
});

t.test('through the admin API: the operator, over gRPC, with the request id the client sent', async (t) => {
  const d = await startTestDaemon(t);
  const client = clientFor(t, d);
  const { organization, owner } = await client
    .service<OrganizationServiceDefinition>('OrganizationService')
    .CreateOrganization({ slug: `op-${randomUUID().slice(0, 8)}`, owner_email: 'boss@example.com' });
  const org = organization!.id;
  const team = await client.service<TeamServiceDefinition>('TeamService').CreateTeam({ organization: org, name: 'ops' });
  await client
    .service<MemberServiceDefinition>('MemberService')
    .AddMember({ organization: org, principal_id: randomUUID(), role: 'viewer' });
  const provider = await client
    .service<ProviderServiceDefinition>('ProviderService')
    .SetProvider({ name: 'echo', cost_usd: 0.5 });
  t.equal(provider.name, 'echo');

  const audit = client.service<AuditServiceDefinition>('AuditService');
  const page = await audit.ListAuditLog({ organization: organization!.slug, limit: 0, cursor: '' });
  t.same(
    page.records.map((r) => r.action),
    ['organization.create', 'team.create', 'member.create'],
  );
  for (const r of page.records) {
    t.same(
      r.actor,
      { type: 'operator', principal_id: null, api_key_id: null, method: null, portal_session_id: null },
      `${r.action}: the operator`,
    );
    t.equal(r.source, 'grpc');
    t.match(r.request_id, /^[0-9a-f-]{36}$/, 'a request id of its own when the client sent none');
  }
  t.equal(page.records[1].target!.id, team.id);
  t.equal(page.records[0].after!.owner_principal_id, owner!.principal_id);
  const filtered = await audit.ListAuditLog({
    organization: org,
    actor: 'operator',
    action: 'team.create',
    limit: 0,
    cursor: '',
  });
  t.equal(filtered.records.length, 1, 'filters over gRPC');

  const outside = await audit.ListAuditLog({ organization: '', limit: 0, cursor: '' });
  t.same(
    outside.records.map((r) => [r.action, r.target!.id, r.after]),
    [['provider.update', 'echo', { cost_usd: 0.5 }]],
    'provider settings: recorded outside any organization',
  );

  const http = await request(d.url, 'GET', `/v1/organizations/${org}/audit-log`, { headers: asPrincipal(owner!.principal_id) });
  t.equal(http.body.data.length, 3, 'the owner reads the operator-made changes over HTTP');
});

t.test('switchyard audit list: the JSON of the HTTP API, a table, filters, and usage errors', async (t) => {
  const dataDir = privateDir();
  const socket = path.join(dataDir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], { SERVICE_DATA_DIR: dataDir });
  const sy = async (...args: string[]) => {
    const run = spawnSwitchyard(t, ['--socket', socket, ...args], cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), `cli-${randomUUID().slice(0, 8)}`);
  const team = await sy('team', 'create', 'ops', '--org', org.slug, '--json');
  t.equal(team.code, 0, team.stderr);

  const listed = await sy('audit', 'list', '--org', org.slug, '--json');
  t.equal(listed.code, 0, listed.stderr);
  const records = JSON.parse(listed.stdout) as AuditRecord[];
  t.same(
    records.map((r) => [r.action, r.actor.type, r.source]),
    [
      ['organization.create', 'principal', 'http'],
      ['team.create', 'operator', 'grpc'],
    ],
  );
  const http = await request(d.url, 'GET', `/v1/organizations/${org.id}/audit-log`, { headers: asPrincipal(owner) });
  t.same(
    records.map((r) => ({ ...r, actor: { ...r.actor } })),
    (http.body.data as AuditRecord[]).map((r) => ({
      ...r,
      actor: { principal_id: null, api_key_id: null, method: null, portal_session_id: null, ...r.actor },
    })),
    'the same records as over HTTP (unset actor fields are null)',
  );

  const table = await sy('audit', 'list', '--org', org.slug, '--action', 'team.create');
  t.equal(table.code, 0);
  t.match(table.stdout, /TIME\s+ACTOR\s+ACTION\s+TARGET\s+VIA\s+CHANGES/);
  t.match(table.stdout, /operator\s+team\.create\s+team [0-9a-f-]{36}\s+grpc/);
  t.notMatch(table.stdout, /organization\.create/, 'filtered by action');

  const bad = await sy('audit', 'list', '--org', org.slug, '--since', 'last week', '--json');
  t.equal(bad.code, 1, 'a bad filter is refused by the daemon');
  t.match(JSON.parse(bad.stderr), { error: { code: 'validation_failed' } });
});
