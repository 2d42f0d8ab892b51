// How the CLI finds its daemon without --socket (contract section 10): SERVICE_GRPC_SOCKET,
// SERVICE_DATA_DIR/admin.sock, the socket of `switchyard config set socket`, ./data/admin.sock, then
// /var/lib/switchyard/admin.sock; and what it says when it finds none, or one it may not reach.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { binPath, cliCleanEnv, privateDir, repoRoot, runOwned, spawnDaemon, type CliRun } from './helpers.js';

const SYSTEM_SOCKET = '/var/lib/switchyard/admin.sock';

/** `switchyard <args>` run from `cwd`, with its own config home and no daemon setting of the runner. */
function cliIn(t: Test, cwd: string, configHome: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runOwned(t, process.execPath, [binPath, ...args], {
    cwd,
    env: { ...process.env, ...cliCleanEnv, XDG_CONFIG_HOME: configHome, ...env },
  });
}

t.test(
  'no --socket: the environment, then the config file, then ./data, each in turn',
  { skip: existsSync(SYSTEM_SOCKET) ? `${SYSTEM_SOCKET} exists on this machine` : false },
  async (t) => {
    const home = privateDir();
    const dataDir = path.join(home, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const socket = path.join(dataDir, 'admin.sock');
    await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
    const elsewhere = privateDir();
    const configHome = path.join(privateDir(), 'config');

    const fromCwd = await cliIn(t, home, configHome, ['status', '--json']);
    t.equal(fromCwd.code, 0, './data/admin.sock from the working directory');
    t.equal(JSON.parse(fromCwd.stdout).grpc_socket, socket);

    const none = await cliIn(t, elsewhere, configHome, ['status']);
    t.equal(none.code, 3, 'nowhere to be found: exit 3');
    t.equal(
      none.stderr,
      `no daemon at any of ${path.join(elsewhere, 'data', 'admin.sock')}, ${SYSTEM_SOCKET}: start it with \`switchyard serve\`, or name its socket with --socket\n`,
      'one line listing every path tried, in order',
    );

    const set = await cliIn(t, elsewhere, configHome, ['config', 'set', 'socket', path.relative(elsewhere, socket)]);
    t.equal(set.code, 0, 'config set socket');
    const file = path.join(configHome, 'switchyard', 'config.json');
    t.same(JSON.parse(readFileSync(file, 'utf8')), { socket }, 'stored absolute, in $XDG_CONFIG_HOME/switchyard/config.json');
    t.equal(statSync(file).mode & 0o777, 0o600, 'readable by its user only');
    const got = await cliIn(t, '/', configHome, ['config', 'get', 'socket']);
    t.equal(got.stdout, `${socket}\n`, 'config get prints the value');
    const gotJson = await cliIn(t, '/', configHome, ['config', 'get', 'socket', '--json']);
    t.match(JSON.parse(gotJson.stdout), { setting: 'socket', value: socket, file });

    const fromConfig = await cliIn(t, elsewhere, configHome, ['status', '--json']);
    t.equal(fromConfig.code, 0, 'the configured socket, from any directory');
    t.equal(JSON.parse(fromConfig.stdout).grpc_socket, socket);

    // What the user named wins, and is used even when nothing is there.
    const missing = path.join(elsewhere, 'nothing.sock');
    const env = await cliIn(t, elsewhere, configHome, ['status'], { SERVICE_GRPC_SOCKET: missing });
    t.equal(env.code, 3, 'SERVICE_GRPC_SOCKET beats the config file');
    t.equal(env.stderr, `no daemon at ${missing}: start it with \`switchyard serve\`\n`);
    const dir = await cliIn(t, elsewhere, configHome, ['status'], { SERVICE_DATA_DIR: elsewhere });
    t.equal(dir.code, 3, 'SERVICE_DATA_DIR beats the config file');
    t.equal(dir.stderr, `no daemon at ${path.join(elsewhere, 'admin.sock')}: start it with \`switchyard serve\`\n`);
    const flag = await cliIn(t, home, configHome, ['--socket', missing, 'status']);
    t.equal(flag.code, 3, '--socket beats everything, ./data included');

    // A configured socket that is gone is skipped, and listed.
    const stale = path.join(elsewhere, 'old.sock');
    t.equal((await cliIn(t, '/', configHome, ['config', 'set', 'socket', stale])).code, 0);
    const skipped = await cliIn(t, home, configHome, ['status', '--json']);
    t.equal(skipped.code, 0, 'a configured socket that does not exist: ./data is next');
    const listed = await cliIn(t, elsewhere, configHome, ['status', '--json']);
    t.equal(listed.code, 3);
    t.same(JSON.parse(listed.stderr).error.details, {
      tried: [stale, path.join(elsewhere, 'data', 'admin.sock'), SYSTEM_SOCKET],
    });

    const unset = await cliIn(t, '/', configHome, ['config', 'unset', 'socket']);
    t.equal(unset.code, 0, 'config unset');
    const gone = await cliIn(t, '/', configHome, ['config', 'get', 'socket']);
    t.equal(gone.code, 1, 'get of an unset setting exits 1');
    t.match(gone.stderr, /^not_found: socket is not set/);
    const bad = await cliIn(t, '/', configHome, ['config', 'set', 'colour', 'red']);
    t.equal(bad.code, 2, 'an unknown setting is a usage error');
    t.match(bad.stderr, /Allowed choices are socket/);
  },
);

const asNobody = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'true'], {
  stdio: 'ignore',
  timeout: 10_000,
});
const skipNobody =
  process.getuid?.() !== 0
    ? 'needs root, to run the CLI as another user'
    : asNobody.status !== 0
      ? 'setpriv cannot run a command as nobody here'
      : false;

