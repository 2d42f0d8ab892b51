// What `switchyard doctor` checks of a PostgreSQL database: that a new connection gets through, the
// server's version, the schema migrations it has against those this daemon knows, and whether it is
// a replica (and how far behind). One connection of its own, not the pool's: a pool with idle
// connections would answer even when the server refuses new ones.
import pg from 'pg';
import { redactDatabaseUrl } from '../../redact.js';
import { sqlMigrations } from './migrations.js';

/** As DatabaseFacts in proto/switchyard/admin/v1/daemon.proto. */
export interface DatabaseFacts {
  url: string;
  reachable: boolean;
  error?: string;
  round_trip_ms: number;
  server_version: string;
  server_version_num: number;
  migrations_applied: number;
  migrations_expected: number;
  in_recovery: boolean;
  replay_lag_seconds?: number;
}

/** Connect, query and their waits each give up after this long. */
const TIMEOUT_MS = 5_000;

// A replica that has replayed all it received is caught up (lag 0), however old its last replayed
// transaction: on a quiet primary that timestamp ages while nothing is behind.
const FACTS_SQL = `
SELECT current_setting('server_version') AS version,
       current_setting('server_version_num')::int AS version_num,
       (SELECT max(version) FROM schema_migrations) AS applied,
       pg_is_in_recovery() AS in_recovery,
       CASE WHEN NOT pg_is_in_recovery() THEN NULL
            WHEN pg_last_wal_receive_lsn() IS NOT NULL AND pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
       END AS lag_seconds`;

interface FactsRow {
  version: string;
  version_num: number;
  applied: number | null;
  in_recovery: boolean;
  lag_seconds: number | null;
}

export async function inspectDatabase(url: string, timeoutMs = TIMEOUT_MS): Promise<DatabaseFacts> {
  const started = performance.now();
  const base = {
    url: redactDatabaseUrl(url),
    migrations_expected: sqlMigrations.reduce((max, m) => Math.max(max, m.version), 0),
  };
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'switchyard doctor',
  });
  // A connection the server drops later must not crash the daemon.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<FactsRow>(FACTS_SQL);
    const row = rows[0];
    return {
      ...base,
      reachable: true,
      round_trip_ms: Math.round(performance.now() - started),
      server_version: row.version.split(' ')[0],
      server_version_num: row.version_num,
      migrations_applied: row.applied ?? 0,
      in_recovery: row.in_recovery,
      ...(row.lag_seconds === null ? {} : { replay_lag_seconds: Math.max(0, row.lag_seconds) }),
    };
  } catch (err) {
    return {
      ...base,
      reachable: false,
      // node-postgres' messages name the host and port at most, never the password.
      error: (err as Error).message,
      round_trip_ms: Math.round(performance.now() - started),
      server_version: '',
      server_version_num: 0,
      migrations_applied: 0,
      in_recovery: false,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}
