import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { CliError } from '../client.js';
import { executeLocal, type View } from '../output.js';

/**
 * `switchyard runtime install gguf|onnx`: the in-process model runtimes are optional peer
 * dependencies, left out of `npm install -g` (node-llama-cpp alone brings hundreds of MB of CUDA and
 * Vulkan builds, onnxruntime-node a CUDA download from outside the registry). This installs one where
 * the daemon finds it, at the version package.json names, without those extras.
 */
export const runtimeModules = { gguf: 'node-llama-cpp', onnx: 'onnxruntime-node' } as const;
export type RuntimeName = keyof typeof runtimeModules;

/** The package's root: dist/src/cli/commands/runtime.js is four levels down. */
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** The platform's prebuilt llama.cpp package (node-llama-cpp's optional dependency), CPU only. */
function llamaPlatformPackage(): string | undefined {
  const { platform, arch } = process;
  if (platform === 'linux') return { x64: 'linux-x64', arm64: 'linux-arm64', arm: 'linux-armv7l' }[arch as string];
  if (platform === 'darwin') return arch === 'arm64' ? 'mac-arm64-metal' : 'mac-x64';
  if (platform === 'win32') return { x64: 'win-x64', arm64: 'win-arm64' }[arch as string];
  return undefined;
}

export interface RuntimeInstallPlan {
  runtime: RuntimeName;
  module: string;
  version: string;
  /** Where npm runs, and its arguments. */
  cwd: string;
  command: string[];
  env: Record<string, string>;
  /**
   * A clone: npm installs into `cwd` (a scratch prefix), and the module is then moved into `into`
   * (the clone's node_modules), its dependencies nested under it. npm's own `install --no-save` in
   * the clone treats the optional peer as satisfied, prunes it and says "up to date" (npm/cli#9024).
   */
  place?: { into: string };
  /** Where the daemon looks for the module: the package's root. */
  root: string;
}

/** How to install a runtime for this copy of switchyard: into the global prefix it was installed in, or into a clone. */
export function planRuntimeInstall(runtime: RuntimeName, root = packageRoot): RuntimeInstallPlan {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string> };
  const module = runtimeModules[runtime];
  const version = pkg.peerDependencies?.[module];
  if (version === undefined) throw new TypeError(`package.json names no version of ${module}`);
  const specs = [`${module}@${version}`];
  const platformPackage = runtime === 'gguf' ? llamaPlatformPackage() : undefined;
  if (platformPackage !== undefined) specs.push(`@node-llama-cpp/${platformPackage}@${version}`);
  // Installed with `npm install -g`: <prefix>/lib/node_modules/switchyard. A runtime installed beside
  // it (<prefix>/lib/node_modules/<module>) is found by the daemon's imports.
  const parent = path.dirname(root);
  const global = path.basename(parent) === 'node_modules' && path.basename(path.dirname(parent)) === 'lib';
  const quiet = ['--no-audit', '--no-fund'];
  // Optional dependencies left out: node-llama-cpp's CUDA and Vulkan builds (its CPU build is named above).
  const scratch = path.join(root, 'node_modules', '.switchyard-runtime', runtime);
  const command = global
    ? ['npm', 'install', '--global', '--prefix', path.dirname(path.dirname(parent)), '--omit=optional', ...quiet, ...specs]
    : ['npm', 'install', '--prefix', scratch, '--no-save', '--no-package-lock', '--omit=optional', ...quiet, ...specs];
  return {
    runtime,
    module,
    version,
    cwd: global ? parent : scratch,
    command,
    // onnxruntime-node's install script would otherwise fetch CUDA libraries from outside the npm
    // registry; node-llama-cpp's would download or build llama.cpp instead of the prebuilt binary.
    env: { ONNXRUNTIME_NODE_INSTALL: 'skip', NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true', NODE_LLAMA_CPP_POSTINSTALL: 'skip' },
    ...(global ? {} : { place: { into: path.join(root, 'node_modules') } }),
    root,
  };
}

