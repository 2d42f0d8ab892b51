// Contract 11, issue 10: `switchyard storage copy --to postgres://...` moves a stopped daemon's LevelDB
// data dir into PostgreSQL: every record, index and secret, so API keys keep working and invitation
// links already mailed still accept. It can run again, checks its counts, and refuses a daemon that
// is still running or a target that held other data.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { asPrincipal, bearer, createOrganizationAs, request, runOwned, binPath, startTestDaemon } from './helpers.js';
import { findPostgres, startPostgres } from './support/postgres.js';

const found = findPostgres();

interface CopyReport {
  data_dir: string;
  tables: { table: string; source: number; target: number; indexes: Record<string, { source: number; target: number }> }[];
  meta: number;
}

if ('missing' in found) {
  t.plan(0, `missing ${found.missing}`);
} else {
  const cluster = await startPostgres(t);
  const copy = (dataDir: string, url: string) =>
    runOwned(t, process.execPath, [binPath, 'storage', 'copy', '--data-dir', dataDir, '--to', url, '--json']);

  t.test('a copied data dir serves the same keys, invitations and events on PostgreSQL', async (t) => {
    const dataDir = t.testdir();
    const owner = randomUUID();
    const level = await startTestDaemon(t, { SERVICE_DATA_DIR: dataDir });
    const org = await createOrganizationAs(level.url, asPrincipal(owner), 'copied');
    const key = await request(level.url, 'POST', '/v1/api-keys', {
      headers: asPrincipal(owner),
      body: { name: 'ci', organization_id: org.id },
    });
    t.equal(key.status, 201);
    const invited = await request(level.url, 'POST', '/v1/invitations', {
      headers: asPrincipal(owner),
      body: { organization_id: org.id, email: 'later@example.com', role: 'member' },
    });
    t.equal(invited.status, 201);
    const mail = await level.services.outbox.getOutboxEntry(operator, invited.body.data.outbox_entry_id);
    const token = new URL(mail.accept_url!).searchParams.get('token')!;
    const eventsBefore = (await request(level.url, 'GET', `/v1/organizations/${org.id}/events`, { headers: asPrincipal(owner) }))
      .body.data as { id: string }[];
    t.ok(eventsBefore.length >= 2, 'events were recorded');
    await level.stop();

    const url = await cluster.createDatabase();
    const first = await copy(dataDir, url);
    t.equal(first.code, 0, first.stderr);
    const report = JSON.parse(first.stdout) as CopyReport;
    for (const table of report.tables) {
      t.equal(table.target, table.source, `${table.table}: every record`);
      for (const [index, n] of Object.entries(table.indexes)) t.equal(n.target, n.source, `${table.table}.${index}: every entry`);
    }
    t.ok(report.tables.find((x) => x.table === 'organizations')!.source >= 1);
    t.ok(report.meta >= 1, 'meta values (the generated invitation token key) copied');

    const again = await copy(dataDir, url);
    t.equal(again.code, 0, 'a second copy succeeds');
    t.same(
      (JSON.parse(again.stdout) as CopyReport).tables.map((x) => [x.table, x.target]),
      report.tables.map((x) => [x.table, x.target]),
      'and changes no count',
    );

    const onPg = await startTestDaemon(t, { SERVICE_DATABASE_URL: url });
    t.equal(onPg.storage.engine, 'postgres');
    const read = await request(onPg.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(key.body.data.raw_key) });
    t.equal(read.status, 200, 'the API key (hashed at rest) still authenticates');
    t.equal(read.body.data.slug, 'copied');
    const accepted = await request(
      onPg.url,
      'GET',
      `/v1/invitations/${invited.body.data.id}/accept?token=${encodeURIComponent(token)}`,
    );
    t.ok(accepted.status < 300, `the mailed link still accepts: the token key came along (${accepted.status})`);
    const eventsAfter = (
      await request(onPg.url, 'GET', `/v1/organizations/${org.id}/events?limit=200`, { headers: asPrincipal(owner) })
    ).body.data as { id: string; kind: string }[];
    t.same(
      eventsAfter.slice(0, eventsBefore.length).map((e) => e.id),
      eventsBefore.map((e) => e.id),
      'the event log came along in order',
    );
    const newest = eventsAfter[eventsAfter.length - 1];
    t.equal(newest.kind, 'invitation.accepted');
    t.ok(newest.id > eventsBefore[eventsBefore.length - 1].id, 'a new event is appended after the copied ones');
  });

  t.test('a running daemon, or a target that held other data, is refused', async (t) => {
    const dataDir = t.testdir();
    const running = await startTestDaemon(t, { SERVICE_DATA_DIR: dataDir });
    await createOrganizationAs(running.url, asPrincipal(randomUUID()), 'source');
    const url = await cluster.createDatabase();
    const busy = await copy(dataDir, url);
    t.equal(busy.code, 1);
    t.match(JSON.parse(busy.stderr), { error: { code: 'copy_failed', message: /in use by another switchyard process/ } });
    await running.stop();

    const other = await startTestDaemon(t, { SERVICE_DATABASE_URL: url });
    await createOrganizationAs(other.url, asPrincipal(randomUUID()), 'already-here');
    await other.stop();
    const refused = await copy(dataDir, url);
    t.equal(refused.code, 1);
    t.match(JSON.parse(refused.stderr), {
      error: { code: 'copy_failed', message: /holds records that are not in this data dir \(.*organizations: 1/ },
    });

    const bad = await copy(dataDir, 'mysql://localhost/x');
    t.equal(bad.code, 1);
    t.match(JSON.parse(bad.stderr), { error: { code: 'invalid_request', message: /postgres:\/\// } });

    const pool = new pg.Pool({ connectionString: url, max: 1 });
    t.teardown(() => pool.end());
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    t.equal(rows[0].n, 1, 'the refused copy wrote nothing');
  });
}
