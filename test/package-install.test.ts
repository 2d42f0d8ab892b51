// Issue 14 item 1: the package installs. `npm pack` makes a tarball of the built daemon (its `files`
// list: no tests, no bench, no stray local files); that tarball installed into a temporary prefix
// as `npm install -g` lays it out (lib/node_modules/switchyard, its dependencies, the bin link) gives
// a `switchyard` that prints its version, serves until /readyz answers 200, answers `status` over
// its socket, and runs without its optional dependencies (the in-process runtimes say they are
// absent). Tests talk to no registry, and `npm install -g --offline` still asks one for package
// metadata, so the dependencies come from the lockfile with `npm ci --offline` (the cache `npm ci`
// filled); the tarball's contents and layout are what an operator's `npm install -g` gets.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { privateDir, repoRoot, runOwned, spawnOwned, waitFor } from './helpers.js';

const run = promisify(execFile);
const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

t.test('the packed tarball installs and runs', { timeout: 290_000 }, async (t) => {
  const work = privateDir();
  // dist/ is built by `npm test` itself; `prepack` builds it for a real `npm pack`.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repoRoot });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = packed.files.map((f) => f.path);
  t.ok(files.includes('bin/switchyard.js'), 'the launcher');
  t.ok(files.includes('dist/src/cli/index.js'), 'the built CLI');
  t.ok(files.includes('dist/src/cli/views-bundle.js'), 'its ink views, bundled');
  t.ok(files.includes('dist/src/cli/grpc-lib.js'), 'its gRPC client libraries, bundled');
  t.notMatch(
    readFileSync(path.join(repoRoot, 'dist', 'src', 'cli', 'grpc-lib.js'), 'utf8'),
    /\bfrom ['"]@grpc\/|require\(['"](@grpc\/|protobufjs)/,
    'the bundle loads no gRPC module from node_modules',
  );
  t.ok(files.includes('proto/switchyard/admin/v1/daemon.proto'), 'the admin API protos');
  t.ok(files.includes('systemd/switchyard.service'), 'the systemd unit');
  t.same(
    files.filter((f) => /^(test|bench|src|dist\/test|dist\/bench|data)\//.test(f)),
    [],
    'no tests, bench, sources or local data',
  );

  const prefix = path.join(work, 'prefix');
  const installed = path.join(prefix, 'lib', 'node_modules', 'switchyard');
  mkdirSync(installed, { recursive: true });
  mkdirSync(path.join(prefix, 'bin'));
  await run('tar', ['xzf', path.join(work, packed.filename), '-C', installed, '--strip-components=1']);
  copyFileSync(path.join(repoRoot, 'package-lock.json'), path.join(installed, 'package-lock.json'));
  // What `npm install -g` installs: no dev dependencies, and not the in-process runtimes
  // (onnxruntime-node, node-llama-cpp: hundreds of MB), optional peer dependencies that npm leaves out;
  // the daemon runs without them, and says so for the providers that need them.
  await run('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: installed });
  for (const runtime of ['node-llama-cpp', 'onnxruntime-node', '@node-llama-cpp'])
    t.notOk(existsSync(path.join(installed, 'node_modules', runtime)), `${runtime} is not installed by default`);
  // Node resolves a module from every node_modules above the package too: one left in a folder
  // above the temp dir (say /tmp/node_modules) would hand the daemon a runtime the install lacks.
  for (const runtime of ['node-llama-cpp', 'onnxruntime-node'])
    t.throws(
      () => createRequire(path.join(installed, 'package.json')).resolve(runtime),
      { code: 'MODULE_NOT_FOUND' },
      `${runtime} cannot be found from the installed package (no node_modules above ${work} provides it)`,
    );
  const { stdout: du } = await run('du', ['-sk', prefix]);
  const installedMb = Number(du.split(/\s/)[0]) / 1024;
  t.comment(`installed size: ${installedMb.toFixed(1)} MB`);
  t.ok(installedMb < 150, `the install is under 150 MB (${installedMb.toFixed(1)} MB)`);
  symlinkSync(
    path.join('..', 'lib', 'node_modules', 'switchyard', 'bin', 'switchyard.js'),
    path.join(prefix, 'bin', 'switchyard'),
  );
  const bin = path.join(prefix, 'bin', 'switchyard');
  t.ok(readdirSync(path.join(prefix, 'bin')).includes('switchyard'), 'the switchyard command is installed');
  const env = { PATH: process.env.PATH ?? '', HOME: work };
  const shown = await runOwned(t, bin, ['--version'], { env });
  t.equal(shown.stdout.trim(), version);

  const dataDir = path.join(work, 'data');
  const socket = path.join(work, 'admin.sock');
  const models = path.join(work, 'models');
  mkdirSync(models);
  writeFileSync(path.join(models, 'small.gguf'), 'not read: the runtime is absent');
  writeFileSync(path.join(models, 'small.onnx'), 'not read: the runtime is absent');
  const daemon = spawnOwned(t, bin, ['serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0', '--grpc-socket', socket], {
    env: { ...env, SERVICE_GGUF_MODEL_DIR: models, SERVICE_TRANSFORMERS_MODEL_DIR: models },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  daemon.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  daemon.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  let url = '';
  await waitFor(
    () => {
      url = /"url":"(http:\/\/[^"]+)".*switchyard listening/.exec(out)?.[1] ?? '';
      if (daemon.exitCode !== null) throw new Error(`serve exited (${daemon.exitCode}): ${out}`);
      return url !== '';
    },
    { what: 'the installed daemon to listen' },
  );
  await waitFor(
    async () =>
      (await fetch(`${url}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200,
    { what: '/readyz 200' },
  );
  const status = await runOwned(t, bin, ['--socket', socket, 'status', '--json'], { env });
  t.equal(status.code, 0, status.stderr);
  t.match(JSON.parse(status.stdout), { version, state: 'running' });
  if (hasScript) {
    // In a pseudo-terminal the CLI renders with ink, from the bundle the tarball carries.
    const inTerminal = await runOwned(
      t,
      'script',
      ['-qec', `stty cols 160 rows 40; '${bin}' --socket '${socket}' status`, '/dev/null'],
      {
        env: { ...env, TERM: 'xterm-256color' },
      },
    );
    t.equal(inTerminal.code, 0, inTerminal.stdout);
    t.match(inTerminal.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''), /^state:\s+running/m, 'the status record, drawn by ink');
    t.match(inTerminal.stdout, /\x1b\[[0-9;]*m/, 'in colour');
  }

  // The in-process runtimes are optional dependencies, absent here: their providers say so, and why.
  let runtimes: { name: string; health: { status: string; reason?: string } }[] = [];
  await waitFor(
    async () => {
      const list = await runOwned(t, bin, ['--socket', socket, 'provider', 'list', '--json'], { env });
      runtimes = (JSON.parse(list.stdout) as typeof runtimes).filter((p) => p.name === 'gguf' || p.name === 'transformers');
      return runtimes.length === 2 && runtimes.every((p) => p.health.status !== 'unknown');
    },
    { what: 'the runtimes probed' },
  );
  for (const [name, module, install] of [
    ['gguf', 'node-llama-cpp', 'gguf'],
    ['transformers', 'onnxruntime-node', 'onnx'],
  ]) {
    const provider = runtimes.find((p) => p.name === name)!;
    t.equal(provider.health.status, 'unhealthy', `${name} without ${module}`);
    t.equal(
      provider.health.reason,
      `unavailable: the optional runtime ${module} is not installed (switchyard runtime install ${install})`,
      `${name} names what is missing and how to install it`,
    );
  }
  // doctor says the same, with the command as the fix.
  const doctor = await runOwned(t, bin, ['--socket', socket, 'doctor', '--json'], { env });
  const checks = (JSON.parse(doctor.stdout) as { checks: { check: string; status: string; detail: string; fix: string }[] })
    .checks;
  t.match(
    checks.filter((c) => c.check.endsWith(' runtime')),
    [
      {
        check: 'gguf runtime',
        status: 'WARN',
        detail: /node-llama-cpp is not installed/,
        fix: 'switchyard runtime install gguf',
      },
      { check: 'transformers runtime', status: 'WARN', detail: /onnxruntime-node/, fix: 'switchyard runtime install onnx' },
    ],
  );
  // The command installs beside the global package, the CPU build of llama.cpp alone.
  const plan = await runOwned(t, bin, ['runtime', 'install', 'gguf', 'onnx', '--dry-run', '--json'], { env });
  t.equal(plan.code, 0, plan.stderr);
  const plans = (JSON.parse(plan.stdout) as { plans: { command: string[]; env: Record<string, string> }[] }).plans;
  const pinned = (
    JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    }
  ).peerDependencies;
  t.same(plans[0].command, [
    'npm',
    'install',
    '--global',
    '--prefix',
    prefix,
    '--omit=optional',
    '--no-audit',
    '--no-fund',
    `node-llama-cpp@${pinned['node-llama-cpp']}`,
    ...(process.platform === 'linux' && process.arch === 'x64' ? [`@node-llama-cpp/linux-x64@${pinned['node-llama-cpp']}`] : []),
  ]);
  t.same(plans[1].command.slice(-1), [`onnxruntime-node@${pinned['onnxruntime-node']}`]);
  t.match(plans[1].env, { ONNXRUNTIME_NODE_INSTALL: 'skip' }, 'without the CUDA download');
  daemon.kill('SIGTERM');
});

t.test('a clone that was not built says so in one line, not a stack', async (t) => {
  const clone = privateDir();
  mkdirSync(path.join(clone, 'bin'));
  copyFileSync(path.join(repoRoot, 'bin', 'switchyard.js'), path.join(clone, 'bin', 'switchyard.js'));
  for (const args of [['--version'], ['serve']]) {
    const r = await runOwned(t, process.execPath, [path.join(clone, 'bin', 'switchyard.js'), ...args]);
    t.equal(r.code, 1);
    t.equal(r.stderr, 'switchyard is not built yet: run npm run build first (npm start builds too)\n');
  }
});
