// Row (11) of `npm run bench` (alone: `--only cli`): how long a CLI command takes from start to exit,
// as a person at a terminal meets it. Each command runs in a pseudo-terminal (util-linux `script`),
// through the bin as installed (its shebang and flags), against a `switchyard serve` child; beside
// it, in the same pseudo-terminal and in turn, `node -e 0`: what starting node alone costs here.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stopChild } from './children.js';

export interface CliStartFigures {
  /** Start-to-exit milliseconds of each run, in run order, per subject. */
  baseline: number[];
  statusJson: number[];
  orgList: number[];
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Whether `script` (util-linux) can give a command a pseudo-terminal here. */
export function hasScript(): boolean {
  return spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Milliseconds from spawning `command` in a fresh 120x40 pseudo-terminal to its exit (status 0). */
async function timeInTerminal(command: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawn('script', ['-qfec', `stty cols 120 rows 40; ${command}`, '/dev/null'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${command} exited ${code}:\n${output}`);
  return ms;
}

/** `runs` start-to-exit times of each subject, taken in turn (baseline, status --json, org list) so drift hits all alike. */
export async function measureCliStart(
  binPath: string,
  runs: number,
  progress: (message: string) => void,
): Promise<CliStartFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bench-cli-'));
  const socket = path.join(dir, 'data', 'admin.sock');
  const env = { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'xterm-256color', SERVICE_LOG_LEVEL: 'warn' };
  const daemon = spawn(process.execPath, [binPath, 'serve', '--data-dir', path.join(dir, 'data'), '--http-addr', '127.0.0.1:0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  daemon.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(daemon, 'exit');
  try {
    const deadline = Date.now() + 10_000;
    while (!existsSync(socket)) {
      if (daemon.exitCode !== null) throw new Error(`switchyard serve exited early (${daemon.exitCode}):\n${stderr}`);
      if (Date.now() > deadline) throw new Error('timed out after 10 s waiting for the admin socket');
      await new Promise((r) => setTimeout(r, 20));
    }
    const cli = (args: string): string => `${quote(binPath)} --socket ${quote(socket)} ${args}`;
    await timeInTerminal(cli('org create bench --json'), env);
    const subjects: Array<[keyof CliStartFigures, string]> = [
      ['baseline', `${quote(process.execPath)} -e 0`],
      ['statusJson', cli('status --json')],
      ['orgList', cli('org list')],
    ];
    const figures: CliStartFigures = { baseline: [], statusJson: [], orgList: [] };
    progress(`(11) CLI start to exit in a pseudo-terminal: ${runs} runs of node -e 0, status --json and org list, in turn`);
    for (const [, command] of subjects) await timeInTerminal(command, env); // warm the file cache
    for (let i = 0; i < runs; i++) for (const [name, command] of subjects) figures[name].push(await timeInTerminal(command, env));
    return figures;
  } finally {
    await stopChild(daemon, exited);
    await rm(dir, { recursive: true, force: true });
  }
}
