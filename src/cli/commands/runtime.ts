import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  const command = global
    ? ['npm', 'install', '--global', '--prefix', path.dirname(path.dirname(parent)), '--omit=optional', ...quiet, ...specs]
    : // A clone: the package's overrides already turn the CUDA and Vulkan builds into the CPU one.
      ['npm', 'install', '--no-save', ...quiet, `${module}@${version}`];
  return {
    runtime,
    module,
    version,
    cwd: global ? parent : root,
    command,
    // onnxruntime-node's install script would otherwise fetch CUDA libraries from outside the npm
    // registry; node-llama-cpp's would download or build llama.cpp instead of the prebuilt binary.
    env: { ONNXRUNTIME_NODE_INSTALL: 'skip', NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true', NODE_LLAMA_CPP_POSTINSTALL: 'skip' },
  };
}

/**
 * In a clone, one `npm install --no-save` for every runtime asked for: a second one would prune what
 * the first added (npm removes packages that neither package.json nor the command names).
 */
function mergeCloneInstalls(plans: RuntimeInstallPlan[]): RuntimeInstallPlan[] {
  const clone = plans.filter((p) => p.command.includes('--no-save'));
  if (clone.length < 2) return plans;
  const specs = clone.map((p) => p.command[p.command.length - 1]);
  const merged = { ...clone[0], command: [...clone[0].command.slice(0, -1), ...specs] };
  return [merged, ...plans.filter((p) => !clone.includes(p))];
}

function runNpm(plan: RuntimeInstallPlan): Promise<void> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = plan.command;
    // npm's progress goes to stderr, so --json keeps one value on stdout.
    const child = spawn(command, args, {
      cwd: plan.cwd,
      env: { ...process.env, ...plan.env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', (err) => reject(new CliError('runtime_install_failed', `could not run npm: ${err.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new CliError('runtime_install_failed', `${plan.command.join(' ')} exited ${code ?? 'on a signal'}`)),
    );
  });
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
          const plans = mergeCloneInstalls([...new Set(names as RuntimeName[])].map((n) => planRuntimeInstall(n)));
          if (opts.dryRun !== true) for (const plan of plans) await runNpm(plan);
          return { installed: opts.dryRun !== true, plans };
        },
        view: (r): View[] =>
          r.plans.map((p) => ({
            kind: 'message',
            text: r.installed
              ? `${p.runtime}: ${p.module}@${p.version} installed; restart the daemon to use it`
              : `${p.runtime}: (cd ${p.cwd} && ${Object.entries(p.env)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ')} ${p.command.join(' ')})`,
          })),
      }),
    );
}
