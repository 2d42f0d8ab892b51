// A throwaway PostgreSQL cluster for tests: initdb in a temp dir, started on a free 127.0.0.1 port
// with durability off, removed at teardown. A detached watchdog removes it even if the test process
// is SIGKILLed (tap's timeout does that), so no test leaves a postgres server running.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Test } from 'tap';

/** Every wait on PostgreSQL (initdb, start, stop, a query) gives up after this long. */
const timeoutMs = 60_000;
const versionsRoot = '/usr/lib/postgresql';
const binaries = ['initdb', 'pg_ctl', 'postgres'];
/** The superuser that owns the cluster; tests connect as the unprivileged `switchyard` role. */
const adminRole = 'postgres';
const testRole = 'switchyard';

export interface TestPostgres {
  /** URL of the `switchyard` database, owned by the `switchyard` role (trust auth on 127.0.0.1). */
  url: string;
  port: number;
  /** The temp dir holding the cluster; gone after stop(). */
  dir: string;
  /** Creates an empty database owned by `switchyard` and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (immediate mode) and removes the dir; safe to call twice. */
  stop(): Promise<void>;
}

interface Account {
  uid: number;
  gid: number;
}

/** The newest PostgreSQL under /usr/lib/postgresql/<version>/bin, or what is missing to run one. */
export function findPostgres(root = versionsRoot): { binDir: string } | { missing: string } {
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+(\.\d+)?$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const binDir = versions
    .map((version) => path.join(root, version, 'bin'))
    .find((dir) => binaries.every((name) => existsSync(path.join(dir, name))));
  if (binDir === undefined) {
    return { missing: `PostgreSQL server binaries (${root}/<version>/bin/initdb; apt-get install postgresql-15)` };
  }
  if (isRoot() && lookupAccount('postgres') === undefined) {
    return { missing: "the 'postgres' system user (initdb refuses to run as root, so the cluster runs as postgres)" };
  }
  return { binDir };
}

/** Starts a cluster for this test file; t.teardown stops it and removes its dir. */
export async function startPostgres(t: Test): Promise<TestPostgres> {
  const cluster = await launchPostgres();
  t.teardown(() => cluster.stop());
  return cluster;
}

/** Starts a cluster owned by the caller, who must call stop() (the watchdog covers a killed process). */
export async function launchPostgres(): Promise<TestPostgres> {
  const found = findPostgres();
  if ('missing' in found) throw new Error(`cannot start PostgreSQL: missing ${found.missing}`);
  const { binDir } = found;
  const account = isRoot() ? lookupAccount('postgres') : undefined;
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-pg-'));
  if (account) await chown(dir, account.uid, account.gid);
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const pgCtl = path.join(binDir, 'pg_ctl');
  // Spawned before initdb so that a process killed at any later point still leaves nothing behind.
  const watchdog = spawnWatchdog(pgCtl, dataDir, dir, account);

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= stopCluster(pgCtl, dataDir, dir, account, watchdog));
  try {
    await run(
      path.join(binDir, 'initdb'),
      ['-D', dataDir, '-U', adminRole, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      account,
    );
    const port = await startServer(pgCtl, dataDir, dir, logFile, account);
    const adminUrl = (database: string, user = adminRole) => `postgres://${user}@127.0.0.1:${port}/${database}`;
    await query(adminUrl('postgres'), `create role ${testRole} login createdb`);

    let created = 0;
    const createDatabase = async (name = `test_${++created}`): Promise<string> => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
        throw new TypeError(`database name must be a plain lower-case identifier: ${name}`);
      await query(adminUrl('postgres'), `create database ${name} owner ${testRole}`);
      return adminUrl(name, testRole);
    };
    const url = await createDatabase(testRole);
    return { url, port, dir, createDatabase, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** uid and gid of a system user from /etc/passwd, or undefined if there is none. */
function lookupAccount(name: string): Account | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const fields = line?.split(':');
  if (fields === undefined || fields.length < 4) return undefined;
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** Runs a PostgreSQL binary (as the postgres user when we are root; libuv drops root's groups). */
function run(file: string, args: string[], account: Account | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', uid: account?.uid, gid: account?.gid },
      (error, stdout, stderr) => {
        if (error) {
          const why = error.killed ? `timed out after ${timeoutMs} ms` : `failed (${error.code ?? error.signal})`;
          reject(new Error(`${path.basename(file)} ${args.join(' ')} ${why}: ${(stderr || stdout).trim()}`));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/**
 * A detached shell, outside the test's process group, that blocks reading a pipe from this process.
 * The kernel closes the pipe however this process ends, SIGKILL included; the shell then stops the
 * server and removes the dir. stop() closes the pipe itself and waits for the same cleanup.
 */
function spawnWatchdog(pgCtl: string, dataDir: string, dir: string, account: Account | undefined): ChildProcess {
  const script = [
    'cat >/dev/null',
    `if [ -f "$2/postmaster.pid" ]; then "$1" stop -D "$2" -m immediate -w -t ${timeoutMs / 1000} >/dev/null 2>&1; fi`,
    'rm -rf "$3"',
  ].join('\n');
  const watchdog = spawn('/bin/sh', ['-c', script, 'pg-watchdog', pgCtl, dataDir, dir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    uid: account?.uid,
    gid: account?.gid,
  });
  // Neither the watchdog nor its pipe may keep the test process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref(): void } | null)?.unref();
  watchdog.on('error', () => undefined);
  return watchdog;
}

/** pg_ctl start -w on a free port; retries with another port if one was taken in between. */
async function startServer(
  pgCtl: string,
  dataDir: string,
  dir: string,
  logFile: string,
  account: Account | undefined,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    const options = [
      `-p ${port}`,
      `-k '${dir}'`,
      '-c listen_addresses=127.0.0.1',
      // A throwaway cluster: durability buys nothing and costs time.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    try {
      await run(pgCtl, ['start', '-D', dataDir, '-w', '-t', String(timeoutMs / 1000), '-l', logFile, '-o', options], account);
      return port;
    } catch (error) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      if (attempt < 3 && /could not bind|already in use/i.test(log)) continue;
      throw new Error(`${(error as Error).message}\nserver log (${logFile}):\n${log.split('\n').slice(-20).join('\n')}`, {
        cause: error,
      });
    }
  }
}

async function stopCluster(
  pgCtl: string,
  dataDir: string,
  dir: string,
  account: Account | undefined,
  watchdog: ChildProcess,
): Promise<void> {
  try {
    if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
      await run(pgCtl, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', String(timeoutMs / 1000)], account);
    }
    await rm(dir, { recursive: true, force: true });
  } finally {
    // With the server gone the watchdog has nothing left to do; closing its pipe lets it exit.
    await closeWatchdog(watchdog);
  }
}

async function closeWatchdog(watchdog: ChildProcess): Promise<void> {
  if (watchdog.exitCode !== null || watchdog.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
  watchdog.stdin?.end();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const outcome = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') throw new Error(`the PostgreSQL watchdog (pid ${watchdog.pid}) did not exit within ${timeoutMs} ms`);
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** One statement on a short-lived connection (CREATE DATABASE cannot run in a pool's transaction). */
async function query(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
