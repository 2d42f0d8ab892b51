import type { Command } from 'commander';
import type { DaemonServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/DaemonService.js';
import type { DatabaseFacts__Output } from '../../grpc/generated/switchyard/admin/v1/DatabaseFacts.js';
import type { DoctorFacts__Output } from '../../grpc/generated/switchyard/admin/v1/DoctorFacts.js';
import type { Provider__Output } from '../../grpc/generated/switchyard/admin/v1/Provider.js';
import type { ProviderServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/ProviderService.js';
import type { Plain } from '../client.js';
import { execute, type Cell, type View } from '../output.js';

type DoctorFacts = Plain<DoctorFacts__Output>;
export type DatabaseFacts = Plain<DatabaseFacts__Output>;

export type Verdict = 'OK' | 'WARN' | 'FAIL';

export interface Finding {
  check: string;
  status: Verdict;
  detail: string;
  /** What to do about a WARN or a FAIL. */
  fix: string | null;
}

/** The daemon's and the CLI's clocks may differ by this much before doctor warns. */
const MAX_SKEW_S = 5;
/** The oldest PostgreSQL Switchyard supports (docs/storage.md), as server_version_num. */
const MIN_POSTGRES = 130000;
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

const ok = (check: string, detail: string): Finding => ({ check, status: 'OK', detail, fix: null });
const warn = (check: string, detail: string, fix: string): Finding => ({ check, status: 'WARN', detail, fix });
const fail = (check: string, detail: string, fix: string): Finding => ({ check, status: 'FAIL', detail, fix });

const octal = (mode: number): string => `0${mode.toString(8).padStart(3, '0')}`;
const size = (bytes: number): string => (bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GiB` : `${Math.round(bytes / MIB)} MiB`);
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function dataDirFindings(f: DoctorFacts): Finding[] {
  const dir = f.data_dir;
  const findings: Finding[] = [];
  if (f.data_dir_uid !== f.daemon_uid)
    findings.push(
      fail(
        'data dir owner',
        `${dir} belongs to uid ${f.data_dir_uid}, the daemon runs as uid ${f.daemon_uid}`,
        `chown -R ${f.daemon_uid} ${dir} (or run the daemon as its owner)`,
      ),
    );
  else if ((f.data_dir_mode & 0o077) !== 0)
    findings.push(
      warn(
        'data dir mode',
        `${dir} is ${octal(f.data_dir_mode)}: other users can reach the database and the secrets${f.data_dir_allow_shared ? ' (SERVICE_DATA_DIR_ALLOW_SHARED=1)' : ''}`,
        `chmod 700 ${dir}`,
      ),
    );
  else findings.push(ok('data dir', `${dir} is ${octal(f.data_dir_mode)}, owned by the daemon's user`));
  // On PostgreSQL the data dir holds only the admin socket: the database is checked, not this disk.
  if (f.storage_engine === 'postgres') return findings;
  const free = f.data_dir_free_bytes;
  const share = f.data_dir_total_bytes > 0 ? free / f.data_dir_total_bytes : 1;
  const room = `${size(free)} free of ${size(f.data_dir_total_bytes)}`;
  if (free < 100 * MIB) findings.push(fail('disk space', room, `free space on the file system of ${dir}: writes will fail`));
  else if (free < GIB || share < 0.05) findings.push(warn('disk space', room, `free space on the file system of ${dir}`));
  else findings.push(ok('disk space', room));
  return findings;
}

const seconds = (s: number): string => (s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`);

/**
 * The PostgreSQL database (SERVICE_DATABASE_URL) from a fresh connection: reachable, a supported
 * version, every migration this daemon knows applied, and a primary. A replica is a FAIL whatever
 * its lag: it is read-only, so every write the daemon makes fails; the lag says how stale its reads are.
 */
export function databaseFindings(db: DatabaseFacts): Finding[] {
  if (!db.reachable)
    return [
      fail(
        'database',
        `${db.url}: ${db.error ?? 'no answer'}`,
        'check that the PostgreSQL server runs and accepts connections from this host, and SERVICE_DATABASE_URL (host, port, user, password, sslmode)',
      ),
    ];
  const version = `PostgreSQL ${db.server_version}`;
  const findings = [
    ok('database', `${db.url} answered in ${db.round_trip_ms} ms`),
    db.server_version_num < MIN_POSTGRES
      ? fail('database version', `${version}: Switchyard needs 13 or newer`, 'upgrade the PostgreSQL server to 13 or newer')
      : ok('database version', version),
  ];
  const { migrations_applied: applied, migrations_expected: expected } = db;
  if (applied === expected) findings.push(ok('migrations', `${applied} of ${expected} applied`));
  else if (applied > expected)
    findings.push(
      warn(
        'migrations',
        `the database is at migration ${applied}, newer than this switchyard knows (${expected}): a newer daemon migrated it, and this one will refuse to start again`,
        'upgrade switchyard on every machine that uses this database',
      ),
    );
  else
    findings.push(
      fail(
        'migrations',
        `${applied} of ${expected} applied (schema_migrations): the schema is older than this daemon's`,
        'restart the daemon: it applies missing migrations at start; if the database was restored from an older backup, restore it with the switchyard that made it',
      ),
    );
  if (!db.in_recovery) findings.push(ok('replication', 'a primary (not in recovery): writes go here'));
  else {
    const lag = db.replay_lag_seconds;
    const behind =
      lag === undefined || lag === null
        ? 'it has replayed nothing from its primary yet'
        : lag === 0
          ? 'caught up with its primary'
          : `${seconds(lag)} behind its primary (pg_last_xact_replay_timestamp)`;
    findings.push(
      fail(
        'replication',
        `a replica (pg_is_in_recovery), ${behind}: it is read-only, so every write of the daemon fails`,
        'point SERVICE_DATABASE_URL at the primary',
      ),
    );
  }
  return findings;
}

