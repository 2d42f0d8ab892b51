// `key list --all` (issue 14) reads an index of every API key, revoked ones too, that arrived after
// the keys did: keys stored before a daemon upgrades must be listed. LevelDB migration 6 and
// PostgreSQL migration 6 build it over stored keys; both must give the keys the store itself writes.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { createIdentityStore } from '../src/domain/identity/store.js';
import type { ApiKeyRecord } from '../src/domain/identity/types.js';
import type { Storage } from '../src/storage/port.js';
import { levelStoredBefore, postgresStoredBefore } from './support/migration.js';
import { findPostgres } from './support/postgres.js';

const orgA = randomUUID();
const orgB = randomUUID();

function key(organizationId: string, createdAt: string, revoked: boolean): ApiKeyRecord {
  return {
    id: randomUUID(),
    name: `k-${createdAt}`,
    organization_id: organizationId,
    principal_id: randomUUID(),
    prefix: randomUUID().slice(0, 8),
    key_hash: '00',
    scopes: [],
    expires_at: null,
    created_at: createdAt,
    revoked_at: revoked ? createdAt : null,
    revoked_reason: revoked ? 'revoked' : null,
    last_used_at: null,
  };
}

/** Three keys of A (one revoked), one of B, stored out of creation order. */
function samples(): ApiKeyRecord[] {
  return [
    key(orgA, '2026-01-01T00:00:02.000Z', true),
    key(orgA, '2026-01-01T00:00:01.000Z', false),
    key(orgB, '2026-01-01T00:00:01.500Z', false),
    key(orgA, '2026-01-01T00:00:03.000Z', false),
  ];
}

async function checkLists(t: Test, storage: Storage, rows: ApiKeyRecord[]): Promise<void> {
  const { apiKeys } = createIdentityStore(storage);
  const ids = async (org: string) => (await apiKeys.listBy('organization_all', org)).items.map((k) => k.id);
  t.same(await ids(orgA), [rows[1].id, rows[0].id, rows[3].id], 'every key of A, the revoked one too, in creation order');
  t.same(await ids(orgB), [rows[2].id], "B's key only");
}

t.test('LevelDB: migration 6 indexes every key stored before it', async (t) => {
  const rows = samples();
  const storage = await levelStoredBefore(t, 5, 'api_keys', rows);
  await checkLists(t, storage, rows);
});

const found = findPostgres();
t.test(
  'PostgreSQL: migration 6 indexes every key stored before it, with the bytes the store writes',
  { skip: 'missing' in found ? found.missing : false },
  async (t) => {
    // The layout of a version-4 database, and keys written by a version-4 daemon.
    const rows = samples();
    const { storage, client } = await postgresStoredBefore(t, 4, 'api_keys', rows);
    await checkLists(t, storage, rows);
    const { apiKeys } = createIdentityStore(storage);
    const { rows: stored } = await client.query<{ id: Buffer; ix_organization_all: Buffer | null }>(
      'SELECT id, ix_organization_all FROM api_keys',
    );
    for (const row of stored) {
      const k = rows.find((r) => r.id === row.id.toString())!;
      t.equal(
        row.ix_organization_all?.toString(),
        apiKeys.keysOf(k).get('organization_all'),
        `${k.name}: as the store builds it`,
      );
    }
  },
);