/** The version of `module` that the package at `root` resolves, if any. */
export function installedVersion(module: string, root: string): string | undefined {
  try {
    const file = createRequire(path.join(root, 'package.json')).resolve(`${module}/package.json`);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function runNpm(plan: RuntimeInstallPlan): Promise<void> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = plan.command;
    // npm's progress goes to stderr, so --json keeps one value on stdout.
    const child = spawn(command, args, {
      cwd: plan.cwd,
      env: { ...process.env, ...plan.env },
      stdio: ['ignore', process.stderr, 'inherit'],
    });
    child.on('error', (err) => reject(new CliError('runtime_install_failed', `could not run npm: ${err.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new CliError('runtime_install_failed', `${plan.command.join(' ')} exited ${code ?? 'on a signal'}`)),
    );
  });
}

/** Moves the module npm installed in the scratch prefix into the clone's node_modules, its dependencies nested under it. */
async function placeRuntime(plan: RuntimeInstallPlan, into: string): Promise<void> {
  const from = path.join(plan.cwd, 'node_modules');
  const target = path.join(into, plan.module);
  await rm(target, { recursive: true, force: true });
  await rename(path.join(from, plan.module), target);
  const nested = path.join(target, 'node_modules');
  for (const entry of await readdir(from)) {
    if (entry.startsWith('.')) continue; // .bin, .package-lock.json
    await mkdir(nested, { recursive: true });
    await rm(path.join(nested, entry), { recursive: true, force: true });
    await rename(path.join(from, entry), path.join(nested, entry));
  }
}

/**
 * Installs one runtime and checks that the daemon's package now resolves it at the pinned version; a
 * runtime already there at that version is left as it is.
 */
export async function installRuntime(plan: RuntimeInstallPlan): Promise<'installed' | 'already installed'> {
  if (installedVersion(plan.module, plan.root) === plan.version) return 'already installed';
  if (plan.place !== undefined) {
    await rm(plan.cwd, { recursive: true, force: true });
    await mkdir(plan.cwd, { recursive: true });
  }
  try {
    await runNpm(plan);
    if (plan.place !== undefined) await placeRuntime(plan, plan.place.into);
  } finally {
    if (plan.place !== undefined) await rm(path.dirname(plan.cwd), { recursive: true, force: true });
  }
  const found = installedVersion(plan.module, plan.root);
  if (found !== plan.version)
    throw new CliError(
      'runtime_install_failed',
      `npm finished, but ${plan.root} resolves ${found === undefined ? `no ${plan.module}` : `${plan.module}@${found}`}, not ${plan.version}: ` +
        `install it by hand with (cd ${plan.cwd} && ${plan.command.join(' ')})`,
    );
  return 'installed';
}

export function registerRuntime(program: Command): void {
  const runtime = program.command('runtime').description('the optional in-process model runtimes (gguf, onnx)');
  runtime
    .command('install <runtime...>')
    .description('install gguf (node-llama-cpp, CPU build) and/or onnx (onnxruntime-node) where the daemon finds them')
    .option('--dry-run', 'print the npm command instead of running it')
    .action((names: string[], opts: { dryRun?: boolean }, command: Command) =>
      executeLocal(command, {
        label: 'installing',
        run: async () => {
          const unknown = names.filter((n) => !Object.hasOwn(runtimeModules, n));
          if (unknown.length > 0) throw new CliError('invalid_request', `no runtime ${unknown.join(', ')}: choose gguf or onnx`);
          const plans = [...new Set(names as RuntimeName[])].map((n) => planRuntimeInstall(n));
          const outcomes: string[] = [];
          if (opts.dryRun !== true) for (const plan of plans) outcomes.push(await installRuntime(plan));
          return { installed: opts.dryRun !== true, plans, outcomes };
        },
        view: (r): View[] =>
          r.plans.map((p, i) => ({
            kind: 'message',
            text: r.installed
              ? `${p.runtime}: ${p.module}@${p.version} ${r.outcomes[i]}; restart the daemon to use it`
              : `${p.runtime}: (mkdir -p ${p.cwd} && cd ${p.cwd} && ${Object.entries(p.env)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ')} ${p.command.join(' ')})${
                  p.place === undefined
                    ? ''
                    : `, then move node_modules/${p.module} into ${p.place.into}, and the rest of node_modules into ${p.place.into}/${p.module}/node_modules`
                }`,
          })),
      }),
    );
}
