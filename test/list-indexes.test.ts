// The storage side of honest pages: compound indexes, a distinct-values list (one organization per
// principal however many memberships), internal id reads that never stop at a cap, and the
// migration that builds the new indexes over data written before they existed.
import t, { type Test } from 'tap';
import { OutboxStore } from '../src/domain/email/store.js';
import type { OutboxEntry, OutboxStatus } from '../src/domain/email/types.js';
import { EventLog } from '../src/domain/events/service.js';
import { createIdentityStore, type IdentityStore } from '../src/domain/identity/store.js';
import type { ApiKeyRecord, Grant, Membership, Team } from '../src/domain/identity/types.js';
import { codeOf } from './helpers.js';
import { createLogger } from '../src/log.js';
import { compositeKey, encodeCursor, newId } from '../src/storage/keys.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { migrate, migrations, readSchemaVersion, rebuildIndex } from '../src/storage/leveldb/migrate.js';

const silent = createLogger('silent');

async function openStorage(t: Test): Promise<{ storage: LevelStorage; store: IdentityStore }> {
  const storage = await LevelStorage.open(t.testdir(), silent);
  t.teardown(() => storage.close());
  return { storage, store: createIdentityStore(storage) };
}

let clock = Date.parse('2031-01-01T00:00:00.000Z');
const tick = () => new Date(clock++).toISOString();

function membership(organizationId: string, principalId: string, teamId: string | null, role: Membership['role']): Membership {
  const at = tick();
  return {
    id: newId(),
    organization_id: organizationId,
    team_id: teamId,
    principal_id: principalId,
    role,
    created_at: at,
    updated_at: at,
  };
}

function apiKey(organizationId: string, principalId: string, revoked = false): ApiKeyRecord {
  const at = tick();
  return {
    id: newId(),
    name: 'k',
    organization_id: organizationId,
    principal_id: principalId,
    prefix: newId().replace(/-/g, '').slice(0, 8),
    key_hash: 'x'.repeat(64),
    scopes: [],
    expires_at: null,
    created_at: at,
    revoked_at: revoked ? at : null,
    last_used_at: null,
  };
}

function grant(organizationId: string, resourceType: string, resourceId: string): Grant {
  return {
    id: newId(),
    organization_id: organizationId,
    principal_id: newId(),
    action: 'team.read',
    resource_type: resourceType,
    resource_id: resourceId,
    created_by: null,
    created_at: tick(),
  };
}

function outboxEntry(organizationId: string, status: OutboxStatus): OutboxEntry {
  const at = tick();
  return {
    id: newId(),
    organization_id: organizationId,
    kind: 'invitation',
    to: 'someone@example.com',
    data: {
      invitation_id: newId(),
      organization_display_name: 'x',
      logo_url: null,
      from_name: null,
      role: 'member',
      expires_at: at,
      ttl_ms: 1000,
    },
    token_sealed: null,
    status,
    attempts: [],
    retry_base: 0,
    next_attempt_at: null,
    lease_owner: null,
    lease_until: null,
    provider_message_id: null,
    last_error: null,
    created_at: at,
    updated_at: at,
    sent_at: null,
  };
}

/** A principal's organizations through listDistinct, page by page (`limit` each), following the cursors. */
async function distinctPages(store: IdentityStore, principal: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: { items: string[]; nextCursor: string | null } = await store.memberships.listDistinct('principal', principal, {
      limit,
      cursor,
    });
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return pages;
}

