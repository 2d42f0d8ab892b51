// The sender's per-webhook due queue (issue 12) arrived after webhooks did: deliveries already
// waiting when a daemon upgrades must be found by it. LevelDB migration 5 and PostgreSQL migration 3
// build the two new indexes over stored deliveries; both must give the keys the store itself writes.
import t, { type Test } from 'tap';
import { newDelivery } from '../src/domain/webhooks/fanout.js';
import { WebhookStore } from '../src/domain/webhooks/store.js';
import type { Delivery } from '../src/domain/webhooks/types.js';
import { newSortableId } from '../src/storage/keys.js';
import { levelStoredBefore, postgresStoredBefore } from './support/migration.js';
import { findPostgres } from './support/postgres.js';

const at = '2026-01-01T00:00:00.000Z';

function delivery(webhookId: string, overrides: Partial<Delivery> = {}): Delivery {
  const event = { id: newSortableId('evt_'), kind: 'invitation.created' as const, organization_id: 'org_1' };
  return { ...newDelivery({ id: webhookId, active: true, organization_id: 'org_1' }, event, at), ...overrides };
}

/** Four deliveries: two due for hook A, one due for B, one leased (not in the due queues), one held. */
function samples(): Delivery[] {
  return [
    delivery('whk_a'),
    delivery('whk_a', { next_attempt_at: '2026-01-01T00:00:05.000Z' }),
    delivery('whk_b'),
    delivery('whk_c', { lease_owner: 'x', lease_until: at }),
    delivery('whk_d', { held: true }),
  ];
}

async function checkQueues(t: Test, store: WebhookStore, rows: Delivery[]): Promise<void> {
  const page = await store.webhooksWithDue(undefined, undefined, 10);
  t.same(page.items, ['whk_a', 'whk_b'], 'the webhooks with due deliveries, neither leased nor held ones');
  t.same(await store.dueFor('whk_a', '2026-01-02T00:00:00.000Z', 10), [rows[0].id, rows[1].id], 'A due, soonest first');
  t.same(await store.dueFor('whk_a', at, 10), [rows[0].id], 'only what is due by then');
  t.same(await store.dueFor('whk_c', '2030-01-01T00:00:00.000Z', 10), [], 'a leased delivery is not due');
  t.same(await store.dueFor('whk_d', '2030-01-01T00:00:00.000Z', 10), [], 'nor a held one');
}

t.test('LevelDB: migration 5 indexes deliveries stored before it', async (t) => {
  const rows = samples();
  const storage = await levelStoredBefore(t, 4, 'webhook_deliveries', rows);
  await checkQueues(t, new WebhookStore(storage), rows);
});

const found = findPostgres();
t.test(
  'PostgreSQL: migration 3 indexes deliveries stored before it, with the bytes the store writes',
  { skip: 'missing' in found ? found.missing : false },
  async (t) => {
    // The layout of a version-2 database, and deliveries written by a version-2 daemon.
    const rows = samples();
    const { storage, client } = await postgresStoredBefore(t, 2, 'webhook_deliveries', rows);
    const store = new WebhookStore(storage);
    await checkQueues(t, store, rows);
    const { rows: stored } = await client.query<{ id: Buffer; ix_webhook_due: Buffer | null; ix_due_webhooks: Buffer | null }>(
      'SELECT id, ix_webhook_due, ix_due_webhooks FROM webhook_deliveries',
    );
    for (const row of stored) {
      const d = rows.find((r) => r.id === row.id.toString())!;
      const keys = store.deliveries.keysOf(d);
      t.equal(
        row.ix_webhook_due?.toString() ?? undefined,
        keys.get('webhook_due'),
        `${d.webhook_id}: webhook_due as the store builds it`,
      );
      t.equal(
        row.ix_due_webhooks?.toString() ?? undefined,
        keys.get('due_webhooks'),
        `${d.webhook_id}: due_webhooks as the store builds it`,
      );
    }
  },
);

// The organization's delivery list (issue 37) is keyed by the organization that owns the webhook, a
// field deliveries gained with it: LevelDB migration 12 and PostgreSQL 22 fill it from the webhooks
// (null for a platform webhook's, or a webhook no longer stored), build the list's indexes, and give
// the field to the deliveries of hand-off batches left for a takeover.

