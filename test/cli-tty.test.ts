// The interactive face of the CLI, in a real pseudo-terminal: tmux runs the command, capture-pane
// reads the screen. Each test has its own tmux server (-L), killed at teardown, and by a guard
// process if the test file itself is killed (the server daemonizes, out of the test's reach).
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { binPath, repoRoot, spawnDaemon, spawnOwned, spawnSwitchyard, waitFor } from './helpers.js';

const run = promisify(execFile);
const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const skip = hasTmux ? false : 'tmux is not installed (apt-get install tmux): the terminal tests need a real pseudo-terminal';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const guard = path.join(repoRoot, 'test', 'fixtures', 'run-at-parent-death.js');

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

/** Runs `switchyard <args>` in a fresh 160x40 terminal and returns the screen once it has exited. */
async function inTerminal(t: Test, args: string[], env: Record<string, string> = {}): Promise<Screen> {
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
  const command = `${[process.execPath, binPath, ...args].map(quote).join(' ')}; echo $? > ${quote(`${statusFile}.tmp`)}; mv ${quote(`${statusFile}.tmp`)} ${quote(statusFile)}`;
  t.teardown(() => tmux('kill-server').catch(() => undefined));
  spawnOwned(t, process.execPath, [guard, 'tmux', '-L', server, 'kill-server'], { env: tmuxEnv, stdio: 'ignore' });
  await tmux('-f', conf, 'new-session', '-d', '-s', 'cli', '-x', '160', '-y', '40', command);
  await waitFor(
    async () =>
      existsSync(statusFile) && (await tmux('display-message', '-p', '-t', 'cli', '#{pane_dead}')).stdout.trim() === '1',
    { intervalMs: 50, what: 'the command to exit in tmux' },
  );
  const exitStatus = Number(readFileSync(statusFile, 'utf8'));
  // From the start of the history (tmux's "Pane is dead" line can scroll the first line off screen),
  // with wrapped lines joined (-J) and their trailing blanks dropped: a long line reads as one.
  const capture = async (...flags: string[]) =>
    (await tmux('capture-pane', '-p', '-J', ...flags, '-S', '-', '-t', 'cli')).stdout.replace(/[ \t]+$/gm, '');
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
  const command = [process.execPath, binPath, 'serve', '--data-dir', path.join(dir, 'data'), '--http-addr', '127.0.0.1:0']
    .map(quote)
    .join(' ');
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
