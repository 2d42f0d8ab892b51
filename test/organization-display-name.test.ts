// Issue 35: an organization has one display name. The record's `display_name` (POST/PATCH
// /v1/organizations) and settings' `display_name` (spec 2.4, "name shown in invitation emails") are
// the same value, read and written through either API, and invitation mail shows it. LevelDB
// migration 9 and PostgreSQL migration 19 fold the two names that older daemons kept into one.
// The first test runs on PostgreSQL too (test/on-postgres-identity.test.ts); the migration test
// migrates both engines itself.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import t, { type Test } from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { createIdentityStore } from '../src/domain/identity/store.js';
import type { Organization } from '../src/domain/identity/types.js';
import { createSettingsStore } from '../src/domain/settings/store.js';
import type { StoredSettings } from '../src/domain/settings/types.js';
import type { Daemon } from '../src/main.js';
import { createLogger } from '../src/log.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { migrate, migrations } from '../src/storage/leveldb/migrate.js';
import { applySqlMigrations, sqlMigrations } from '../src/storage/postgres/migrations.js';
import { asPrincipal, privateDir, request, startTestDaemon, testPostgres } from './helpers.js';
import { findPostgres, startPostgres } from './support/postgres.js';

t.test('one display name: the record, settings and invitation mail agree', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const call = (method: string, path: string, body?: unknown) =>
    request(d.url, method, path, { headers: asPrincipal(owner), body });
  const created = await call('POST', '/v1/organizations', { slug: 'acme', display_name: 'Acme Inc.' });
  t.equal(created.status, 201);
  const org = created.body.data;
  const orgPath = `/v1/organizations/${org.id}`;
  const names = async () => ({
    record: (await call('GET', orgPath)).body.data.display_name,
    settings: (await call('GET', `${orgPath}/settings`)).body.data.display_name,
    listed: (await call('GET', '/v1/organizations')).body.data[0].display_name,
  });
  const invitationSubject = async () => {
    const res = await call('POST', '/v1/invitations', {
      organization_id: org.id,
      email: `${randomUUID()}@example.com`,
      role: 'member',
    });
    t.equal(res.status, 201, 'invited');
    return (await d.services.outbox.getOutboxEntry(operator, res.body.data.outbox_entry_id)).subject;
  };

  t.same(
    await names(),
    { record: 'Acme Inc.', settings: 'Acme Inc.', listed: 'Acme Inc.' },
    'the name given at creation, in settings too',
  );
  t.equal(await invitationSubject(), "You're invited to join Acme Inc.", 'mail shows it, not the slug');

  const put = await call('PUT', `${orgPath}/settings`, { display_name: '  Acme Europe ' });
  t.equal(put.status, 200);
  t.equal(put.body.data.display_name, 'Acme Europe', 'the PUT answers the trimmed name');
  t.same(await names(), { record: 'Acme Europe', settings: 'Acme Europe', listed: 'Acme Europe' }, 'settings write the record');
  t.equal(await invitationSubject(), "You're invited to join Acme Europe");

  t.equal((await call('PATCH', orgPath, { display_name: 'Acme Global' })).status, 200);
  t.same(
    await names(),
    { record: 'Acme Global', settings: 'Acme Global', listed: 'Acme Global' },
    'a rename is what settings read',
  );
  t.equal(await invitationSubject(), "You're invited to join Acme Global");

  // Other fields leave the name alone; null puts it back to the slug (spec 2.4's default).
  t.equal(
    (await call('PUT', `${orgPath}/settings`, { logo_url: 'https://cdn.example.test/l.png' })).body.data.display_name,
    'Acme Global',
  );
  const reset = await call('PUT', `${orgPath}/settings`, { display_name: null });
  t.equal(reset.status, 200);
  t.same(await names(), { record: 'acme', settings: 'acme', listed: 'acme' }, 'null resets it to the slug, everywhere');
  t.equal(reset.body.data.logo_url, 'https://cdn.example.test/l.png', 'and only it');

  const bad = await call('PUT', `${orgPath}/settings`, { display_name: '' });
  t.equal(bad.status, 422, 'an empty name is refused');
  t.equal((await call('GET', orgPath)).body.data.display_name, 'acme', 'and changes nothing');

  // The settings write is audited with the name it changed.
  await call('PUT', `${orgPath}/settings`, { display_name: 'Acme Again' });
  const audit = (await call('GET', `${orgPath}/audit-log?action=settings.update`)).body.data;
  const record = audit.find((r: any) => r.changes?.after?.display_name === 'Acme Again');
  t.same(
    record?.changes,
    { before: { display_name: 'acme' }, after: { display_name: 'Acme Again' } },
    'the audit record names the change',
  );
});

// -- migration -------------------------------------------------------------------------------------

