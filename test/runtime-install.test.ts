// Issue 35: `switchyard runtime install onnx` in a clone said "installed" while npm had left the
// package out: npm's `install --no-save` treats a root's optional peer as satisfied, prunes what it
// fetched and reports "up to date" (npm/cli#9024). The install now goes through a scratch prefix and
// is checked by resolving the module from the package, as the daemon does. Real npm, against a small
// registry on 127.0.0.1 (test/fakes/npm-registry.ts).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { installedVersion, installRuntime, planRuntimeInstall } from '../src/cli/commands/runtime.js';
import { NpmRegistry } from './fakes/npm-registry.js';
import { privateDir, runOwned } from './helpers.js';

t.test('runtime install onnx in a clone really installs onnxruntime-node, where the daemon resolves it', async (t) => {
  const registry = await NpmRegistry.start(t, [
    { name: 'onnxruntime-node', version: '1.30.0', dependencies: { 'onnxruntime-common': '1.30.0' } },
    { name: 'onnxruntime-common', version: '1.30.0' },
  ]);
  const npmEnv = {
    npm_config_registry: registry.url,
    npm_config_cache: path.join(t.testdir(), 'cache'),
    npm_config_update_notifier: 'false',
  };
  // A clone as the repository has it: the runtimes are optional peers, with a lockfile. Outside this
  // repository, whose own node_modules a lookup from inside it would find.
  const clone = path.join(privateDir(), 'clone');
  mkdirSync(clone);
  writeFileSync(
    path.join(clone, 'package.json'),
    JSON.stringify({
      name: 'switchyard',
      version: '0.1.0',
      private: true,
      peerDependencies: { 'onnxruntime-node': '1.30.0' },
      peerDependenciesMeta: { 'onnxruntime-node': { optional: true } },
    }),
  );
  const env = { ...process.env, ...npmEnv };
  t.equal((await runOwned(t, 'npm', ['install', '--no-audit', '--no-fund'], { cwd: clone, env })).code, 0, 'npm install');
  t.ok(existsSync(path.join(clone, 'package-lock.json')), 'the clone has a lockfile');

  // What the command used to run: npm says it is done, and the module is not there.
  const old = await runOwned(t, 'npm', ['install', '--no-save', '--no-audit', '--no-fund', 'onnxruntime-node@1.30.0'], {
    cwd: clone,
    env,
  });
  t.comment(
    `npm install --no-save: exit ${old.code}, ${old.stdout.trim()}; resolves ${installedVersion('onnxruntime-node', clone) ?? 'nothing'}`,
  );

  const plan = planRuntimeInstall('onnx', clone);
  t.ok(plan.place !== undefined, 'a clone: installed through a scratch prefix');
  t.match(plan.env, { ONNXRUNTIME_NODE_INSTALL: 'skip' }, 'without the CUDA download');
  t.equal(await installRuntime({ ...plan, env: { ...plan.env, ...npmEnv } }), 'installed');
  t.equal(installedVersion('onnxruntime-node', clone), '1.30.0', 'the clone resolves onnxruntime-node at the pinned version');
  t.notOk(existsSync(path.join(clone, 'node_modules', '.switchyard-runtime')), 'no scratch left behind');

  // Loaded as the daemon loads it (import by name from inside the package), its dependency with it.
  writeFileSync(
    path.join(clone, 'probe.mjs'),
    "const ort = await import('onnxruntime-node');\nconst { createRequire } = await import('node:module');\n" +
      "const common = createRequire(import.meta.resolve('onnxruntime-node').replace('file://', ''))('onnxruntime-common');\n" +
      'console.log(JSON.stringify([ort.default.name, common.name]));\n',
  );
  const probe = await runOwned(t, process.execPath, ['probe.mjs'], { cwd: clone });
  t.equal(probe.code, 0, probe.stderr);
  t.same(JSON.parse(probe.stdout), ['onnxruntime-node', 'onnxruntime-common']);

  t.equal(
    await installRuntime({ ...plan, env: { ...plan.env, ...npmEnv } }),
    'already installed',
    'a second run changes nothing',
  );
});
