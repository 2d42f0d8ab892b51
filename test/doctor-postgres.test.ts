// Issue 35: `switchyard doctor` on PostgreSQL checks the database, not the disk: a fresh connection
// gets through, the server's version, the migrations applied against those the daemon knows, and
// whether the server is a replica (and its lag). A real daemon child on a real PostgreSQL (the one
// SWITCHYARD_TEST_POSTGRES names, else a throwaway cluster), a real CLI child asking it. The replica
// cases are shown on the check's classification (databaseFindings): a streaming replica is a second
// cluster and a base backup, too heavy for this suite (docs/operations.md says so).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import { databaseFindings, judge, type DatabaseFacts } from '../src/cli/commands/doctor.js';
import { sqlMigrations } from '../src/storage/postgres/migrations.js';
import { cliJson as json, spawnDaemonCli, testPostgres } from './helpers.js';
import { healthyFacts } from './support/doctor-facts.js';
import { findPostgres, startPostgres } from './support/postgres.js';

const latest = sqlMigrations.reduce((max, m) => Math.max(max, m.version), 0);
type Check = { check: string; status: string; detail: string; fix: string | null };
const byCheck = (report: { checks: Check[] }) => new Map(report.checks.map((c) => [c.check, c]));

const found = findPostgres();
t.test(
  'doctor on PostgreSQL: connection, version, migrations, primary; no disk check',
  { skip: testPostgres === undefined && 'missing' in found ? found.missing : false },
  async (t) => {
    const server = testPostgres ?? (await startPostgres(t)).url;
    const name = `doc_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    t.teardown(() => admin.end());
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
    const serverVersion = rows[0].server_version.split(' ')[0];

    const d = await spawnDaemonCli(t, {
      SERVICE_ENV: 'development',
      EMAIL_PROVIDER_API_KEY: '',
      SERVICE_SMTP_URL: '',
      SERVICE_DATABASE_URL: url.toString(),
    });
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    t.teardown(() => db.end().catch(() => undefined));

    const healthy = byCheck(await json(t, d.sy, 'doctor'));
    t.match(healthy.get('database'), {
      status: 'OK',
      detail: new RegExp(`^postgres://switchyard@[^ ]+/${name} answered in \\d+ ms$`),
    });
    t.same(healthy.get('database version'), {
      check: 'database version',
      status: 'OK',
      detail: `PostgreSQL ${serverVersion}`,
      fix: null,
    });
    t.match(healthy.get('migrations'), { status: 'OK', detail: `${latest} of ${latest} applied` });
    t.match(healthy.get('replication'), { status: 'OK', detail: /a primary/ });
    t.notOk(healthy.has('disk space'), 'the data dir holds only the socket: its disk is not the database');
    t.match(healthy.get('data dir'), { status: 'OK' }, 'its mode and owner still are (the admin socket)');

    // The schema a newer daemon left: a migration this one does not know.
    await db.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from a newer switchyard')", [latest + 1]);
    t.match(byCheck(await json(t, d.sy, 'doctor')).get('migrations'), {
      status: 'WARN',
      detail: new RegExp(`at migration ${latest + 1}, newer than this switchyard knows \\(${latest}\\)`),
      fix: /upgrade switchyard/,
    });
    // One this daemon knows is missing (a database restored under it from an older backup).
    await db.query('DELETE FROM schema_migrations WHERE version >= $1', [latest]);
    const behind = await d.sy('doctor', '--json');
    t.equal(behind.code, 1, 'a FAIL exits 1');
    t.match(byCheck(JSON.parse(behind.stdout)).get('migrations'), {
      status: 'FAIL',
      detail: `${latest - 1} of ${latest} applied (schema_migrations): the schema is older than this daemon's`,
      fix: /restart the daemon/,
    });
    await db.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'put back')", [latest]);

    // The server refuses new connections to the database (the daemon's pooled ones live on): the
    // check opens its own, so it says so, with the server's reason and no password.
    await admin.query(`ALTER DATABASE ${name} CONNECTION LIMIT 0`);
    t.teardown(() => admin.query(`ALTER DATABASE ${name} CONNECTION LIMIT -1`));
    const refused = await d.sy('doctor', '--json');
    t.equal(refused.code, 1);
    const checks = byCheck(JSON.parse(refused.stdout));
    t.match(checks.get('database'), { status: 'FAIL', detail: /too many connections/, fix: /SERVICE_DATABASE_URL/ });
    t.notOk(checks.has('migrations') || checks.has('replication'), 'nothing more is claimed of a database it cannot reach');
  },
);