t.test('listDistinct lists each sort value once and resumes past all its records', async (t) => {
  const { storage, store } = await openStorage(t);
  const principal = newId();
  const orgs = Array.from({ length: 7 }, () => newId()).sort();
  await storage.transaction({}, async (tx) => {
    // Organization-level, then one or two team-level memberships in every organization.
    for (const [i, org] of orgs.entries()) {
      await tx.put(store.memberships, membership(org, principal, null, 'owner'));
      await tx.put(store.memberships, membership(org, principal, newId(), 'member'));
      if (i % 2 === 0) await tx.put(store.memberships, membership(org, principal, newId(), 'viewer'));
    }
    await tx.put(store.memberships, membership(orgs[3], newId(), null, 'member'));
  });
  for (const limit of [1, 2, 3, 7, 8]) {
    const pages = await distinctPages(store, principal, limit);
    t.same(pages.flat(), orgs, `limit ${limit}: every organization once, in order`);
    t.ok(
      pages.slice(0, -1).every((p) => p.length === limit) && pages[pages.length - 1].length > 0,
      `limit ${limit}: full pages, no empty last page`,
    );
  }
  t.same(await store.memberships.listDistinct('principal', newId()), { items: [], nextCursor: null }, 'none: one empty page');

  const first = await store.memberships.listDistinct('principal', principal, { limit: 2 });
  const other = newId();
  for (const bad of [
    '!!!',
    'AAAA====',
    encodeCursor(compositeKey(other, orgs[1])),
    encodeCursor(compositeKey(principal)),
    // A key with the membership id too (the old cursor shape) would resume inside an organization.
    encodeCursor(compositeKey(principal, orgs[1], newId())),
  ]) {
    t.equal(await codeOf(store.memberships.listDistinct('principal', principal, { cursor: bad })), 'invalid_request', bad);
  }
  t.equal(
    await codeOf(store.memberships.listDistinct('principal', other, { cursor: first.nextCursor })),
    'invalid_request',
    "another principal's cursor",
  );
  await t.rejects(store.memberships.listDistinct('scope', principal), TypeError, 'a unique index has no sort values');
});

t.test('listDistinct skips a long run of one value and pages through many short ones', async (t) => {
  const { storage, store } = await openStorage(t);
  const principal = newId();
  // 90 organizations: the 5th with 300 team memberships, the others with one (a read of a few keys
  // must skip the long run; reads of more keys must walk the short ones).
  const orgs = Array.from({ length: 90 }, () => newId()).sort();
  await storage.transaction({}, async (tx) => {
    for (const [i, org] of orgs.entries()) {
      await tx.put(store.memberships, membership(org, principal, null, 'member'));
      if (i === 4) for (let n = 0; n < 300; n++) await tx.put(store.memberships, membership(org, principal, newId(), 'viewer'));
    }
  });
  for (const limit of [1, 5, 50, 89, 90, 200]) {
    const pages = await distinctPages(store, principal, limit);
    t.same(pages.flat(), orgs, `limit ${limit}: every organization once, in order`);
    t.equal(pages.length, Math.ceil(orgs.length / Math.min(limit, 200)), `limit ${limit}: ${pages.length} pages, none empty`);
  }
});

t.test('idsBy reads every id, well past the old 10,000 cap', async (t) => {
  const { storage, store } = await openStorage(t);
  const org = newId();
  const teams: Team[] = Array.from({ length: 10_050 }, (_, i) => ({
    id: newId(),
    organization_id: org,
    name: `t${i}`,
    created_at: tick(),
  }));
  await storage.transaction({}, async (tx) => {
    for (const team of teams) await tx.put(store.teams, team);
  });
  const ids = await store.teams.idsBy('organization', org);
  t.equal(ids.length, teams.length, 'every id');
  t.same(
    ids,
    teams.map((tm) => tm.id),
    'in index order',
  );
});

t.test('compound indexes select on every part', async (t) => {
  const { storage, store } = await openStorage(t);
  const [a, b, principal] = [newId(), newId(), newId()];
  const keys = [apiKey(a, principal), apiKey(a, newId()), apiKey(a, principal, true), apiKey(b, principal), apiKey(a, principal)];
  await storage.transaction({}, async (tx) => {
    for (const k of keys) await tx.put(store.apiKeys, k);
  });
  const active = (await store.apiKeys.listBy('organization', a)).items.map((k) => k.id);
  t.same(active, [keys[0].id, keys[1].id, keys[4].id], 'active keys of the organization');
  const own = await store.apiKeys.listBy('organization_principal', [a, principal], { limit: 1 });
  t.same(
    own.items.map((k) => k.id),
    [keys[0].id],
  );
  const rest = await store.apiKeys.listBy('organization_principal', [a, principal], { limit: 1, cursor: own.nextCursor });
  t.same(rest, { items: [keys[4]], nextCursor: null }, "the principal's active keys in that organization only");
  t.equal(
    await codeOf(store.apiKeys.listBy('organization_principal', [b, principal], { cursor: own.nextCursor })),
    'invalid_request',
    "another compound value's cursor",
  );

  await storage.transaction({}, async (tx) => {
    await tx.put(store.apiKeys, { ...keys[4], revoked_at: tick() });
  });
  t.same(
    (await store.apiKeys.listBy('organization_principal', [a, principal])).items.map((k) => k.id),
    [keys[0].id],
    'a revoked key leaves the list index',
  );
});