/** Webhooks, deliveries and a hand-off batch as a daemon before the field wrote them. */
function ownerSamples() {
  const hook = (id: string, organization_id: string | null) => ({ id, organization_id, deleted_at: null, created_at: at });
  const webhooks = [hook('whk_own', 'org_a'), hook('whk_platform', null), hook('whk_other', 'org_b')];
  const old = (webhookId: string, status: Delivery['status'] = 'delivered') => {
    const { webhook_organization_id: _, ...rest } = delivery(webhookId, { status });
    return rest;
  };
  const deliveries = [
    old('whk_own'),
    old('whk_platform'),
    old('whk_own', 'failed'),
    old('whk_other'),
    old('whk_gone'),
    old('whk_own', 'pending'),
  ];
  const handed = {
    id: newSortableId('dlv_'),
    webhook_id: 'whk_own',
    organization_id: 'org_a',
    event_id: newSortableId('evt_'),
    event_kind: 'invitation.created',
  };
  const batch = { id: newSortableId('hof_'), lease_owner: 'gone', lease_until: at, created_at: at, deliveries: [handed] };
  return { webhooks, deliveries, batch, handed };
}

async function checkOwners(t: Test, store: WebhookStore, s: ReturnType<typeof ownerSamples>): Promise<void> {
  const list = async (org: string, filters = {}) =>
    (await store.organizationDeliveries(org, filters, { limit: 50 })).items.map((d) => d.id);
  const [own1, platform, ownFailed, other, gone, ownPending] = s.deliveries.map((d) => d.id);
  t.same(await list('org_a'), [s.handed.id, ownPending, ownFailed, own1], "the organization's, newest first, handed-off one too");
  t.same(await list('org_a', { status: 'failed' }), [ownFailed], 'by status');
  t.same(await list('org_a', { status: 'pending' }), [s.handed.id, ownPending], 'pending: the handed-off one reads as pending');
  t.same(await list('org_a', { webhookId: 'whk_own', status: 'delivered' }), [own1], 'by webhook and status');
  t.same(await list('org_b'), [other], "the other organization's");
  const records = await store.deliveries.getMany([own1, platform, gone]);
  t.same(
    records.map((d) => d?.webhook_organization_id),
    ['org_a', null, null],
    "the owner: the webhook's organization; null for a platform webhook's and for a webhook no longer stored",
  );
  t.same(
    (await store.handoffs.get(s.batch.id))?.deliveries.map((h) => h.webhook_organization_id),
    ['org_a'],
    'a hand-off batch gains it too',
  );
}

t.test('LevelDB: migration 12 gives deliveries their webhook’s organization and indexes them', async (t) => {
  const s = ownerSamples();
  const storage = await levelStoredBefore(t, 11, 'webhook_deliveries', s.deliveries, {
    webhooks: s.webhooks,
    webhook_handoffs: [s.batch],
  });
  await checkOwners(t, new WebhookStore(storage), s);
});

t.test(
  'PostgreSQL: migration 22 gives deliveries their webhook’s organization, with the bytes the store writes',
  { skip: 'missing' in found ? found.missing : false },
  async (t) => {
    const s = ownerSamples();
    const { storage, client } = await postgresStoredBefore(t, 21, 'webhook_deliveries', s.deliveries, {
      webhooks: s.webhooks,
      webhook_handoffs: [s.batch],
    });
    const store = new WebhookStore(storage);
    await checkOwners(t, store, s);
    const { rows } = await client.query<{
      id: Buffer;
      ix_organization: Buffer | null;
      ix_organization_status: Buffer | null;
      ix_webhook_status: Buffer | null;
    }>('SELECT id, ix_organization, ix_organization_status, ix_webhook_status FROM webhook_deliveries');
    t.equal(rows.length, s.deliveries.length);
    for (const row of rows) {
      const d = (await store.deliveries.get(row.id.toString()))!;
      const keys = store.deliveries.keysOf(d);
      for (const index of ['organization', 'organization_status', 'webhook_status'] as const)
        t.equal(
          row[`ix_${index}`]?.toString() ?? undefined,
          keys.get(index),
          `${d.webhook_id} ${d.status}: ${index} as the store builds it`,
        );
    }
  },
);
