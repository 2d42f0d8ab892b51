// The data dir is private: a fresh one is created 0700 with 0600 files whatever the umask, and one
// with contents that other users can read is refused at start with one line naming the fix.
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { request, spawnDaemon, spawnSwitchyard } from './helpers.js';

const STACK_FRAME = /^\s+at /m;
const modeOf = (file: string): number => statSync(file).mode & 0o777;

/** Every file and directory under `dir` (itself included), with its permission bits. */
function walk(dir: string): Array<{ file: string; mode: number; directory: boolean }> {
  const out = [{ file: dir, mode: modeOf(dir), directory: true }];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(file));
    else out.push({ file, mode: modeOf(file), directory: false });
  }
  return out;
}

t.test('a fresh data dir under umask 022 ends 0700 with 0600 files, admin socket included', async (t) => {
  const previous = process.umask(0o022); // the child inherits it
  t.teardown(() => void process.umask(previous));
  const dataDir = path.join(t.testdir(), 'fresh', 'data');
  const daemon = await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
  // A write, so LevelDB has a log and a manifest with data in them.
  const res = await request(daemon.url, 'POST', '/v1/organizations', {
    headers: { 'x-principal-id': '6f1c2b8e-3d4a-4e5f-8a9b-0c1d2e3f4a5b' },
    body: { slug: 'private' },
  });
  t.equal(res.status, 201);
  const entries = walk(dataDir);
  t.ok(
    entries.some((e) => e.file.endsWith('admin.sock')),
    'the admin socket is there',
  );
  t.ok(entries.filter((e) => !e.directory).length > 3, 'LevelDB files are there');
  for (const e of entries) {
    if (e.directory) t.equal(e.mode, 0o700, `${path.relative(dataDir, e.file) || 'data dir'} is 0700`);
    else t.equal(e.mode, 0o600, `${path.relative(dataDir, e.file)} is 0600`);
  }
  daemon.child.kill('SIGTERM');
  t.equal(await daemon.exited, 0);
});

t.test('an existing data dir with contents that others can read (0755) is refused, exit 2, one line', async (t) => {
  const dataDir = path.join(t.testdir(), 'data');
  const first = await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0);
  chmodSync(dataDir, 0o755); // the attack: the database and its secrets readable by every user

  const run = spawnSwitchyard(t, ['serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0'], {
    SERVICE_LOG_LEVEL: 'info',
    SERVICE_DATA_DIR_ALLOW_SHARED: '',
  });
  t.equal(await run.exited, 2, 'exit code 2');
  const lines = run.stderr().trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line on stderr');
  t.match(lines[0], dataDir, 'names the directory');
  t.match(lines[0], '0755', 'names its mode');
  t.match(lines[0], `chmod 700 ${dataDir}`, 'names the fix');
  t.notMatch(run.stderr(), STACK_FRAME, 'no stack trace');
  t.notMatch(run.stdout(), /switchyard listening/, 'never listened');
  t.equal(modeOf(dataDir), 0o755, 'the directory is left as it was');

  const allowed = await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir, SERVICE_DATA_DIR_ALLOW_SHARED: '1' });
  const health = await request(allowed.url, 'GET', '/healthz');
  t.equal(health.status, 200, 'SERVICE_DATA_DIR_ALLOW_SHARED=1 overrides');
});

t.test('an empty data dir made beforehand (mkdir, 0755) is taken over and made 0700', async (t) => {
  const dataDir = path.join(t.testdir(), 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  const daemon = await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
  t.equal((await request(daemon.url, 'GET', '/healthz')).status, 200);
  t.equal(modeOf(dataDir), 0o700, 'now 0700');
});

t.test('an empty data dir that others can write is refused (they could have raced files into it)', async (t) => {
  const dataDir = path.join(t.testdir(), 'data');
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o777);
  const run = spawnSwitchyard(t, ['serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0'], { SERVICE_LOG_LEVEL: 'info' });
  t.equal(await run.exited, 2, 'exit code 2');
  t.match(run.stderr(), /open to other users \(mode 0777\)/);
});
