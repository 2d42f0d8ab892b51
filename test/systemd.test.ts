// systemd/switchyard.service: systemd's own verifier accepts it, the hardening is all there, and the
// example environment file only names real, built settings with valid values; the PostgreSQL drop-in
// verifies with it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../src/config/load.js';
import { optionSpecs } from '../src/config/schema.js';
import { binPath, PATIENCE_MS, repoRoot } from './helpers.js';

const unitPath = path.join(repoRoot, 'systemd', 'switchyard.service');
const envExamplePath = path.join(repoRoot, 'systemd', 'switchyard.env.example');
const unitText = readFileSync(unitPath, 'utf8');

/** Section -> directives in order (a key may repeat, e.g. Environment=). */
function parseUnit(text: string): Map<string, Array<[string, string]>> {
  const sections = new Map<string, Array<[string, string]>>();
  let current: Array<[string, string]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = [];
      sections.set(header[1], current);
      continue;
    }
    const eq = line.indexOf('=');
    if (current === undefined || eq < 0) throw new Error(`unexpected line in unit: ${raw}`);
    current.push([line.slice(0, eq).trim(), line.slice(eq + 1).trim()]);
  }
  return sections;
}

const unit = parseUnit(unitText);
const service = unit.get('Service') ?? [];
const valuesOf = (key: string): string[] => service.filter(([k]) => k === key).map(([, v]) => v);
const valueOf = (key: string): string | undefined => valuesOf(key).at(-1);

/** seconds from a systemd time span such as `30`, `30s`, `1min 30s`. */
function timespanSeconds(span: string): number {
  const units: Record<string, number> = { '': 1, s: 1, sec: 1, m: 60, min: 60, h: 3600 };
  let total = 0;
  for (const [, n, u] of span.matchAll(/(\d+)\s*([a-z]*)/g)) {
    if (!(u in units)) throw new Error(`unsupported time unit in ${span}`);
    total += Number(n) * units[u];
  }
  return total;
}

// spawnSync's timeout bounds each run (the child is killed past it); systemd-analyze only reads files,
// so a run outlives a killed test file by no more than its own short work.
function findSystemdAnalyze(): string | undefined {
  const probe = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8', timeout: PATIENCE_MS });
  return probe.error === undefined && probe.status === 0 ? probe.stdout.split('\n')[0] : undefined;
}
const analyzeVersion = findSystemdAnalyze();
const skipAnalyze =
  analyzeVersion === undefined ? 'systemd-analyze is not installed here (.ci/run installs the systemd package)' : false;

