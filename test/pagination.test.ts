// Pages that mean what they say: every list, over HTTP /v1 and the gRPC admin API, walked with
// limits 1, 2 and 3, adds up to the whole list (same ids, same order, none twice); every page but
// the last is full, no page is empty unless it is the only one, and next_cursor is null exactly on
// the last page. The data interleaves what the filters keep with what they drop (other principals'
// keys, other teams' members, other statuses and kinds), which thinned pages when lists filtered
// after the range read.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { AdminClient } from '../src/cli/client.js';
import { operator } from '../src/domain/identity/caller.js';
import type { ApiKeyServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/ApiKeyService.js';
import type { GrantServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/GrantService.js';
import type { InvitationServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/InvitationService.js';
import type { MemberServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/MemberService.js';
import type { OrganizationServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/OrganizationService.js';
import type { OutboxServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/OutboxService.js';
import type { TeamServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/TeamService.js';
import type { Daemon } from '../src/main.js';
import { fakeProvider } from './fakes/email-provider.js';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

interface Page {
  ids: string[];
  next: string | null;
}
/** One page of a list: `cursor` null for the first. */
type FetchPage = (limit: number, cursor: string | null) => Promise<Page>;

const LIMITS = [1, 2, 3];

/**
 * Walks the list with each small limit and checks the pages against the whole list (one page of
 * 200). `expected`, when given, is the list's content in any order.
 */
async function checkPages(t: Test, name: string, fetch: FetchPage, expected?: string[]): Promise<string[]> {
  const whole = await fetch(200, null);
  t.equal(whole.next, null, `${name}: the whole list fits one page of 200`);
  t.equal(new Set(whole.ids).size, whole.ids.length, `${name}: no id twice`);
  if (expected !== undefined) t.same([...whole.ids].sort(), [...expected].sort(), `${name}: exactly the expected items`);
  for (const limit of LIMITS) {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await fetch(limit, cursor);
      pages.push(page);
      cursor = page.next;
      if (pages.length > whole.ids.length + 1) throw new Error(`${name}: paging with limit ${limit} does not end`);
    } while (cursor !== null);
    t.same(
      pages.flatMap((p) => p.ids),
      whole.ids,
      `${name}, limit ${limit}: the pages add up to the whole list, in order`,
    );
    const sizes = pages.map((p) => p.ids.length);
    const last = sizes[sizes.length - 1];
    t.ok(
      sizes.slice(0, -1).every((n) => n === limit) && last <= limit && (last > 0 || sizes.length === 1),
      `${name}, limit ${limit}: every page but the last is full, the last is not empty (sizes ${sizes.join(',')})`,
    );
  }
  return whole.ids;
}

/** A /v1 list as `headers`' caller; the path may carry a query already. */
function httpList(base: string, headers: Record<string, string>, path: string): FetchPage {
  return async (limit, cursor) => {
    const query = `limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await request(base, 'GET', `${path}${path.includes('?') ? '&' : '?'}${query}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return { ids: (res.body.data as { id: string }[]).map((item) => item.id), next: res.body.meta.next_cursor as string | null };
  };
}

/** A gRPC list: an empty next_cursor ends it. */
function grpcList<R extends { next_cursor: string }>(
  call: (page: { limit: number; cursor: string }) => Promise<R>,
  items: (response: R) => { id: string }[],
): FetchPage {
  return async (limit, cursor) => {
    const response = await call({ limit, cursor: cursor ?? '' });
    return { ids: items(response).map((item) => item.id), next: response.next_cursor === '' ? null : response.next_cursor };
  };
}

async function ok<T = any>(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<T> {
  const res = await request(base, method, path, { headers, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

interface World {
  daemon: Daemon;
  /** Owns organizations a..g, each also with a team-level membership; a team member of q's two. */
  p: string;
  q: string;
  orgsOfP: string[];
  orgsOfQ: string[];
  orgA: string;
  orgB: string;
  /** A's teams: t1 with six members, t2 with grants only, t3 empty. */
  t1: string;
  t3: string;
  members: string[];
  t1Members: string[];
  /** Members of A at organization level with the member role: m1 and m2 hold keys, m3 none. */
  m1: string;
  m3: string;
  activeKeys: string[];
  m1ActiveKeys: string[];
  grants: string[];
  invitations: { id: string; status: 'pending' | 'revoked'; outbox: string; mail: 'sent' | 'failed' }[];
  outboxOfB: string[];
}

async function buildWorld(t: Test): Promise<World> {
  const fake = await fakeProvider(t);
  const daemon = await startTestDaemon(t, {
    EMAIL_PROVIDER_API_KEY: fake.apiKey,
    EMAIL_PROVIDER_BASE_URL: fake.url,
    SERVICE_OUTBOX_POLL_MS: '50',
    // One retry, at once: a failing provider leaves mail `failed` within a poll or two.
    SERVICE_OUTBOX_RETRY_DELAYS_MS: '1',
  });
  const base = daemon.url;
  const p = randomUUID();
  const q = randomUUID();
  const suffix = randomUUID().slice(0, 8);

  // p owns seven organizations and is also a team-level member in each: two memberships apiece.
  const orgsOfP: string[] = [];
  const teamOf = new Map<string, string>();
  for (const letter of 'abcdefg') {
    const org = await createOrganizationAs(base, asPrincipal(p), `pages-${letter}-${suffix}`);
    const team = await ok<{ id: string }>(base, 'POST', `/v1/organizations/${org.id}/teams`, asPrincipal(p), { name: 'core' });
    await ok(base, 'POST', `/v1/organizations/${org.id}/members`, asPrincipal(p), {
      principal_id: p,
      role: 'member',
      team_id: team.id,
    });
    orgsOfP.push(org.id);
    teamOf.set(org.id, team.id);
  }
  // q's two organizations reach p only through a team.
  const orgsOfQ: string[] = [];
  for (const letter of 'hi') {
    const org = await createOrganizationAs(base, asPrincipal(q), `pages-${letter}-${suffix}`);
    const team = await ok<{ id: string }>(base, 'POST', `/v1/organizations/${org.id}/teams`, asPrincipal(q), { name: 'guests' });
    await ok(base, 'POST', `/v1/organizations/${org.id}/members`, asPrincipal(q), {
      principal_id: p,
      role: 'viewer',
      team_id: team.id,
    });
    orgsOfQ.push(org.id);
  }

  const [orgA, orgB] = orgsOfP;
  const t1 = teamOf.get(orgA)!;
  const t2 = (await ok<{ id: string }>(base, 'POST', `/v1/organizations/${orgA}/teams`, asPrincipal(p), { name: 'two' })).id;
  const t3 = (await ok<{ id: string }>(base, 'POST', `/v1/organizations/${orgA}/teams`, asPrincipal(p), { name: 'three' })).id;

  // A's memberships, organization- and team-level interleaved: p (owner), p on t1, then these.
  const members: string[] = [];
  const t1Members: string[] = [];
  const collect = (m: { id: string; team_id: string | null }) => {
    members.push(m.id);
    if (m.team_id === t1) t1Members.push(m.id);
  };
  const [m1, m2, m3, admin, viewer] = Array.from({ length: 5 }, () => randomUUID());
  const add = async (principal: string, role: string, teamId?: string) => {
    const m = await ok<{ id: string; team_id: string | null }>(
      base,
      'POST',
      `/v1/organizations/${orgA}/members`,
      asPrincipal(p),
      { principal_id: principal, role, ...(teamId === undefined ? {} : { team_id: teamId }) },
    );
    collect(m);
  };
  await add(m1, 'member');
  await add(randomUUID(), 'member', t1);
  await add(m2, 'member');
  await add(randomUUID(), 'viewer', t1);
  await add(m3, 'member');
  await add(m2, 'admin', t1);
  await add(admin, 'admin');
  await add(randomUUID(), 'member', t1);
  await add(viewer, 'viewer');
  await add(randomUUID(), 'viewer', t1);
  await add(randomUUID(), 'member');
  // 11 members above plus p's two memberships, read back from the store for their ids.
  const pMemberships = (await daemon.services.memberships.listMembers(operator, orgA, { limit: 200 })).items.filter(
    (m) => m.principal_id === p,
  );
  for (const m of pMemberships) collect(m);

  // Grants on t2 for a few members (grants go to members only), so A's grant list has several entries.
  const grants: string[] = [];
  for (const principal of [viewer, m3, m1, admin, m2]) {
    const g = await ok<{ id: string }>(base, 'POST', `/v1/organizations/${orgA}/grants`, asPrincipal(p), {
      principal_id: principal,
      action: 'team.read',
      resource_type: 'team',
      resource_id: t2,
    });
    grants.push(g.id);
  }

  // API keys of three principals, interleaved; one of m1's and one of m2's revoked.
  const activeKeys: string[] = [];
  const m1ActiveKeys: string[] = [];
  const key = async (principal: string, name: string) =>
    (await ok<{ id: string }>(base, 'POST', '/v1/api-keys', asPrincipal(principal), { name, organization_id: orgA })).id;
  const keys = {
    p1: await key(p, 'p1'),
    m1a: await key(m1, 'm1a'),
    m2a: await key(m2, 'm2a'),
    m1b: await key(m1, 'm1b'),
    p2: await key(p, 'p2'),
    m1c: await key(m1, 'm1c'),
    m2b: await key(m2, 'm2b'),
    p3: await key(p, 'p3'),
  };
  await ok(base, 'DELETE', `/v1/api-keys/${keys.m1b}`, asPrincipal(p));
  await ok(base, 'DELETE', `/v1/api-keys/${keys.m2a}`, asPrincipal(m2));
  for (const [name, id] of Object.entries(keys)) {
    if (name === 'm1b' || name === 'm2a') continue;
    activeKeys.push(id);
    if (name.startsWith('m1')) m1ActiveKeys.push(id);
  }

  // Invitations to A: the provider fails every other mail (`failed` after its one retry), and every
  // third invitation is revoked once its mail is settled. B gets three that all send.
  const invitations: World['invitations'] = [];
  const invite = async (org: string, email: string) =>
    ok<{ id: string; outbox_entry_id: string }>(base, 'POST', '/v1/invitations', asPrincipal(p), {
      organization_id: org,
      email,
      role: 'member',
    });
  const settled = async (outboxId: string): Promise<'sent' | 'failed'> => {
    let status = '';
    await waitFor(
      async () => {
        status = (await daemon.services.outbox.getOutboxEntry(operator, outboxId)).status;
        return status === 'sent' || status === 'failed';
      },
      { what: `outbox entry ${outboxId} to settle` },
    );
    return status as 'sent' | 'failed';
  };
  for (let i = 0; i < 8; i++) {
    fake.setDefault(i % 2 === 0 ? { kind: 'status', status: 500 } : { kind: 'ok' });
    const inv = await invite(orgA, `guest-${i}@example.com`);
    const mail = await settled(inv.outbox_entry_id);
    let status: 'pending' | 'revoked' = 'pending';
    if (i % 3 === 1) {
      await ok(base, 'POST', `/v1/invitations/${inv.id}/revoke`, asPrincipal(p));
      status = 'revoked';
    }
    invitations.push({ id: inv.id, status, outbox: inv.outbox_entry_id, mail });
  }
  fake.setDefault({ kind: 'ok' });
  const outboxOfB: string[] = [];
  for (let i = 0; i < 3; i++) {
    const inv = await invite(orgB, `other-${i}@example.com`);
    t.equal(await settled(inv.outbox_entry_id), 'sent');
    outboxOfB.push(inv.outbox_entry_id);
  }

  return {
    daemon,
    p,
    q,
    orgsOfP,
    orgsOfQ,
    orgA,
    orgB,
    t1,
    t3,
    members,
    t1Members,
    m1,
    m3,
    activeKeys,
    m1ActiveKeys,
    grants,
    invitations,
    outboxOfB,
  };
}

t.test('every list pages honestly', async (t) => {
  const w = await buildWorld(t);
  const base = w.daemon.url;
  const asP = asPrincipal(w.p);
  const { orgA, orgB } = w;
  t.equal(w.invitations.filter((i) => i.mail === 'failed').length, 4, 'half of the mail failed');

  t.test('HTTP: organizations', async (t) => {
    const ofP = await checkPages(t, 'organizations of p', httpList(base, asP, '/v1/organizations'), [...w.orgsOfP, ...w.orgsOfQ]);
    t.same(ofP, [...ofP].sort(), 'in organization id order');
    await checkPages(t, 'organizations of q', httpList(base, asPrincipal(w.q), '/v1/organizations'), w.orgsOfQ);
    await checkPages(t, 'organizations of a stranger', httpList(base, asPrincipal(randomUUID()), '/v1/organizations'), []);
    const reader = await ok<{ id: string; raw_key: string }>(base, 'POST', '/v1/api-keys', asP, {
      name: 'reader',
      organization_id: orgA,
    });
    await checkPages(t, 'organizations of an API key', httpList(base, bearer(reader.raw_key), '/v1/organizations'), [orgA]);
    await ok(base, 'DELETE', `/v1/api-keys/${reader.id}`, asP);
  });

  t.test('HTTP: members, teams, grants', async (t) => {
    await checkPages(t, 'members', httpList(base, asP, `/v1/organizations/${orgA}/members`), w.members);
    await checkPages(t, 'members of t1', httpList(base, asP, `/v1/organizations/${orgA}/members?team_id=${w.t1}`), w.t1Members);
    await checkPages(t, 'members of t3 (none)', httpList(base, asP, `/v1/organizations/${orgA}/members?team_id=${w.t3}`), []);
    // A team of another organization is no team of this one: not found, as a deleted team is.
    const foreign = await request(base, 'GET', `/v1/organizations/${orgB}/members?team_id=${w.t1}`, { headers: asP });
    t.equal(foreign.status, 404, "members of another organization's team: not found");
    t.equal(w.members.length, 13, "p's two memberships and eleven more");
    t.equal(w.t1Members.length, 6);
    const teams = await checkPages(t, 'teams', httpList(base, asP, `/v1/organizations/${orgA}/teams`));
    t.equal(teams.length, 3);
    await checkPages(t, 'grants', httpList(base, asP, `/v1/organizations/${orgA}/grants`), w.grants);
  });

  t.test('HTTP: API keys', async (t) => {
    await checkPages(
      t,
      'keys as the owner (all active)',
      httpList(base, asP, `/v1/api-keys?organization_id=${orgA}`),
      w.activeKeys,
    );
    await checkPages(
      t,
      'keys as m1 (own active keys only)',
      httpList(base, asPrincipal(w.m1), `/v1/api-keys?organization_id=${orgA}`),
      w.m1ActiveKeys,
    );
    await checkPages(t, 'keys as m3 (none)', httpList(base, asPrincipal(w.m3), `/v1/api-keys?organization_id=${orgA}`), []);
  });

  t.test('HTTP: invitations', async (t) => {
    const path = `/v1/invitations?organization_id=${orgA}`;
    await checkPages(
      t,
      'invitations',
      httpList(base, asP, path),
      w.invitations.map((i) => i.id),
    );
    for (const status of ['pending', 'revoked'] as const) {
      await checkPages(
        t,
        `${status} invitations`,
        httpList(base, asP, `${path}&status=${status}`),
        w.invitations.filter((i) => i.status === status).map((i) => i.id),
      );
    }
    await checkPages(t, 'accepted invitations (none)', httpList(base, asP, `${path}&status=accepted`), []);
  });

  t.test('HTTP: events', async (t) => {
    const path = `/v1/organizations/${orgA}/events`;
    const all = await checkPages(t, 'events', httpList(base, asP, path));
    t.equal(all.length, 1 + 13 + 8 + 3, 'organization.created, 13 members added, eight invitations, three revocations');
    await checkPages(t, 'invitation.created events', httpList(base, asP, `${path}?kind=invitation.created`));
    const revoked = await checkPages(t, 'invitation.revoked events', httpList(base, asP, `${path}?kind=invitation.revoked`));
    t.equal(revoked.length, 3);
    await checkPages(t, 'invitation.accepted events (none)', httpList(base, asP, `${path}?kind=invitation.accepted`), []);
    const after = all[3];
    await checkPages(
      t,
      'invitation.created events after the fourth event',
      httpList(base, asP, `${path}?kind=invitation.created&after=${after}`),
    );
  });

  t.test('gRPC: every list RPC', async (t) => {
    const client = new AdminClient({ kind: 'unix', socketPath: w.daemon.grpc.socketPath });
    t.teardown(() => client.close());
    const orgs = client.service<OrganizationServiceDefinition>('OrganizationService');
    const members = client.service<MemberServiceDefinition>('MemberService');
    const teams = client.service<TeamServiceDefinition>('TeamService');
    const grants = client.service<GrantServiceDefinition>('GrantService');
    const keys = client.service<ApiKeyServiceDefinition>('ApiKeyService');
    const invitations = client.service<InvitationServiceDefinition>('InvitationService');
    const outbox = client.service<OutboxServiceDefinition>('OutboxService');

    await checkPages(
      t,
      'ListOrganizations',
      grpcList(
        (page) => orgs.ListOrganizations(page),
        (r) => r.organizations,
      ),
      [...w.orgsOfP, ...w.orgsOfQ],
    );
    await checkPages(
      t,
      'ListMembers',
      grpcList(
        (page) => members.ListMembers({ organization: orgA, ...page }),
        (r) => r.memberships,
      ),
      w.members,
    );
    await checkPages(
      t,
      'ListMembers of t1',
      grpcList(
        (page) => members.ListMembers({ organization: orgA, team_id: w.t1, ...page }),
        (r) => r.memberships,
      ),
      w.t1Members,
    );
    await checkPages(
      t,
      'ListTeams',
      grpcList(
        (page) => teams.ListTeams({ organization: orgA, ...page }),
        (r) => r.teams,
      ),
    );
    await checkPages(
      t,
      'ListGrants',
      grpcList(
        (page) => grants.ListGrants({ organization: orgA, ...page }),
        (r) => r.grants,
      ),
      w.grants,
    );
    await checkPages(
      t,
      'ListApiKeys',
      grpcList(
        (page) => keys.ListApiKeys({ organization: orgA, ...page }),
        (r) => r.api_keys,
      ),
      w.activeKeys,
    );
    await checkPages(
      t,
      'ListInvitations pending',
      grpcList(
        (page) => invitations.ListInvitations({ organization: orgA, status: 'pending', ...page }),
        (r) => r.invitations,
      ),
      w.invitations.filter((i) => i.status === 'pending').map((i) => i.id),
    );

    const outboxOfA = w.invitations.map((i) => i.outbox);
    const listOutbox = (filter: { organization?: string; status?: string }) =>
      grpcList(
        (page) => outbox.ListOutbox({ ...filter, ...page }),
        (r) => r.entries,
      );
    await checkPages(t, 'ListOutbox', listOutbox({}), [...outboxOfA, ...w.outboxOfB]);
    await checkPages(t, 'ListOutbox of A', listOutbox({ organization: orgA }), outboxOfA);
    await checkPages(t, 'ListOutbox sent', listOutbox({ status: 'sent' }), [
      ...w.invitations.filter((i) => i.mail === 'sent').map((i) => i.outbox),
      ...w.outboxOfB,
    ]);
    for (const status of ['sent', 'failed'] as const) {
      await checkPages(
        t,
        `ListOutbox of A, ${status}`,
        listOutbox({ organization: orgA, status }),
        w.invitations.filter((i) => i.mail === status).map((i) => i.outbox),
      );
    }
    await checkPages(t, 'ListOutbox of B, failed (none)', listOutbox({ organization: orgB, status: 'failed' }), []);
  });
});