t.test('migration 2 builds the new indexes over data written before them', async (t) => {
  const { storage, store } = await openStorage(t);
  t.same(await migrate(storage, migrations.slice(0, 1)), { from: 0, to: 1 }, 'a data dir at the initial layout');

  const [org, other, principal, teamId] = [newId(), newId(), newId(), newId()];
  const owner = membership(org, principal, null, 'owner');
  const onTeam = membership(org, principal, teamId, 'member');
  const viewer = membership(org, newId(), null, 'viewer');
  const keys = [apiKey(org, principal), apiKey(org, principal, true), apiKey(org, newId())];
  const grants = [grant(org, 'team', teamId), grant(org, 'organization', org), grant(org, 'team', teamId)];
  const outbox = new OutboxStore(storage);
  const entries = [outboxEntry(org, 'sent'), outboxEntry(org, 'failed'), outboxEntry(other, 'sent'), outboxEntry(org, 'sent')];
  const events = new EventLog(storage, silent);
  await storage.transaction({}, async (tx) => {
    for (const m of [owner, onTeam, viewer]) await tx.put(store.memberships, m);
    for (const k of keys) await tx.put(store.apiKeys, k);
    for (const g of grants) await tx.put(store.grants, g);
    for (const e of entries) await tx.put(outbox.entries, e);
    events.append(tx, { kind: 'organization.created', organization_id: org });
    events.append(tx, { kind: 'invitation.created', organization_id: org });
    events.append(tx, { kind: 'invitation.created', organization_id: other });
  });
  // Ids are taken at commit: the log, in append order, is the three of them.
  const appended = (await events.read()).items;

  // What version 1 left on disk: nothing in the new indexes, and revoked keys in api_keys~organization.
  const added = [
    'memberships~team',
    'memberships~owner',
    'grants~resource',
    'api_keys~organization_principal',
    'email_outbox~organization_status',
    'events~kind',
    'events~organization_kind',
  ];
  for (const name of added) await storage.sublevel(name).clear();
  await storage.sublevel('api_keys~organization').put(compositeKey(org, keys[1].created_at, keys[1].id), '');
  t.same((await store.memberships.listBy('team', [org, teamId])).items, [], 'before: the team index is empty');

  t.same(await migrate(storage, migrations.slice(0, 2)), { from: 1, to: 2 });
  t.equal(await readSchemaVersion(storage), 2);

  t.same((await store.memberships.listBy('team', [org, teamId])).items, [onTeam], 'memberships by team');
  t.same(await store.memberships.idsBy('owner', org), [owner.id], 'owners');
  t.same(await store.grants.idsBy('resource', ['team', teamId]), [grants[0].id, grants[2].id], 'grants by resource');
  t.same(
    (await store.apiKeys.listBy('organization', org)).items.map((k) => k.id),
    [keys[0].id, keys[2].id],
    'the organization index rebuilt to active keys only',
  );
  t.same(
    (await store.apiKeys.listBy('organization_principal', [org, principal])).items.map((k) => k.id),
    [keys[0].id],
    'keys by organization and principal',
  );
  t.same(
    (await outbox.entries.listBy('organization_status', [org, 'sent'])).items.map((e) => e.id),
    [entries[0].id, entries[3].id],
    'outbox by organization and status',
  );
  t.same(
    (await events.read({ kind: 'invitation.created' })).items.map((e) => e.id),
    [appended[1].id, appended[2].id],
    'events by kind',
  );
  t.same(
    (await events.read({ organizationId: org, kind: 'invitation.created' })).items.map((e) => e.id),
    [appended[1].id],
    'events by organization and kind',
  );
  await t.rejects(rebuildIndex(storage, store.apiKeys, 'prefix'), TypeError, 'a unique index is not rebuilt');
});