function analyze(args: string[]): { status: number | null; output: string } {
  const run = spawnSync('systemd-analyze', args, { encoding: 'utf8', timeout: PATIENCE_MS });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Writes a copy of the unit, ExecStart replaced when given, into `dir` as switchyard.service. */
function writeUnitCopy(dir: string, execStart?: string, extra = ''): string {
  const file = path.join(dir, 'switchyard.service');
  let text = execStart === undefined ? unitText : unitText.replace(/^ExecStart=.*$/m, `ExecStart=${execStart}`);
  if (extra !== '') text = text.replace(/^\[Service\]$/m, `[Service]\n${extra}`);
  writeFileSync(file, text);
  return file;
}

/** verify's lines that are about our unit: `<file>:<line>: ...` or `switchyard.service: ...`. */
const aboutOurUnit = (output: string): string[] => output.split('\n').filter((l) => l.includes('switchyard.service'));

/**
 * A filesystem root for `verify --root`: this machine's systemd units (the targets the unit names) and
 * the unit in /etc/systemd/system; `switchyard` installed in `bin` (under the root) when given.
 */
function rootWith(dir: string, bin?: string): string {
  const root = path.join(dir, bin === undefined ? 'bare' : bin.replaceAll('/', '_'));
  mkdirSync(path.join(root, 'usr', 'lib', 'systemd'), { recursive: true });
  cpSync(systemUnitsDir!, path.join(root, 'usr', 'lib', 'systemd', 'system'), { recursive: true });
  mkdirSync(path.join(root, 'etc', 'systemd', 'system'), { recursive: true });
  writeFileSync(path.join(root, 'etc', 'systemd', 'system', 'switchyard.service'), unitText);
  if (bin !== undefined) {
    mkdirSync(path.join(root, bin), { recursive: true });
    writeFileSync(path.join(root, bin, 'switchyard'), '#!/bin/sh\n', { mode: 0o755 });
  }
  return root;
}
const systemUnitsDir = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((d) => existsSync(path.join(d, 'sysinit.target')));

t.test(
  'verify resolves the shipped ExecStart: it passes where `switchyard` is installed and fails where it is not',
  { skip: skipAnalyze || (systemUnitsDir === undefined ? "this machine's systemd units are not installed" : false) },
  async (t) => {
    t.comment(analyzeVersion ?? '');
    const dir = t.testdir();
    const verifyIn = (root: string) =>
      analyze(['verify', `--root=${root}`, path.join(root, 'etc', 'systemd', 'system', 'switchyard.service')]);
    // Where `npm install -g` puts the launcher: /usr/local/bin (nodejs.org's prefix) or /usr/bin (distributions').
    for (const bin of ['usr/local/bin', 'usr/bin']) {
      const { status, output } = verifyIn(rootWith(dir, bin));
      t.equal(status, 0, `switchyard in /${bin}: verify exits 0`);
      t.same(aboutOurUnit(output), [], `switchyard in /${bin}: no warnings about the unit`);
      if (status !== 0) t.comment(output);
    }
    // Not installed: the same check fails, naming the command, so the passes above mean it resolved.
    const missing = verifyIn(rootWith(dir));
    t.not(missing.status, 0, 'switchyard nowhere: verify fails');
    t.match(missing.output, /Command switchyard is not executable/);
  },
);

t.test('systemd-analyze verify accepts the unit', { skip: skipAnalyze }, async (t) => {
  const dir = t.testdir();
  // The documented /opt-style form, with paths that exist here: this node and this repository's launcher.
  const file = writeUnitCopy(dir, `${process.execPath} ${binPath} serve`);
  const { status, output } = analyze(['verify', file]);
  t.equal(status, 0, 'node + bin/switchyard.js: verify exits 0');
  t.same(aboutOurUnit(output), [], "node + bin/switchyard.js: no warnings about the unit's directives");
  if (status !== 0) t.comment(output);

  // Control: the same check does see a bad directive, so a clean result above means something.
  const bad = writeUnitCopy(dir, `${process.execPath} ${binPath} serve`, 'ProtectSystem=bogus\nNoSuchDirective=1');
  t.ok(aboutOurUnit(analyze(['verify', bad]).output).length >= 2, 'a broken copy is reported');
});

t.test('the PostgreSQL drop-in verifies with the unit', { skip: skipAnalyze }, async (t) => {
  const dropInText = readFileSync(path.join(repoRoot, 'systemd', 'switchyard.service.d', 'postgres.conf'), 'utf8');
  const dir = t.testdir();
  const file = writeUnitCopy(dir, `${process.execPath} ${binPath} serve`);
  mkdirSync(path.join(dir, 'switchyard.service.d'));
  const dropIn = path.join(dir, 'switchyard.service.d', 'postgres.conf');
  writeFileSync(dropIn, dropInText);
  const clean = analyze(['verify', file]);
  t.equal(clean.status, 0, clean.output);
  t.same(
    clean.output.split('\n').filter((l) => l.includes('postgres.conf')),
    [],
    'no warnings about the drop-in',
  );
  t.match(dropInText, /^Environment=SERVICE_DATABASE_POOL_SIZE=\d+$/m, 'it sets the pool size');
  t.notMatch(dropInText, /^Environment=SERVICE_DATABASE_URL/m, 'the URL (a secret) stays in the environment file');
  // Control: verify reads the drop-in, so a broken one is reported.
  writeFileSync(dropIn, `${dropInText}\n[Service]\nNoSuchDirective=1\n`);
  const broken = analyze(['verify', file]);
  t.ok(
    broken.output.split('\n').some((l) => l.includes('postgres.conf')),
    'a broken drop-in is reported',
  );
});

t.test('systemd-analyze security rates the unit well', { skip: skipAnalyze }, async (t) => {
  const file = writeUnitCopy(t.testdir(), `${process.execPath} ${binPath} serve`);
  const { status, output } = analyze(['security', '--offline=yes', '--no-pager', file]);
  if (status !== 0 && /offline/i.test(output) && /unrecognized|unknown/i.test(output)) {
    t.pass('security review', { skip: `this systemd-analyze has no --offline security review (${analyzeVersion})` });
    return;
  }
  const exposure = Number(/Overall exposure level for \S+: ([\d.]+)/.exec(output)?.[1]);
  t.ok(exposure <= 3, `exposure level ${exposure} (0 best, 10 worst) is at most 3`);
});

t.test('the unit has the service settings and hardening directives', async (t) => {
  t.match(valueOf('ExecStart'), /^(switchyard|\/usr\/bin\/node \/opt\/switchyard\/bin\/switchyard\.js) serve$/);
  const expected: Record<string, string> = {
    Type: 'exec',
    DynamicUser: 'yes',
    StateDirectory: 'switchyard',
    EnvironmentFile: '-/etc/switchyard/switchyard.env',
    KillSignal: 'SIGTERM',
    Restart: 'on-failure',
    RestartPreventExitStatus: '2',
    UMask: '0077',
    ProtectSystem: 'strict',
    ProtectHome: 'yes',
    PrivateTmp: 'yes',
    PrivateDevices: 'yes',
    NoNewPrivileges: 'yes',
    RestrictAddressFamilies: 'AF_UNIX AF_INET AF_INET6',
    CapabilityBoundingSet: '',
    SystemCallFilter: '@system-service',
    LockPersonality: 'yes',
    RestrictRealtime: 'yes',
    RestrictSUIDSGID: 'yes',
    ProtectKernelTunables: 'yes',
    ProtectKernelModules: 'yes',
    ProtectKernelLogs: 'yes',
    ProtectControlGroups: 'yes',
  };
  for (const [key, value] of Object.entries(expected)) t.equal(valueOf(key), value, `${key}=${value}`);
  t.equal(valueOf('MemoryDenyWriteExecute'), undefined, 'MemoryDenyWriteExecute is not set (V8 JIT needs W+X pages)');

  const env = new Map(valuesOf('Environment').map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]));
  t.equal(env.get('SERVICE_DATA_DIR'), '/var/lib/switchyard', 'the data dir is the StateDirectory');
  t.equal(env.get('SERVICE_ENV'), 'production');

  const stopSeconds = timespanSeconds(valueOf('TimeoutStopSec') ?? '0');
  const shutdownMs = loadConfig({ env: {} }).shutdownTimeoutMs;
  t.ok(
    stopSeconds * 1000 >= shutdownMs + 5000,
    `TimeoutStopSec (${stopSeconds} s) leaves room after the daemon's shutdown timeout (${shutdownMs} ms)`,
  );
  t.match(unit.get('Install') ?? [], [['WantedBy', 'multi-user.target']]);
});