function emailFindings(f: DoctorFacts): Finding[] {
  const findings: Finding[] = [];
  if (f.email_transport === 'held')
    findings.push(
      f.env === 'production'
        ? fail('email', 'no email transport: invitation mail is never sent', 'set EMAIL_PROVIDER_API_KEY or SERVICE_SMTP_URL')
        : warn(
            'email',
            'no email transport (development): invitation mail is held in the outbox',
            'set EMAIL_PROVIDER_API_KEY or SERVICE_SMTP_URL; until then `switchyard outbox list` shows the accept links',
          ),
    );
  else
    findings.push(
      ok('email', `sent through ${f.email_transport === 'smtp' ? 'SMTP (SERVICE_SMTP_URL)' : 'the email provider API'}`),
    );
  if (f.held_mail > 0 && f.email_transport !== 'held')
    findings.push(
      warn(
        'held mail',
        `${plural(f.held_mail, 'mail')} held from before the transport was set`,
        'send it: `switchyard outbox list --status held`, then `switchyard outbox retry <id>`',
      ),
    );
  else if (f.held_mail > 0)
    findings.push(warn('held mail', `${plural(f.held_mail, 'mail')} held`, '`switchyard outbox list --status held`'));
  if (f.failed_mail > 0)
    findings.push(
      warn(
        'failed mail',
        `${plural(f.failed_mail, 'mail')} failed after every retry`,
        '`switchyard outbox list --status failed` shows why; `switchyard outbox retry <id>` sends again',
      ),
    );
  else findings.push(ok('failed mail', 'none'));
  return findings;
}

function linkFindings(f: DoctorFacts): Finding[] {
  if (!f.public_url_set)
    return [
      f.env === 'production'
        ? fail('public URL', 'SERVICE_PUBLIC_URL is not set', 'set SERVICE_PUBLIC_URL to the address users reach the daemon by')
        : ok('public URL', `${f.public_url} (the HTTP listener; set SERVICE_PUBLIC_URL for links others can open)`),
    ];
  if (f.env === 'production' && f.public_url.startsWith('http:'))
    return [
      warn(
        'public URL',
        `${f.public_url}: accept links travel in clear text`,
        'serve it over https and set SERVICE_PUBLIC_URL=https://...',
      ),
    ];
  return [ok('public URL', f.public_url)];
}

/** The in-process runtimes the daemon registered (a model directory set) whose module is not installed. */
export function runtimeFindings(providers: Pick<Plain<Provider__Output>, 'name' | 'health'>[]): Finding[] {
  const findings: Finding[] = [];
  for (const p of providers) {
    const reason = p.health?.reason ?? '';
    const install = /^unavailable: the optional runtime (\S+) is not installed \((switchyard runtime install \w+)\)$/.exec(
      reason,
    );
    if (install !== null)
      findings.push(
        warn(`${p.name} runtime`, `${install[1]} is not installed: the ${p.name} provider cannot run its models`, install[2]),
      );
  }
  return findings;
}

