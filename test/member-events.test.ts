// Contract 13: member.added, member.removed and member.role_changed, each in the transaction of the
// membership change it describes, on every path that changes a membership. Runs on PostgreSQL too
// (test/on-postgres-identity.test.ts).
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { eventCatalog } from '../src/domain/events/catalog.js';
import type { EventKind } from '../src/domain/events/types.js';
import { operator } from '../src/domain/identity/caller.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

t.test('every membership change has its event, with the payload the catalog gives', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), 'members-evented');
  const base = `/v1/organizations/${org.id}`;
  const call = (method: string, path: string, body?: unknown, who = owner) =>
    request(d.url, method, base + path, { headers: asPrincipal(who), body });
  let seen = '';
  /** The organization's events since the last call, read straight after the change (no waiting). */
  const newEvents = async (): Promise<{ kind: string; payload: Record<string, unknown> }[]> => {
    const res = await call('GET', `/events?limit=200${seen === '' ? '' : `&after=${seen}`}`);
    t.equal(res.status, 200);
    const events = res.body.data as { id: string; kind: EventKind; payload: Record<string, unknown> }[];
    for (const e of events) {
      // Strict: a field the catalog does not document fails here.
      const parsed = eventCatalog[e.kind].payload.strict().safeParse(e.payload);
      t.ok(parsed.success, `${e.kind} payload matches the catalog: ${JSON.stringify(e.payload)}`);
    }
    seen = events.at(-1)?.id ?? seen;
    return events.map(({ kind, payload }) => ({ kind, payload }));
  };

  const ownerMembership = (await call('GET', '/members')).body.data[0];
  t.same(await newEvents(), [
    {
      kind: 'organization.created',
      payload: { organization_id: org.id, slug: org.slug, display_name: org.slug, owner_principal_id: owner },
    },
    { kind: 'member.added', payload: { membership_id: ownerMembership.id, principal_id: owner, role: 'owner', team_id: null } },
  ]);

  t.test('a direct add, a role change, a no-op change and a removal', async (t) => {
    const alice = randomUUID();
    const added = await call('POST', '/members', { principal_id: alice, role: 'member' });
    t.equal(added.status, 201);
    const membership = { membership_id: added.body.data.id, principal_id: alice, team_id: null };
    t.same(await newEvents(), [{ kind: 'member.added', payload: { ...membership, role: 'member' } }]);

    t.equal((await call('PATCH', `/members/${membership.membership_id}`, { role: 'admin' })).status, 200);
    t.same(await newEvents(), [
      { kind: 'member.role_changed', payload: { ...membership, role: 'admin', previous_role: 'member' } },
    ]);
    t.equal((await call('PATCH', `/members/${membership.membership_id}`, { role: 'admin' })).status, 200);
    t.same(await newEvents(), [], 'the same role again changes nothing: no event');

    t.equal((await call('DELETE', `/members/${membership.membership_id}`)).status, 200);
    t.same(await newEvents(), [{ kind: 'member.removed', payload: { ...membership, role: 'admin' } }]);
  });

  t.test('a refused change writes no event', async (t) => {
    const removed = await call('DELETE', `/members/${ownerMembership.id}`);
    t.equal(removed.status, 409, 'the last owner stays');
    const viewer = randomUUID();
    t.equal((await call('POST', '/members', { principal_id: viewer, role: 'viewer' })).status, 201);
    await newEvents();
    const refused = await call('POST', '/members', { principal_id: randomUUID(), role: 'member' }, viewer);
    t.equal(refused.status, 403);
    t.same(await newEvents(), [], 'nothing committed, nothing in the log');
  });

  t.test("a team's members leave with the team", async (t) => {
    const team = (await call('POST', '/teams', { name: 'Ops' })).body.data;
    const bob = randomUUID();
    const added = await call('POST', '/members', { principal_id: bob, role: 'member', team_id: team.id });
    t.equal(added.status, 201);
    const membership = { membership_id: added.body.data.id, principal_id: bob, role: 'member', team_id: team.id };
    t.same(await newEvents(), [{ kind: 'member.added', payload: membership }]);
    t.equal((await call('DELETE', `/teams/${team.id}`)).status, 200);
    t.same(await newEvents(), [{ kind: 'member.removed', payload: membership }]);
  });

  t.test('accepting an invitation adds the member, or raises its role', async (t) => {
    /** Invites `email` as `role` and accepts as `who` with the link's token. */
    const inviteAndAccept = async (email: string, role: string, who: string) => {
      const inv = await request(d.url, 'POST', '/v1/invitations', {
        headers: asPrincipal(owner),
        body: { organization_id: org.id, email, role },
      });
      t.equal(inv.status, 201);
      const page = await d.services.outbox.listOutbox(operator, { organization_id: org.id, limit: 200 });
      const entry = page.items.find((e) => e.invitation_id === inv.body.data.id && e.accept_url !== null)!;
      const token = new URL(entry.accept_url!).searchParams.get('token')!;
      const accepted = await request(d.url, 'GET', `/v1/invitations/${inv.body.data.id}/accept?token=${token}`, {
        headers: asPrincipal(who),
      });
      t.equal(accepted.status, 200);
      return accepted.body.data as { membership_id: string };
    };
    const carol = randomUUID();
    const first = await inviteAndAccept('carol@example.com', 'member', carol);
    const membership = { membership_id: first.membership_id, principal_id: carol, team_id: null };
    t.same(
      (await newEvents()).filter((e) => e.kind.startsWith('member.')),
      [{ kind: 'member.added', payload: { ...membership, role: 'member' } }],
    );
    await inviteAndAccept('carol+admin@example.com', 'admin', carol);
    t.same(
      (await newEvents()).filter((e) => e.kind.startsWith('member.')),
      [{ kind: 'member.role_changed', payload: { ...membership, role: 'admin', previous_role: 'member' } }],
    );
    await inviteAndAccept('carol+viewer@example.com', 'viewer', carol);
    t.same(
      (await newEvents()).filter((e) => e.kind.startsWith('member.')),
      [],
      'a lower role accepted keeps the higher one: no change, no event',
    );
  });
});