const at = '2026-01-01T00:00:00.000Z';
const org = (slug: string, display_name: string): Organization => ({
  id: randomUUID(),
  slug,
  display_name,
  created_by: null,
  created_at: at,
});
const settingsOf = (o: Organization, fields: Partial<StoredSettings>): StoredSettings => ({
  organization_id: o.id,
  updated_at: at,
  updated_by: null,
  ...fields,
});

/**
 * What older daemons left: a name set in settings (it wins: it is what invitees were shown), a settings
 * record without one, one reset to null, and an organization without settings (the record's name stays).
 */
function before() {
  const named = org('named', 'Named (record)');
  const logoOnly = org('logo-only', 'Logo Only Ltd');
  const reset = org('reset', 'Reset Ltd');
  const bare = org('bare', 'Bare Ltd');
  return {
    organizations: [named, logoOnly, reset, bare],
    settings: [
      settingsOf(named, { display_name: 'Named (settings)', email_from_name: 'Named Team' }),
      settingsOf(logoOnly, { logo_url: 'https://cdn.example.test/l.png' }),
      settingsOf(reset, { display_name: null }),
    ],
    expected: {
      [named.id]: 'Named (settings)',
      [logoOnly.id]: 'Logo Only Ltd',
      [reset.id]: 'Reset Ltd',
      [bare.id]: 'Bare Ltd',
    } as Record<string, string>,
  };
}

/** After the migration, through the daemon that ran it: one name per organization, settings agree. */
async function checkMigrated(
  t: Test,
  d: Daemon,
  data: ReturnType<typeof before>,
  storedSettings: StoredSettings[],
): Promise<void> {
  for (const o of data.organizations) {
    const expected = data.expected[o.id];
    t.equal((await d.services.organizations.getOrganization(operator, o.id)).display_name, expected, `${o.slug}: the record`);
    t.equal((await d.services.settings.getSettings(operator, o.id)).display_name, expected, `${o.slug}: settings`);
  }
  t.equal(storedSettings.length, 3, 'every settings record is kept');
  t.notOk(
    storedSettings.some((s) => 'display_name' in s),
    'no settings record holds a display name of its own any more',
  );
  const named = (await d.services.settings.getSettings(operator, data.organizations[0].id)).email_from_name;
  t.equal(named, 'Named Team', 'the other settings stay');
}

t.test('LevelDB: migration 9 folds the two names into the record', async (t) => {
  const dir = privateDir();
  const old = await LevelStorage.open(dir, createLogger('silent'));
  await migrate(
    old,
    migrations.filter((m) => m.version <= 8),
  );
  const data = before();
  const identity = createIdentityStore(old);
  const settings = createSettingsStore(old);
  await old.transaction({}, async (tx) => {
    for (const o of data.organizations) await tx.put(identity.organizations, o);
    for (const s of data.settings) await tx.put(settings, s);
  });
  await old.close();

  const d = await startTestDaemon(t, { SERVICE_DATA_DIR: dir, SERVICE_DATABASE_URL: '' });
  const stored = await Promise.all(
    data.settings.map(async (s) => (await createSettingsStore(d.storage).get(s.organization_id))!),
  );
  await checkMigrated(t, d, data, stored);
});

const found = findPostgres();
t.test(
  'PostgreSQL: migration 19 folds the two names into the record',
  { skip: testPostgres === undefined && 'missing' in found ? found.missing : false },
  async (t) => {
    const server = testPostgres ?? (await startPostgres(t)).url;
    const name = `dn_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    t.teardown(() => client.end());
    // A version-18 database, with what a version-18 daemon wrote (index columns as its store built them).
    await applySqlMigrations(
      client,
      sqlMigrations.filter((m) => m.version <= 18),
    );
    const data = before();
    const slugKey = (o: Organization) =>
      createIdentityStore(null as never)
        .organizations.keysOf(o)
        .get('slug');
    for (const o of data.organizations)
      await client.query('INSERT INTO organizations (id, data, ix_slug) VALUES ($1, $2::jsonb, $3)', [
        Buffer.from(o.id),
        JSON.stringify(o),
        Buffer.from(slugKey(o)!),
      ]);
    for (const s of data.settings)
      await client.query('INSERT INTO organization_settings (id, data) VALUES ($1, $2::jsonb)', [
        Buffer.from(s.organization_id),
        JSON.stringify(s),
      ]);

    const d = await startTestDaemon(t, { SERVICE_DATABASE_URL: url.toString() });
    const { rows } = await client.query<{ data: StoredSettings }>('SELECT data FROM organization_settings');
    await checkMigrated(
      t,
      d,
      data,
      rows.map((r) => r.data),
    );
    const bySlug = await d.services.organizations.getOrganization(operator, 'named');
    t.equal(bySlug.id, data.organizations[0].id, 'the slug index still finds it');
  },
);