/**
 * Every finding of `switchyard doctor`, from the daemon's facts and the CLI's clock at the middle of
 * the call (`clientTimeMs`): the one place the checks are judged.
 */
export function judge(f: DoctorFacts, clientTimeMs: number): Finding[] {
  const skewS = (Date.parse(f.now) - clientTimeMs) / 1000;
  const invitations =
    f.invitations_expiring > 0
      ? warn(
          'invitations',
          `${plural(f.invitations_expiring, 'pending invitation')} ${f.invitations_expiring === 1 ? 'expires' : 'expire'} within ${Math.round(f.expiring_window_seconds / 3600)} h`,
          '`switchyard invite list --org <org> --status pending`; `switchyard invite resend <id>` renews one',
        )
      : ok('invitations', `none expiring within ${Math.round(f.expiring_window_seconds / 3600)} h`);
  // Figures read from a database doctor cannot reach are not judged (the daemon sends them as 0).
  const unread = new Set(f.database?.reachable === false ? ['held mail', 'failed mail', 'invitations'] : []);
  return [
    ...dataDirFindings(f),
    ...(f.database ? databaseFindings(f.database) : []),
    ...emailFindings(f).filter((x) => !unread.has(x.check)),
    ...linkFindings(f),
    f.jwt_enabled
      ? ok('JWT', 'JWT_SECRET is set: bearer JWTs are verified')
      : warn(
          'JWT',
          'JWT_SECRET is not set: bearer JWTs are refused (API keys still work)',
          'set JWT_SECRET (32+ characters) if callers sign in with JWTs',
        ),
    ...(unread.has('invitations') ? [] : [invitations]),
    Math.abs(skewS) > MAX_SKEW_S
      ? warn(
          'clock',
          `the daemon's clock is ${Math.abs(skewS).toFixed(1)} s ${skewS > 0 ? 'ahead of' : 'behind'} this machine's`,
          'synchronise both clocks (NTP): expiries, JWT times and signed links depend on them',
        )
      : ok('clock', `within ${MAX_SKEW_S} s of this machine's (${skewS >= 0 ? '+' : ''}${skewS.toFixed(1)} s)`),
  ];
}

const verdictTones: Record<Verdict, Cell['tone']> = { OK: 'good', WARN: 'warn', FAIL: 'bad' };

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      "check the daemon's setup: data dir, disk (LevelDB) or database (PostgreSQL), email and its domain's SPF and DMARC, public URL, JWT, outbox, invitations, clock; exit 1 on any FAIL",
    )
    .option(
      '--dns-server <host[:port]>',
      "ask this DNS resolver about the sending domain's SPF and DMARC (default: the system's)",
    )
    .action(async (opts: { dnsServer?: string }, command: Command) => {
      let failed = false;
      await execute(command, {
        label: 'examining the daemon',
        run: async (client) => {
          const sent = Date.now();
          const facts = await client.service<DaemonServiceDefinition>('DaemonService').Doctor({});
          const findings = judge(facts, (sent + Date.now()) / 2);
          const { providers } = await client.service<ProviderServiceDefinition>('ProviderService').ListProviders({});
          findings.push(...runtimeFindings(providers));
          // Mail that is sent (not held) needs its domain's SPF and DMARC, asked from this machine's DNS.
          if (facts.email_transport !== 'held') {
            const { mailDnsFindings } = await import('../mail-dns.js');
            findings.push(...(await mailDnsFindings(facts.email_from, opts.dnsServer)));
          }
          failed = findings.some((x) => x.status === 'FAIL');
          return findings;
        },
        json: (findings) => ({ ok: !failed, checks: findings }),
        view: (findings) => {
          const toFix = findings.filter((x) => x.fix !== null);
          return [
            {
              kind: 'table',
              columns: ['RESULT', 'CHECK', 'DETAIL'],
              rows: findings.map((x) => [{ text: x.status, tone: verdictTones[x.status] }, x.check, x.detail]),
              empty: 'nothing to check',
            },
            ...(toFix.length === 0
              ? []
              : [
                  {
                    kind: 'table',
                    title: 'To fix',
                    columns: ['RESULT', 'CHECK', 'FIX'],
                    rows: toFix.map((x) => [{ text: x.status, tone: verdictTones[x.status] }, x.check, x.fix ?? '']),
                    empty: '',
                  } satisfies View,
                ]),
          ];
        },
      });
      if (failed) process.exitCode = 1;
    });
}
