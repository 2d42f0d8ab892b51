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
  return { ...newDelivery({ id: webhookId, active: true }, event, at), ...overrides };
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