t.test('the example environment file names real settings with valid values', async (t) => {
  const known = new Set(Object.values(optionSpecs).map((s) => s.env));
  const entries: Array<{ name: string; value: string; active: boolean }> = [];
  for (const line of readFileSync(envExamplePath, 'utf8').split('\n')) {
    const m = /^(#?)([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) entries.push({ active: m[1] === '', name: m[2], value: m[3] });
  }
  const names = new Set(entries.map((e) => e.name));
  for (const name of names) t.ok(known.has(name), `${name} is a configuration variable`);
  const main = [
    'SERVICE_HTTP_ADDR',
    'SERVICE_PUBLIC_URL',
    'SERVICE_LOG_LEVEL',
    'SERVICE_SHUTDOWN_TIMEOUT_MS',
    'SERVICE_GRPC_SOCKET',
    'JWT_SECRET',
    'EMAIL_PROVIDER_API_KEY',
    'SERVICE_SMTP_URL',
    'SERVICE_OUTBOX_RETRY_DELAYS_MS',
  ];
  for (const name of main) t.ok(names.has(name), `lists ${name}`);
  const planned = new Set(
    Object.values(optionSpecs)
      .filter((s) => s.planned !== undefined)
      .map((s) => s.env),
  );
  for (const name of names) t.notOk(planned.has(name), `${name} is built (the example lists only what works today)`);
  t.notOk(
    entries.some((e) => e.active && e.name === 'SERVICE_DATA_DIR'),
    'the data dir is left to the unit',
  );

  // Each example value, on its own, is accepted by the real configuration loader.
  const base = {
    SERVICE_ADMIN_TOKEN: 'a'.repeat(32),
    EMAIL_PROVIDER_API_KEY: 're_example',
    SERVICE_PUBLIC_URL: 'https://switchyard.example.com',
  };
  for (const { name, value } of entries.filter((e) => e.value !== '')) {
    t.doesNotThrow(() => loadConfig({ env: { ...base, [name]: value } }), `${name}=${value} is valid`);
  }
});