/** The CLI as the unprivileged user `nobody`. */
function cliAsNobody(t: Test, args: string[]): Promise<CliRun> {
  // NODE_OPTIONS set anew: tap's preloads (which tap adds to every child) write process records
  // into the checkout, where nobody may not write; die-with-parent.js stays.
  const preload = `--import=${pathToFileURL(path.join(repoRoot, 'test', 'fixtures', 'die-with-parent.js')).href}`;
  const asUser = ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'env', `NODE_OPTIONS=${preload}`];
  return runOwned(t, 'setpriv', [...asUser, process.execPath, binPath, ...args], {
    cwd: '/',
    env: { ...process.env, ...cliCleanEnv, XDG_CONFIG_HOME: '/nonexistent' },
  });
}

t.test('a socket another user owns: permission denied, naming that user, not "no daemon"', { skip: skipNobody }, async (t) => {
  const dataDir = privateDir(); // 0700, root's
  const socket = path.join(dataDir, 'admin.sock');
  await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });

  const run = await cliAsNobody(t, ['--socket', socket, 'status']);
  t.equal(run.code, 1, 'refused: exit 1');
  t.equal(run.stdout, '');
  t.equal(
    run.stderr,
    `forbidden: permission denied on ${socket}: ${dataDir} belongs to root; run as root (e.g. sudo switchyard ...)\n`,
    'names the directory in the way and its owner',
  );
  const json = await cliAsNobody(t, ['--socket', socket, 'status', '--json']);
  t.match(JSON.parse(json.stderr), { error: { code: 'forbidden', details: { path: dataDir, owner: 'root' } } });

  // A shared data dir: the socket itself (0600) refuses the connection.
  const shared = privateDir();
  chmodSync(shared, 0o755);
  const sharedSocket = path.join(shared, 'admin.sock');
  await spawnDaemon(t, [], { SERVICE_DATA_DIR: shared, SERVICE_DATA_DIR_ALLOW_SHARED: '1' });
  const bySocket = await cliAsNobody(t, ['--socket', sharedSocket, 'status']);
  t.equal(bySocket.code, 1);
  t.equal(
    bySocket.stderr,
    `forbidden: permission denied on ${sharedSocket}: it belongs to root; run as root (e.g. sudo switchyard ...)\n`,
  );
});