const primary: DatabaseFacts = {
  url: 'postgres://switchyard@db.example.com:5432/switchyard',
  reachable: true,
  error: null,
  round_trip_ms: 3,
  server_version: '16.4',
  server_version_num: 160004,
  migrations_applied: latest,
  migrations_expected: latest,
  in_recovery: false,
  replay_lag_seconds: null,
};

t.test('doctor classifies a replica as a FAIL (read-only) and says how far behind it is', async (t) => {
  const replication = (facts: Partial<DatabaseFacts>) =>
    databaseFindings({ ...primary, ...facts }).find((f) => f.check === 'replication');
  t.same(replication({}), {
    check: 'replication',
    status: 'OK',
    detail: 'a primary (not in recovery): writes go here',
    fix: null,
  });
  const caughtUp = replication({ in_recovery: true, replay_lag_seconds: 0 });
  t.match(caughtUp, { status: 'FAIL', detail: /^a replica \(pg_is_in_recovery\), caught up with its primary: it is read-only/ });
  t.equal(caughtUp?.fix, 'point SERVICE_DATABASE_URL at the primary');
  t.match(replication({ in_recovery: true, replay_lag_seconds: 2.345 }), {
    status: 'FAIL',
    detail: /, 2\.3 s behind its primary/,
  });
  t.match(replication({ in_recovery: true, replay_lag_seconds: 754.6 }), {
    status: 'FAIL',
    detail: /, 755 s behind its primary/,
  });
  t.match(replication({ in_recovery: true, replay_lag_seconds: null }), {
    status: 'FAIL',
    detail: /replayed nothing from its primary yet/,
  });

  t.match(
    databaseFindings({ ...primary, server_version: '12.9', server_version_num: 120009 }).find(
      (f) => f.check === 'database version',
    ),
    { status: 'FAIL', detail: 'PostgreSQL 12.9: Switchyard needs 13 or newer' },
  );
  const down = databaseFindings({ ...primary, reachable: false, error: 'connect ECONNREFUSED 10.0.0.5:5432' });
  t.same(
    down.map((f) => [f.check, f.status, f.detail]),
    [['database', 'FAIL', 'postgres://switchyard@db.example.com:5432/switchyard: connect ECONNREFUSED 10.0.0.5:5432']],
  );
});

t.test('judge on PostgreSQL: the database instead of disk space; unread figures are not judged', async (t) => {
  const facts = {
    ...healthyFacts(),
    env: 'production',
    data_dir: '/run/switchyard',
    // A nearly full disk under the data dir: not the database's, so no finding.
    data_dir_free_bytes: 1024,
    storage_engine: 'postgres',
    database: primary,
  };
  const at = Date.parse(facts.now);
  const checks = (f: typeof facts) => judge(f, at).map((x) => `${x.check} ${x.status}`);
  t.same(checks(facts), [
    'data dir OK',
    'database OK',
    'database version OK',
    'migrations OK',
    'replication OK',
    'email OK',
    'failed mail OK',
    'public URL OK',
    'JWT OK',
    'invitations OK',
    'clock OK',
  ]);
  t.same(
    checks({ ...facts, database: { ...primary, reachable: false, error: 'timeout expired' } }),
    ['data dir OK', 'database FAIL', 'email OK', 'public URL OK', 'JWT OK', 'clock OK'],
    'no "failed mail: none" or invitation count read from a database it cannot reach',
  );
});
