// The throwaway PostgreSQL the storage tests run on: it starts, `pg` talks to it, databases are
// isolated, and the powers the engine relies on (LISTEN/NOTIFY, advisory locks, SKIP LOCKED) work.
// The cluster is gone after stop(), and also after its test process is SIGKILLed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import t, { type Test } from 'tap';
import { waitFor } from './helpers.js';
import { findPostgres, startPostgres, type TestPostgres } from './support/postgres.js';

const found = findPostgres();

if ('missing' in found) {
  t.plan(0, `missing ${found.missing}`);
} else {
  const cluster = await startPostgres(t);

  /** A pool on `url`, ended at the end of the subtest (before the cluster stops). */
  const poolFor = (t: Test, url: string): pg.Pool => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    t.teardown(() => pool.end());
    return pool;
  };

  t.test('select 1 through a pool', async (t) => {
    const pool = poolFor(t, cluster.url);
    const { rows } = await pool.query<{ one: number }>('select 1 as one');
    t.same(rows, [{ one: 1 }]);
    const { rows: who } = await pool.query<{ user: string }>('select current_user as user');
    t.equal(who[0].user, 'switchyard', 'tests connect as the unprivileged switchyard role');
  });

  t.test('two databases from createDatabase are isolated', async (t) => {
    const a = poolFor(t, await cluster.createDatabase());
    const b = poolFor(t, await cluster.createDatabase('isolation_b'));
    t.match(await cluster.createDatabase(), /\/test_\d+$/, 'default names do not collide');
    await a.query('create table things (id int primary key)');
    await a.query('insert into things values (1)');
    t.same((await a.query('select id from things')).rows, [{ id: 1 }]);
    const seen = await b.query<{ name: string | null }>(`select to_regclass('things')::text as name`);
    t.equal(seen.rows[0].name, null, 'a table in one database is not visible in the other');
    await b.query('create table things (id int primary key)');
    t.same((await b.query('select id from things')).rows, [], 'same table name, separate rows');
    await t.rejects(cluster.createDatabase('Bad-Name'), TypeError);
  });

  t.test('LISTEN/NOTIFY reaches another connection', async (t) => {
    const pool = poolFor(t, cluster.url);
    const listener = await pool.connect();
    t.teardown(() => listener.release());
    const received: Array<{ channel: string; payload?: string }> = [];
    listener.on('notification', ({ channel, payload }) => received.push({ channel, payload }));
    await listener.query('listen cache_invalidation');
    await pool.query(`select pg_notify('cache_invalidation', 'api_key:01ABC')`);
    await waitFor(() => received.length > 0, { what: 'the notification' });
    t.same(received, [{ channel: 'cache_invalidation', payload: 'api_key:01ABC' }]);
  });

  t.test('pg_advisory_xact_lock blocks a second transaction until the first commits', async (t) => {
    const pool = poolFor(t, cluster.url);
    const [first, second] = [await pool.connect(), await pool.connect()];
    t.teardown(() => {
      first.release();
      second.release();
    });
    await first.query('begin');
    await first.query('select pg_advisory_xact_lock(42)');
    await second.query('begin');
    let secondHasLock = false;
    const secondLock = second.query('select pg_advisory_xact_lock(42)').then(() => (secondHasLock = true));
    // Blocked, observably: the server shows the second backend waiting on the advisory lock.
    await waitFor(
      async () => {
        const waiting = await pool.query(`select 1 from pg_locks where locktype = 'advisory' and objid = 42 and not granted`);
        return waiting.rowCount === 1;
      },
      { what: 'the second transaction to wait on the lock' },
    );
    t.equal(secondHasLock, false, 'the second transaction waits');
    const tried = await pool.query<{ got: boolean }>('select pg_try_advisory_xact_lock(42) as got');
    t.equal(tried.rows[0].got, false, 'a third connection cannot take it either');
    await first.query('commit');
    await secondLock;
    t.equal(secondHasLock, true, 'the lock passes on at commit');
    await second.query('commit');
  });

  t.test('FOR UPDATE SKIP LOCKED skips a row another transaction holds', async (t) => {
    const pool = poolFor(t, await cluster.createDatabase());
    await pool.query('create table jobs (id int primary key)');
    await pool.query('insert into jobs values (1), (2), (3)');
    const [first, second] = [await pool.connect(), await pool.connect()];
    t.teardown(() => {
      first.release();
      second.release();
    });
    const claim = 'select id from jobs order by id limit 1 for update skip locked';
    await first.query('begin');
    t.same((await first.query(claim)).rows, [{ id: 1 }]);
    await second.query('begin');
    t.same((await second.query(claim)).rows, [{ id: 2 }], 'the locked row is skipped, not waited on');
    await first.query('rollback');
    t.same((await second.query(claim)).rows, [{ id: 1 }], 'released at rollback, claimable again');
    await second.query('commit');
  });

  t.test('stop() kills the server and removes its dir', async (t) => {
    const pid = postmasterPid(cluster);
    await cluster.stop();
    await assertGone(t, cluster, pid);
    await cluster.stop();
    t.pass('a second stop() is harmless');
  });

  t.test('a SIGKILLed test process leaves no server behind', async (t) => {
    const child = spawn(
      process.execPath,
      [...typescriptLoader(), path.join(import.meta.dirname, 'support', 'postgres-child.ts')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    t.teardown(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    await waitFor(() => output.includes('\n') || child.exitCode !== null, { timeoutMs: 60_000, what: 'the child cluster' });
    if (child.exitCode !== null) throw new Error(`the child exited (${child.exitCode}) before starting a cluster:\n${output}`);
    const started = JSON.parse(output.split('\n')[0]) as Pick<TestPostgres, 'url' | 'port' | 'dir'>;
    const pid = postmasterPid(started);
    t.ok(await accepts(started.port), 'the child cluster is up');
    child.kill('SIGKILL');
    await once(child, 'exit');
    await waitFor(() => !existsSync(started.dir), { timeoutMs: 60_000, what: `the watchdog to remove ${started.dir}` });
    await assertGone(t, started, pid);
  });
}

function postmasterPid(cluster: Pick<TestPostgres, 'dir'>): number {
  return Number(readFileSync(path.join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function assertGone(t: Test, cluster: Pick<TestPostgres, 'dir' | 'port'>, pid: number): Promise<void> {
  t.notOk(existsSync(cluster.dir), 'the cluster dir is removed');
  t.notOk(await accepts(cluster.port), 'the port refuses connections');
  t.notOk(isAlive(pid), `the postmaster (pid ${pid}) is gone`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether `pid` runs (a zombie waiting for its reaper counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** The --import flag tap gave this process for TypeScript, so the child can run a .ts file too. */
function typescriptLoader(): string[] {
  return process.execArgv.filter((arg) => arg.includes('@tapjs/typescript'));
}
