// Storage trouble is reported, not hidden: start-up on a data dir that cannot be written prints one
// line and exits non-zero; /readyz answers 503 while writes fail and 200 once one succeeds; the same
// failure is logged once per interval, not once per request; a deleted admin socket comes back.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, lstatSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { AdminClient } from '../src/cli/client.js';
import type { DaemonServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/DaemonService.js';
import { createLogThrottle } from '../src/log-throttle.js';
import type { Logger } from '../src/log.js';
import type { LevelStorage } from '../src/storage/leveldb/engine.js';
import { asPrincipal, binPath, request, spawnSwitchyard, startTestDaemon, startTestDaemonWithLogs, waitFor } from './helpers.js';

const STACK_FRAME = /^\s+at /m;
const NOBODY = 65534;

t.test('start-up on a data dir whose parent is a regular file: one line, exit 1', async (t) => {
  const file = path.join(t.testdir(), 'not-a-dir');
  writeFileSync(file, '');
  const dataDir = path.join(file, 'data');
  const run = spawnSwitchyard(t, ['serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0'], { SERVICE_LOG_LEVEL: 'info' });
  t.equal(await run.exited, 1, 'exit code 1');
  const lines = run.stderr().trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line on stderr');
  t.match(lines[0], dataDir, 'names the directory');
  t.match(lines[0], /ENOTDIR/, 'says why');
  t.notMatch(run.stderr(), STACK_FRAME, 'no stack trace');
  t.notMatch(run.stdout(), /switchyard listening/, 'never listened');
});

// Root writes through any mode bits, so the daemon runs as `nobody` here (tests run as root in CI);
// as another user the mode bits alone do it.
t.test('start-up on a data dir the daemon cannot write (0500): one line, exit 1', async (t) => {
  const asRoot = process.getuid?.() === 0;
  const dataDir = path.join(t.testdir(), 'readonly');
  mkdirSync(dataDir);
  if (asRoot) chownSync(dataDir, NOBODY, NOBODY);
  chmodSync(dataDir, 0o500);
  // Through env(1) without NODE_OPTIONS: tap's process hook, which tap adds to every child it sees,
  // writes under .tap/, which `nobody` cannot.
  const args = ['-u', 'NODE_OPTIONS', process.execPath, binPath, 'serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0'];
  const child = spawn('env', args, {
    env: { ...process.env, SERVICE_LOG_LEVEL: 'info', SERVICE_GRPC_SOCKET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  t.equal(await exited, 1, 'exit code 1');
  const lines = stderr.trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line on stderr');
  t.match(lines[0], dataDir, 'names the directory');
  t.match(lines[0], /Permission denied|EACCES/i, 'says why');
  t.notMatch(stderr, STACK_FRAME, 'no stack trace');
  t.notMatch(stdout, /switchyard listening/, 'never listened');
});

t.test('/readyz is 503 while writes fail and 200 again once one succeeds; the failure is logged once', async (t) => {
  const { daemon, logs } = await startTestDaemonWithLogs(t);
  t.equal((await request(daemon.url, 'GET', '/readyz')).status, 200, 'ready at first');

  // The engine's batch fails as LevelDB does when the disk is full (a real full disk needs a mount).
  const db = (daemon.storage as LevelStorage).db as unknown as { batch: (...args: unknown[]) => Promise<void> };
  const realBatch = db.batch;
  const diskFull = Object.assign(new Error('IO error: 000005.log: No space left on device'), { code: 'LEVEL_IO_ERROR' });
  db.batch = () => Promise.reject(diskFull);
  t.teardown(() => void (db.batch = realBatch));

  const failures = 10;
  for (let i = 0; i < failures; i++) {
    const res = await request(daemon.url, 'POST', '/v1/organizations', {
      headers: asPrincipal('0d9f5c3e-8b1a-4c2d-9e7f-6a5b4c3d2e1f'),
      body: { slug: `full-${i}` },
    });
    t.equal(res.status, 500, `write ${i} fails`);
  }
  const notReady = await request(daemon.url, 'GET', '/readyz');
  t.equal(notReady.status, 503, '503 while writes fail');
  t.equal(notReady.body.checks.storage_writes, false, 'the failing check is named');
  t.equal(notReady.body.checks.storage, true, 'storage is still open');

  const writeLines = logs()
    .split('\n')
    .filter((line) => line.includes('storage write failed'));
  t.ok(writeLines.length >= 1, 'the failure is logged');
  t.ok(writeLines.length < failures / 2, `identical failures are rate-limited (${writeLines.length} lines for ${failures})`);
  t.match(writeLines[0], /No space left on device/, 'the line says why');
  t.match(writeLines[0], /"code":"LEVEL_IO_ERROR"/, 'and carries the code');
  const unhandled = logs()
    .split('\n')
    .filter((line) => line.includes('unhandled error'));
  t.ok(unhandled.length < failures / 2, `the requests' identical errors are rate-limited too (${unhandled.length} lines)`);

  db.batch = realBatch; // the disk has room again
  const ready = await request(daemon.url, 'GET', '/readyz');
  t.equal(ready.status, 200, 'ready again: the probe write succeeded, with no client write needed');
  t.equal(ready.body.checks.storage_writes, true);

  db.batch = () => Promise.reject(diskFull);
  const failed = await request(daemon.url, 'POST', '/v1/organizations', {
    headers: asPrincipal('0d9f5c3e-8b1a-4c2d-9e7f-6a5b4c3d2e1f'),
    body: { slug: 'full-again' },
  });
  t.equal(failed.status, 500);
  db.batch = realBatch;
  const created = await request(daemon.url, 'POST', '/v1/organizations', {
    headers: asPrincipal('0d9f5c3e-8b1a-4c2d-9e7f-6a5b4c3d2e1f'),
    body: { slug: 'room-again' },
  });
  t.equal(created.status, 201, 'a client write succeeds');
  t.equal(daemon.storage.writable, true, 'which records that writes work');
  t.equal((await request(daemon.url, 'GET', '/readyz')).status, 200);
});

t.test('the log throttle: one line per message and code per interval, then a suppressed count', async (t) => {
  let now = 0;
  const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const log = {
    error: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
  } as unknown as Logger;
  const throttle = createLogThrottle(1000, () => now);
  for (let i = 0; i < 5; i++) throttle.error(log, { i }, 'disk full', 'EIO');
  throttle.error(log, {}, 'disk full', 'ENOSPC');
  throttle.error(log, {}, 'other failure', 'EIO');
  t.same(
    lines.map((l) => l.message),
    ['disk full', 'disk full', 'other failure'],
    'the same message and code once; another code or message is its own line',
  );
  now = 999;
  throttle.error(log, {}, 'disk full', 'EIO');
  t.equal(lines.length, 3, 'still within the interval');
  now = 1000;
  throttle.error(log, { i: 9 }, 'disk full', 'EIO');
  t.equal(lines.length, 4, 'logged again after the interval');
  t.same(lines[3].fields, { i: 9, suppressed: 5 }, 'with the count of lines it held back');
});

t.test('a deleted admin socket file is re-created', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_GRPC_SOCKET_CHECK_MS: '50' });
  const socketPath = daemon.grpc.socketPath;
  rmSync(socketPath);
  await waitFor(
    () => {
      try {
        // Bound, then narrowed to 0600 (the data dir, 0700, covers the moment between the two).
        const stats = lstatSync(socketPath);
        return stats.isSocket() && (stats.mode & 0o777) === 0o600;
      } catch {
        return false;
      }
    },
    { timeoutMs: 5000, what: 'the socket to be re-created, mode 0600' },
  );
  t.equal(statSync(socketPath).mode & 0o777, 0o600, 'mode 0600 again');
  const client = new AdminClient({ kind: 'unix', socketPath });
  t.teardown(() => client.close());
  const status = await client.service<DaemonServiceDefinition>('DaemonService').GetStatus({});
  t.ok(status, 'the CLI reaches the daemon through it');
});
