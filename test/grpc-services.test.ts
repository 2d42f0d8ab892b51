// Every admin RPC against a real daemon, through the CLI's client: the operator's view of
// organizations, members, teams, grants and keys, in the same JSON shapes as the HTTP API.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import t, { type Test } from 'tap';
import { AdminClient, CliError } from '../src/cli/client.js';
import type { ApiKeyServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/ApiKeyService.js';
import type { DaemonServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/DaemonService.js';
import type { GrantServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/GrantService.js';
import type { MemberServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/MemberService.js';
import type { OrganizationServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/OrganizationService.js';
import type { PrincipalServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/PrincipalService.js';
import type { TeamServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/TeamService.js';
import type { Daemon } from '../src/main.js';
import { request, startTestDaemon } from './helpers.js';

function clientFor(t: Test, daemon: Daemon): AdminClient {
  const client = new AdminClient({ kind: 'unix', socketPath: daemon.grpc.socketPath });
  t.teardown(() => client.close());
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<CliError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof CliError)) throw new Error(`expected a CliError, got ${String(err)}`);
  return err;
}

t.test('organizations: create with an owner, get by id or slug, list in pages', async (t) => {
  const daemon = await startTestDaemon(t);
  const orgs = clientFor(t, daemon).service<OrganizationServiceDefinition>('OrganizationService');

  const { organization, owner } = await orgs.CreateOrganization({
    slug: 'Acme',
    display_name: 'Acme Inc.',
    owner_email: 'Boss@Example.com',
  });
  t.match(
    organization,
    { slug: 'acme', display_name: 'Acme Inc.', created_by: null },
    'slug normalised; created by the operator (null)',
  );
  t.match(owner, { organization_id: organization!.id, role: 'owner', team_id: null });
  const boss = await daemon.services.principals.getPrincipal(owner!.principal_id);
  t.equal(boss?.email, 'boss@example.com', 'the owner is the principal of that email');

  t.same(await orgs.GetOrganization({ organization: 'acme' }), organization, 'by slug');
  t.same(await orgs.GetOrganization({ organization: organization!.id }), organization, 'by id');

  const principal = randomUUID();
  const second = await orgs.CreateOrganization({ slug: 'beta', owner_principal_id: principal });
  t.equal(second.owner!.principal_id, principal, 'an existing principal as owner');
  const third = await orgs.CreateOrganization({ slug: 'gamma' });
  t.match(third.owner!.principal_id, /^[0-9a-f-]{36}$/, 'a new principal when none is given');

  const first = await orgs.ListOrganizations({ limit: 2, cursor: '' });
  t.equal(first.organizations.length, 2);
  t.not(first.next_cursor, '', 'a cursor while more remain');
  const rest = await orgs.ListOrganizations({ limit: 2, cursor: first.next_cursor });
  t.equal(rest.organizations.length, 1);
  t.equal(rest.next_cursor, '', 'empty at the end');
  t.same([...first.organizations, ...rest.organizations].map((o) => o.slug).sort(), ['acme', 'beta', 'gamma']);

  t.equal((await rejection(orgs.ListOrganizations({ limit: 500, cursor: '' }))).code, 'validation_failed', 'limit above 200');
  t.equal((await rejection(orgs.GetOrganization({ organization: '' }))).code, 'validation_failed', 'an empty reference');
  t.equal(
    (await rejection(orgs.CreateOrganization({ slug: 'x1', owner_principal_id: 'nope' }))).code,
    'validation_failed',
    'owner principal must be a UUID',
  );
});

t.test('members, teams and grants', async (t) => {
  const daemon = await startTestDaemon(t);
  const client = clientFor(t, daemon);
  const orgs = client.service<OrganizationServiceDefinition>('OrganizationService');
  const members = client.service<MemberServiceDefinition>('MemberService');
  const teams = client.service<TeamServiceDefinition>('TeamService');
  const grants = client.service<GrantServiceDefinition>('GrantService');
  const { organization } = await orgs.CreateOrganization({ slug: 'acme' });
  const org = organization!;

  const alice = randomUUID();
  const added = await members.AddMember({ organization: 'acme', principal_id: alice, role: 'member' });
  t.match(added, { organization_id: org.id, principal_id: alice, role: 'member', team_id: null });
  const raised = await members.UpdateMemberRole({ organization: org.id, membership_id: added.id, role: 'admin' });
  t.equal(raised.role, 'admin');
  t.equal(
    (await rejection(members.AddMember({ organization: 'acme', principal_id: alice, role: 'king' }))).code,
    'validation_failed',
    'unknown role',
  );
  t.equal(
    (await rejection(members.AddMember({ organization: 'acme', role: 'member' }))).code,
    'validation_failed',
    'neither principal nor email',
  );

  const team = await teams.CreateTeam({ organization: 'acme', name: ' Core ' });
  t.match(team, { organization_id: org.id, name: 'Core' });
  t.same(await teams.GetTeam({ organization: 'acme', team_id: team.id }), team);
  t.same((await teams.ListTeams({ organization: 'acme', limit: 0, cursor: '' })).teams, [team]);
  const onTeam = await members.AddMember({ organization: 'acme', email: 'bob@example.com', role: 'viewer', team_id: team.id });
  t.equal(onTeam.team_id, team.id);
  t.same(
    (await members.ListMembers({ organization: 'acme', team_id: team.id, limit: 0, cursor: '' })).memberships,
    [onTeam],
    'filtered by team',
  );
  t.equal(
    (await members.ListMembers({ organization: 'acme', limit: 0, cursor: '' })).memberships.length,
    3,
    'owner, alice and bob',
  );

  const grant = await grants.CreateGrant({
    organization: 'acme',
    principal_id: onTeam.principal_id,
    action: 'team.update',
    resource_type: 'team',
    resource_id: team.id,
  });
  t.match(grant, { action: 'team.update', resource_type: 'team', resource_id: team.id, created_by: null });
  t.same((await grants.ListGrants({ organization: 'acme', limit: 0, cursor: '' })).grants, [grant]);
  t.equal(
    (
      await rejection(
        grants.CreateGrant({
          organization: 'acme',
          principal_id: alice,
          action: 'fly',
          resource_type: 'team',
          resource_id: team.id,
        }),
      )
    ).code,
    'validation_failed',
  );
  t.same(await grants.DeleteGrant({ organization: 'acme', grant_id: grant.id }), grant, 'delete answers the grant');
  t.same((await grants.ListGrants({ organization: 'acme', limit: 0, cursor: '' })).grants, []);

  t.same(await members.RemoveMember({ organization: 'acme', membership_id: added.id }), raised, 'remove answers the membership');
  t.same(await teams.DeleteTeam({ organization: 'acme', team_id: team.id }), team);
  t.equal((await rejection(teams.GetTeam({ organization: 'acme', team_id: team.id }))).code, 'not_found');
  t.equal(
    (await members.ListMembers({ organization: 'acme', limit: 0, cursor: '' })).memberships.length,
    1,
    "the team's memberships went with it",
  );
  t.equal(
    (await rejection(members.RemoveMember({ organization: 'nope', membership_id: added.id }))).code,
    'not_found',
    'unknown organization',
  );
});

t.test('API keys: create, use over HTTP, list, revoke', async (t) => {
  const daemon = await startTestDaemon(t);
  const client = clientFor(t, daemon);
  const orgs = client.service<OrganizationServiceDefinition>('OrganizationService');
  const keys = client.service<ApiKeyServiceDefinition>('ApiKeyService');
  const { organization, owner } = await orgs.CreateOrganization({ slug: 'acme' });

  const beforeKey = Date.now();
  const created = await keys.CreateApiKey({ organization: 'acme', name: 'ci', scopes: [], expires_in_seconds: 3600 });
  const afterKey = Date.now();
  const key = created.api_key!;
  t.match(created.raw_key, /^svc_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43,}$/);
  t.match(key, {
    name: 'ci',
    organization_id: organization!.id,
    principal_id: owner!.principal_id,
    scopes: [],
    revoked_at: null,
    last_used_at: null,
  });
  const expiresAt = Date.parse(key.expires_at!);
  t.ok(expiresAt >= beforeKey + 3_600_000 && expiresAt <= afterKey + 3_600_000, 'expires in an hour');

  const auth = { authorization: `Bearer ${created.raw_key}` };
  const res = await request(daemon.url, 'GET', `/v1/organizations/${organization!.id}`, { headers: auth });
  t.equal(res.status, 200, 'the key works over HTTP');
  t.same(res.body.data, organization, 'gRPC and HTTP show the same organization object');

  const scoped = await keys.CreateApiKey({ organization: organization!.id, name: 'jobs', scopes: ['jobs:read'] });
  t.same(scoped.api_key!.scopes, ['jobs:read']);
  t.equal(scoped.api_key!.expires_at, null, 'no expiry by default');
  const listed = await keys.ListApiKeys({ organization: 'acme', limit: 0, cursor: '' });
  t.same(listed.api_keys.map((k) => k.id).sort(), [key.id, scoped.api_key!.id].sort());
  t.notOk(JSON.stringify(listed).includes(created.raw_key), 'a list never shows a key');

  const revoked = await keys.RevokeApiKey({ id: key.id });
  t.match(revoked, { id: key.id, revoked_at: String });
  t.equal(
    (await request(daemon.url, 'GET', `/v1/organizations/${organization!.id}`, { headers: auth })).status,
    401,
    'revoked on the next request',
  );
  t.same(
    (await keys.ListApiKeys({ organization: 'acme', limit: 0, cursor: '' })).api_keys.map((k) => k.id),
    [scoped.api_key!.id],
  );

  t.equal(
    (await rejection(keys.CreateApiKey({ organization: 'acme', name: 'x', scopes: [], principal_id: randomUUID() }))).code,
    'validation_failed',
    'the principal must be a member',
  );
  t.equal(
    (await rejection(keys.CreateApiKey({ organization: 'acme', name: 'x', scopes: [], expires_in_seconds: 5 }))).code,
    'validation_failed',
    'too short a lifetime',
  );
  t.equal((await rejection(keys.RevokeApiKey({ id: randomUUID() }))).code, 'not_found');
});

t.test('names alike ids, renames, principals by email, every key on request', async (t) => {
  const daemon = await startTestDaemon(t);
  const client = clientFor(t, daemon);
  const orgs = client.service<OrganizationServiceDefinition>('OrganizationService');
  const teams = client.service<TeamServiceDefinition>('TeamService');
  const members = client.service<MemberServiceDefinition>('MemberService');
  const keys = client.service<ApiKeyServiceDefinition>('ApiKeyService');
  const principals = client.service<PrincipalServiceDefinition>('PrincipalService');
  const { organization } = await orgs.CreateOrganization({ slug: 'acme', owner_email: 'boss@example.com' });

  const team = await teams.CreateTeam({ organization: 'acme', name: 'platform' });
  t.same(await teams.GetTeam({ organization: 'acme', team_id: 'Platform' }), team, 'a team by name');
  t.same(await teams.GetTeam({ organization: '', team_id: team.id }), team, 'by id, no organization');
  t.equal((await rejection(teams.GetTeam({ organization: '', team_id: 'platform' }))).code, 'not_found', 'a name needs one');
  t.equal((await rejection(teams.CreateTeam({ organization: 'acme', name: 'PLATFORM' }))).code, 'conflict', 'ALREADY_EXISTS');
  const renamed = await teams.UpdateTeam({ organization: 'acme', team_id: 'platform', name: 'core' });
  t.same(renamed, { ...team, name: 'core' });
  t.equal((await rejection(teams.UpdateTeam({ organization: '', team_id: team.id, name: '' }))).code, 'validation_failed');

  const added = await members.AddMember({ organization: 'acme', email: 'Ann@Example.com', role: 'viewer', team_id: 'core' });
  t.match(added, { team_id: team.id, email: 'ann@example.com' }, 'team by name; the answer carries the email');
  const listed = await members.ListMembers({ organization: 'acme', team_id: 'core', limit: 0, cursor: '' });
  t.same(
    listed.memberships.map((m) => m.email),
    ['ann@example.com'],
  );
  const details = await principals.GetPrincipal({ principal: 'ann@example.com' });
  t.match(details, {
    principal: { id: added.principal_id, email: 'ann@example.com' },
    organizations: [{ slug: 'acme', role: null, membership_id: null, teams: [{ team_name: 'core', role: 'viewer' }] }],
  });
  t.equal((await rejection(principals.GetPrincipal({ principal: '' }))).code, 'validation_failed');

  const key = (await keys.CreateApiKey({ organization: 'acme', name: 'ci', scopes: [], principal_id: 'boss@example.com' }))
    .api_key!;
  t.same(await keys.GetApiKey({ id: 'CI', organization: 'acme' }), key, 'a key by name');
  t.same(await keys.GetApiKey({ id: key.id, organization: '' }), key, 'by id');
  t.equal((await rejection(keys.GetApiKey({ id: 'ci', organization: '' }))).code, 'not_found', 'a name needs an organization');
  t.equal((await rejection(keys.CreateApiKey({ organization: 'acme', name: 'ci', scopes: [] }))).code, 'conflict');
  await keys.RevokeApiKey({ id: 'ci', organization: 'acme' });
  const every = await keys.ListApiKeys({ organization: 'acme', limit: 0, cursor: '', include_revoked: true });
  t.match(every.api_keys, [{ id: key.id, revoked_at: String, revoked_reason: 'revoked' }]);
  t.same((await keys.ListApiKeys({ organization: 'acme', limit: 0, cursor: '' })).api_keys, []);

  const org = await orgs.UpdateOrganization({ organization: 'acme', slug: 'acme-2' });
  t.match(org, { id: organization!.id, slug: 'acme-2', display_name: 'acme' });
  await orgs.CreateOrganization({ slug: 'beta' });
  t.equal((await rejection(orgs.UpdateOrganization({ organization: 'acme-2', slug: 'beta' }))).code, 'conflict');
});

t.test('daemon status: facts, loops and counts', async (t) => {
  const daemon = await startTestDaemon(t);
  const client = clientFor(t, daemon);
  await client.service<OrganizationServiceDefinition>('OrganizationService').CreateOrganization({ slug: 'acme' });
  const s = await client.service<DaemonServiceDefinition>('DaemonService').GetStatus({});
  t.match(s, {
    state: 'running',
    env: 'development',
    data_dir: daemon.config.dataDir,
    http_url: daemon.url,
    grpc_socket: daemon.grpc.socketPath,
    grpc_address: null,
  });
  t.equal(s.started_at, daemon.startedAt.toISOString());
  t.ok(s.uptime_seconds >= 0 && s.uptime_seconds < 60);
  t.same(
    s.loops.map((l) => l.name),
    daemon.loops.status().map((l) => l.name),
    'every loop of the daemon',
  );
  t.match(s.counts, { organizations: 1, memberships: 1, principals: 1, api_keys: 0 });
});

t.test('no daemon: one clear error, no gRPC trace', async (t) => {
  const socketPath = path.join(t.testdir(), 'admin.sock');
  const client = new AdminClient({ kind: 'unix', socketPath });
  t.teardown(() => client.close());
  const err = await rejection(client.service<DaemonServiceDefinition>('DaemonService').GetStatus({}));
  t.equal(err.code, 'unavailable');
  t.equal(err.message, `no daemon at ${socketPath}: start it with \`switchyard serve\``);

  const tcp = new AdminClient({ kind: 'tcp', address: '127.0.0.1:1', token: undefined });
  t.teardown(() => tcp.close());
  const refused = await rejection(tcp.service<DaemonServiceDefinition>('DaemonService').GetStatus({}));
  t.equal(refused.message, 'no daemon at 127.0.0.1:1: start it with `switchyard serve`');
});
