// The interactive face of the CLI, in a real pseudo-terminal: tmux runs the command, capture-pane
// reads the screen. Each test has its own tmux server (-L), killed at teardown, and by a guard
// process if the test file itself is killed (the server daemonizes, out of the test's reach).
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import {
  binPath,
  cliCleanEnv,
  repoRoot,
  runOwned,
  spawnDaemon,
  spawnOwned,
  spawnSwitchyard,
  waitFor,
  withoutTapHook,
} from './helpers.js';

const run = promisify(execFile);
const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const skip = hasTmux ? false : 'tmux is not installed (apt-get install tmux): the terminal tests need a real pseudo-terminal';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const guard = path.join(repoRoot, 'test', 'fixtures', 'run-at-parent-death.js');

/** A shell command that runs node with `args`, without tap's process hook (the tmux server passes its NODE_OPTIONS on). */
const nodeCommand = (args: string[]) =>
  [`NODE_OPTIONS=${quote(withoutTapHook(process.env.NODE_OPTIONS))}`, ...[process.execPath, ...args].map(quote)].join(' ');

/** A short private directory in the system's temp dir, removed at teardown: paths in it fit on one line. */
function shortDir(t: Test, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Screen {
  text: string;
  /** With the escape sequences of colours and attributes. */
  styled: string;
  exitStatus: number;
}

/** What a test does in the terminal beside running the command: its width, and an answer to type. */
interface TerminalOptions {
  /** Columns (default 160). */
  width?: number;
  /** Once the screen shows `prompt`, type `keys` and Enter. */
  answer?: { prompt: RegExp; keys: string };
  /** The launcher to run (default: the checkout's bin/switchyard.js). */
  bin?: string;
}

/** Runs `switchyard <args>` in a fresh 160x40 terminal and returns the screen once it has exited. */
async function inTerminal(
  t: Test,
  args: string[],
  env: Record<string, string> = {},
  { width = 160, answer, bin = binPath }: TerminalOptions = {},
): Promise<Screen> {
  const server = `switchyard-${randomUUID().slice(0, 8)}`;
  // A short private directory for the server's socket (-L names it) and its config.
  const dir = shortDir(t, 'switchyard-tmux-');
  const conf = path.join(dir, 'tmux.conf');
  writeFileSync(conf, 'set -g remain-on-exit on\n');
  // The terminal's environment: a real TERM, and none of the runner's CI / colour settings.
  const { CI: _ci, NO_COLOR: _nc, FORCE_COLOR: _fc, TMUX: _tmux, ...base } = process.env;
  const tmuxEnv = { ...base, TMUX_TMPDIR: dir, TERM: 'xterm-256color', SERVICE_GRPC_SOCKET: '', SERVICE_DATA_DIR: '', ...env };
  const tmux = (...argv: string[]) => run('tmux', ['-L', server, ...argv], { env: tmuxEnv });
  // The exit status goes to a file: tmux's own #{pane_dead_status} is not always filled in.
  const statusFile = path.join(dir, 'status');
  const command = `${nodeCommand([bin, ...args])}; echo $? > ${quote(`${statusFile}.tmp`)}; mv ${quote(`${statusFile}.tmp`)} ${quote(statusFile)}`;
  t.teardown(() => tmux('kill-server').catch(() => undefined));
  spawnOwned(t, process.execPath, [guard, 'tmux', '-L', server, 'kill-server'], { env: tmuxEnv, stdio: 'ignore' });
  await tmux('-f', conf, 'new-session', '-d', '-s', 'cli', '-x', String(width), '-y', '40', command);
  // From the start of the history (tmux's "Pane is dead" line can scroll the first line off screen),
  // with wrapped lines joined (-J) and their trailing blanks dropped: a long line reads as one.
  const capture = async (...flags: string[]) =>
    (await tmux('capture-pane', '-p', '-J', ...flags, '-S', '-', '-t', 'cli')).stdout.replace(/[ \t]+$/gm, '');
  if (answer !== undefined) {
    await waitFor(async () => answer.prompt.test(await capture()), { intervalMs: 50, what: 'the prompt' });
    await tmux('send-keys', '-t', 'cli', answer.keys, 'Enter');
  }
  await waitFor(
    async () =>
      existsSync(statusFile) && (await tmux('display-message', '-p', '-t', 'cli', '#{pane_dead}')).stdout.trim() === '1',
    { intervalMs: 50, what: 'the command to exit in tmux' },
  );
  const exitStatus = Number(readFileSync(statusFile, 'utf8'));
  return { text: await capture(), styled: await capture('-e'), exitStatus };
}

// Called once per test: t.testdir() makes the directory anew each time it is called.
async function daemonWithOrg(t: Test): Promise<string> {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  await spawnDaemon(t, ['--grpc-socket', socket], { SERVICE_DATA_DIR: dataDir });
  const created = spawnSwitchyard(t, ['--socket', socket, 'org', 'create', 'acme-tty', '--display-name', 'Acme TTY', '--json']);
  if ((await created.exited) !== 0) throw new Error(created.stderr());
  return socket;
}

const ESCAPE = /\x1b\[[0-9;]*m/;

t.test('org list in a terminal: a table with the slug, in colour', { skip }, async (t) => {
  const socket = await daemonWithOrg(t);
  const screen = await inTerminal(t, ['--socket', socket, 'org', 'list']);
  t.equal(screen.exitStatus, 0, 'exit 0');
  t.match(screen.text, /^ID\s+SLUG\s+DISPLAY NAME\s+CREATED\s*$/m, 'the header row');
  t.match(screen.text, /^[0-9a-f-]{36}\s+acme-tty\s+Acme TTY\s+\d{4}-\d\d-\d\dT[\d:]+Z\s*$/m, 'the org, columns aligned');
  t.notMatch(screen.text, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, 'the spinner is gone');
  t.match(screen.styled, ESCAPE, 'ink coloured the output');
});

t.test('NO_COLOR in a terminal: plain text', { skip }, async (t) => {
  const socket = await daemonWithOrg(t);
  const screen = await inTerminal(t, ['--socket', socket, 'org', 'list'], { NO_COLOR: '1' });
  t.equal(screen.exitStatus, 0);
  t.match(screen.text, /^[0-9a-f-]{36}\s+acme-tty\s+Acme TTY\s/m);
  t.notMatch(screen.styled, ESCAPE, 'no colour at all');
});

t.test('--no-color in a terminal: plain text, as NO_COLOR', { skip }, async (t) => {
  const socket = await daemonWithOrg(t);
  const screen = await inTerminal(t, ['--no-color', '--socket', socket, 'org', 'list']);
  t.equal(screen.exitStatus, 0);
  t.match(screen.text, /^[0-9a-f-]{36}\s+acme-tty\s+Acme TTY\s/m);
  t.notMatch(screen.styled, ESCAPE, 'no colour at all');
  const failed = await inTerminal(t, ['--socket', `${socket}.none`, 'status', '--no-color']);
  t.equal(failed.exitStatus, 3);
  t.match(failed.text, /^no daemon at /m, 'an error is the plain line, no mark');
  t.notMatch(failed.styled, ESCAPE, 'not red either');
});

t.test('serve in a terminal: pretty, coloured log lines; the banner apart', { skip }, async (t) => {
  const server = `switchyard-${randomUUID().slice(0, 8)}`;
  const dir = shortDir(t, 'switchyard-tmux-');
  const { CI: _ci, NO_COLOR: _nc, FORCE_COLOR: _fc, TMUX: _tmux, ...base } = process.env;
  const tmuxEnv = { ...base, TMUX_TMPDIR: dir, TERM: 'xterm-256color', SERVICE_LOG_FORMAT: '', SERVICE_LOG_LEVEL: 'info' };
  const tmux = (...argv: string[]) => run('tmux', ['-L', server, ...argv], { env: tmuxEnv });
  t.teardown(() => tmux('kill-server').catch(() => undefined));
  spawnOwned(t, process.execPath, [guard, 'tmux', '-L', server, 'kill-server'], { env: tmuxEnv, stdio: 'ignore' });
  const command = nodeCommand([binPath, 'serve', '--data-dir', path.join(dir, 'data'), '--http-addr', '127.0.0.1:0']);
  await tmux('new-session', '-d', '-s', 'serve', '-x', '160', '-y', '40', command);
  const capture = async (...flags: string[]) =>
    (await tmux('capture-pane', '-p', '-J', ...flags, '-S', '-', '-t', 'serve')).stdout.replace(/[ \t]+$/gm, '');
  await waitFor(async () => /switchyard listening/.test(await capture()) && /^=+$/m.test(await capture()), {
    intervalMs: 100,
    what: 'serve to listen in tmux',
  });
  const text = await capture();
  t.match(text, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: switchyard listening$/m, 'a pretty line, not JSON');
  t.notMatch(text, /^\{"level"/m, 'no JSON line');
  t.match(await capture('-e'), ESCAPE, 'in colour');
  t.match(text, /^== switchyard: development mode =+$/m, 'the banner, between rules');
});

t.test('an error in a terminal: one red line, exit 3 (no daemon)', { skip }, async (t) => {
  // Not under t.testdir(): how long the line is must not depend on where the checkout lives.
  const socket = path.join(shortDir(t, 'switchyard-'), 'admin.sock');
  const screen = await inTerminal(t, ['--socket', socket, 'status']);
  t.equal(screen.exitStatus, 3);
  const lines = screen.text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
  t.same(lines, [`✖ no daemon at ${socket}: start it with \`switchyard serve\``]);
  t.match(screen.styled, /\x1b\[[0-9;]*31m/, 'in red');
});

/** `switchyard ... --json` against the socket; its parsed output (fails the test on a non-zero exit). */
async function jsonOf(t: Test, socket: string, ...args: string[]): Promise<any> {
  const run = spawnSwitchyard(t, ['--socket', socket, ...args, '--json']);
  if ((await run.exited) !== 0) throw new Error(`${args.join(' ')}: ${run.stderr()}`);
  return JSON.parse(run.stdout());
}

t.test('a destructive command in a terminal says what goes with it and asks y/N', { skip }, async (t) => {
  const socket = await daemonWithOrg(t);
  const team = await jsonOf(t, socket, 'team', 'create', 'platform', '--org', 'acme-tty');
  for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com'])
    await jsonOf(t, socket, 'member', 'add', '--org', 'acme-tty', '--email', email, '--role', 'viewer', '--team', 'platform');
  const bob = (await jsonOf(t, socket, 'member', 'list', '--org', 'acme-tty')).find(
    (m: { email: string | null }) => m.email === 'bob@example.com',
  );
  for (const action of ['team.update', 'team.read'])
    await jsonOf(
      t,
      socket,
      'grant',
      'create',
      '--org',
      'acme-tty',
      '--principal',
      'bob@example.com',
      '--action',
      action,
      '--resource-type',
      'team',
      '--resource-id',
      team.id,
    );

  const prompt = /Continue\? \[y\/N\]/;
  const declined = await inTerminal(
    t,
    ['--socket', socket, 'team', 'delete', 'platform', '--org', 'acme-tty'],
    {},
    {
      answer: { prompt, keys: 'n' },
    },
  );
  t.match(declined.text, 'This deletes team platform and removes 3 memberships and 2 grants on it.', 'what goes with it');
  t.match(declined.text, 'Cancelled: nothing was changed.');
  t.equal(declined.exitStatus, 1, 'declined: exit 1');
  t.equal((await jsonOf(t, socket, 'team', 'list', '--org', 'acme-tty')).length, 1, 'the team is still there');

  const removal = await inTerminal(
    t,
    ['--socket', socket, 'member', 'remove', bob.id, '--org', 'acme-tty'],
    {},
    {
      answer: { prompt, keys: 'y' },
    },
  );
  t.match(
    removal.text,
    /This removes bob@example\.com \(viewer on team [0-9a-f-]{36}\) from acme-tty, their last membership there: it also deletes 2 grants and revokes 0 API keys\./,
  );
  t.match(removal.text, /Removed [0-9a-f-]{36} \(viewer\)\./, 'then it runs');
  t.equal(removal.exitStatus, 0);
  t.equal((await jsonOf(t, socket, 'grant', 'list', '--org', 'acme-tty')).length, 0, 'the grants went with the membership');

  const deleted = await inTerminal(
    t,
    ['--socket', socket, 'team', 'delete', 'platform', '--org', 'acme-tty'],
    {},
    {
      answer: { prompt, keys: 'y' },
    },
  );
  t.match(deleted.text, 'This deletes team platform and removes 2 memberships and 0 grants on it.');
  t.match(deleted.text, 'Deleted team platform.');
  t.equal(deleted.exitStatus, 0);

  const key = await jsonOf(t, socket, 'key', 'create', '--org', 'acme-tty', '--name', 'ci');
  const revoked = await inTerminal(
    t,
    ['--socket', socket, 'key', 'revoke', 'ci', '--org', 'acme-tty'],
    {},
    {
      answer: { prompt, keys: 'yes' },
    },
  );
  t.match(revoked.text, `This revokes API key ci (svc_${key.prefix}_..., acting as`);
  t.match(revoked.text, `Revoked ci (${key.prefix}).`);
  t.equal(revoked.exitStatus, 0);

  const skipped = await inTerminal(t, ['--socket', socket, 'key', 'create', '--org', 'acme-tty', '--name', 'ci', '--json']);
  t.equal(skipped.exitStatus, 0, 'the name of a revoked key is free again');
  const yes = await inTerminal(t, ['--socket', socket, 'key', 'revoke', 'ci', '--org', 'acme-tty', '--yes']);
  t.notMatch(yes.text, 'Continue?', '--yes does not ask');
  t.equal(yes.exitStatus, 0);
});

t.test('a table wider than the terminal shrinks its widest columns with an ellipsis', { skip }, async (t) => {
  const socket = await daemonWithOrg(t);
  await jsonOf(
    t,
    socket,
    'member',
    'add',
    '--org',
    'acme-tty',
    '--email',
    'someone-with-a-long-address@example.com',
    '--role',
    'viewer',
  );
  const narrow = await inTerminal(t, ['--socket', socket, 'member', 'list', '--org', 'acme-tty'], {}, { width: 80 });
  t.equal(narrow.exitStatus, 0);
  const lines = narrow.text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
  t.ok(lines.length >= 3, 'a header and two rows');
  for (const line of lines) t.ok(line.length <= 80, `fits 80 columns: ${line}`);
  t.match(narrow.text, /^MEMBERSHIP\s+EMAIL\s+PRINCIPAL\s+ROLE\s+TEAM\s+SINCE$/m, 'every column is still there');
  t.match(narrow.text, '…', 'cut text ends with an ellipsis');
  t.match(narrow.text, /\bviewer\b/, 'a short column keeps its text');

  const wide = await inTerminal(t, ['--socket', socket, 'member', 'list', '--org', 'acme-tty'], {}, { width: 200 });
  t.notMatch(wide.text, '…', 'a wide terminal shows everything');
  t.match(wide.text, 'someone-with-a-long-address@example.com');
});

t.test('doctor and status in a terminal: the new lines, in colour', { skip }, async (t) => {
  const socket = await daemonWithOrg(t);
  const doctor = await inTerminal(t, ['--socket', socket, 'doctor']);
  t.equal(doctor.exitStatus, 0, 'no FAIL');
  t.match(doctor.text, /^RESULT\s+CHECK\s+DETAIL\s*$/m, 'the checks table');
  t.match(doctor.text, /^OK\s+data dir\s+\//m, 'the data dir (its path may wrap: it lives under the checkout)');
  t.match(doctor.text, /^OK\s+clock\s+within 5 s/m);
  t.notMatch(doctor.text, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, 'the spinner is gone');
  t.match(doctor.styled, /\x1b\[[0-9;]*32mOK/, 'OK in green');
  const status = await inTerminal(t, ['--socket', socket, 'status']);
  t.equal(status.exitStatus, 0);
  t.match(status.text, /^email:\s+(held|provider|smtp)/m);
  t.match(status.text, /^jwt:\s+(on|off)/m);
  t.match(status.text, /^events:\s+2\s*$/m, "organization.created and its owner's member.added");
});

t.test("a build without the ink bundle (tsc alone): the launcher's one line in a terminal, not a stack", { skip }, async (t) => {
  // A copy of the build beside the checkout's node_modules and protos, without dist/src/cli/views-bundle.js.
  const copy = shortDir(t, 'switchyard-build-');
  cpSync(path.join(repoRoot, 'bin'), path.join(copy, 'bin'), { recursive: true });
  cpSync(path.join(repoRoot, 'dist', 'src'), path.join(copy, 'dist', 'src'), {
    recursive: true,
    filter: (file) => !path.basename(file).startsWith('views-bundle.js'),
  });
  for (const linked of ['node_modules', 'proto', 'package.json'])
    symlinkSync(path.join(repoRoot, linked), path.join(copy, linked));
  const socket = await daemonWithOrg(t);
  const bin = path.join(copy, 'bin', 'switchyard.js');
  const screen = await inTerminal(t, ['--socket', socket, 'org', 'list'], {}, { bin });
  t.equal(screen.exitStatus, 1);
  const lines = screen.text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
  t.same(lines, ['switchyard is not built yet: run npm run build first (npm start builds too)']);
  // Without ink (a pipe, --json) that build works: only a terminal's output needs the bundle.
  const piped = await runOwned(t, process.execPath, [bin, '--socket', socket, 'org', 'list', '--json'], {
    env: { ...process.env, ...cliCleanEnv },
  });
  t.equal(piped.code, 0, piped.stderr);
  t.match(JSON.parse(piped.stdout), [{ slug: 'acme-tty' }]);
});
