import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { AdminClient, CliError, type Target } from './client.js';
import type * as Views from './views/render.js';
import { wordError, type ErrorWording } from './error-text.js';
import { findSocket } from './socket-lookup.js';
import { renderPlain, type View } from './view.js';

/** The exit code of a command whose daemon could not be reached (no socket, refused, gone). */
const DAEMON_UNREACHABLE_EXIT_CODE = 3;

// Three ways to show a result: --json (one JSON value on stdout; errors as JSON on stderr), plain
// text (stdout not a terminal, or NO_COLOR), and ink (tables, spinner, colours) for a terminal.
// Commands describe what to show as data (View, view.ts); plain text and ink both render that.

export type { Cell, RecordView, TableView, Tone, View } from './view.js';

interface GlobalOptions {
  socket?: string;
  addr?: string;
  token?: string;
  tlsCa?: string;
  json?: boolean;
}

type OutputMode = 'json' | 'plain' | 'ink';

export function outputMode(
  json: boolean | undefined,
  stdout: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): OutputMode {
  if (json === true) return 'json';
  if (stdout.isTTY !== true || (env.NO_COLOR ?? '') !== '') return 'plain';
  return 'ink';
}

interface CommandSpec<T> extends ErrorWording {
  /** Shown beside the spinner while the daemon works. */
  label: string;
  run: (client: AdminClient) => Promise<T>;
  /** The --json value (default: the result itself). */
  json?: (result: T) => unknown;
  view: (result: T) => View[];
  /**
   * A destructive command: what goes with it, one sentence (gathered from the daemon). In a terminal
   * the user is asked y/N before `run`; without one (or under --json) the command needs --yes.
   */
  confirm?: (client: AdminClient) => Promise<string>;
  /**
   * A result that tells of a failure itself (`job show --wait` of a job that failed): it is shown,
   * then this error is reported as a failure is, exit 1.
   */
  failure?: (result: T) => CliError | undefined;
}

function targetOf(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Target {
  if (options.addr !== undefined)
    return {
      kind: 'tcp',
      address: options.addr,
      token: options.token ?? (env.SERVICE_ADMIN_TOKEN || undefined),
      tlsCa: options.tlsCa,
    };
  const { socketPath, tried } = findSocket(options.socket, env);
  return { kind: 'unix', socketPath, tried };
}

function errorOf(err: unknown): CliError {
  if (err instanceof CliError) return err;
  return new CliError('internal', err instanceof Error ? err.message : String(err));
}

/** The one line a failure prints outside --json. */
function errorLine(error: CliError): string {
  return error.code === 'unavailable' ? error.message : `${error.code}: ${error.message}`;
}

export function writeJsonError(error: CliError): void {
  const body = { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) };
  process.stderr.write(`${JSON.stringify({ error: body })}\n`);
}

/** Runs a command against the daemon and shows its result the way the output mode asks. */
export async function execute<T>(command: Command, spec: CommandSpec<T>): Promise<void> {
  const options = command.optsWithGlobals<GlobalOptions & { yes?: boolean }>();
  let client: AdminClient | undefined;
  try {
    if (spec.confirm !== undefined && options.yes !== true) {
      client = new AdminClient(targetOf(options));
      if (!(await confirmed(command, outputMode(options.json), () => spec.confirm!(client!)))) return;
    }
    await present(options, spec, async () => {
      client ??= new AdminClient(targetOf(options));
      return spec.run(client);
    });
  } finally {
    client?.close();
  }
}

/** Exit code of a usage error, as commander's are (run.ts). */
const USAGE_EXIT_CODE = 2;

/**
 * Asks before a destructive command: says what goes with it and waits for y. Without a terminal to
 * ask in (stdin or stdout not a TTY, or --json) it refuses as a usage error that names --yes.
 */
async function confirmed(command: Command, mode: OutputMode, consequences: () => Promise<string>): Promise<boolean> {
  const what = `${command.parent?.name() ?? 'switchyard'} ${command.name()}`;
  if (mode === 'json' || process.stdin.isTTY !== true || process.stdout.isTTY !== true) {
    const why = mode === 'json' ? '--json never asks' : 'there is no terminal to ask in';
    const error = new CliError('invalid_request', `${what} needs confirmation and ${why}: pass --yes to go ahead`);
    process.exitCode = USAGE_EXIT_CODE;
    if (mode === 'json') writeJsonError(error);
    else process.stderr.write(`error: ${error.message}\n`);
    return false;
  }
  let question: string;
  try {
    question = await consequences();
  } catch (err) {
    await reportFailure(mode, err);
    return false;
  }
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question(`${question}\nContinue? [y/N] `).finally(() => prompt.close());
  if (/^y(es)?$/i.test(answer.trim())) return true;
  process.stderr.write('Cancelled: nothing was changed.\n');
  process.exitCode = 1;
  return false;
}

/** An offline command (one that works on stored data with the daemon stopped), shown as `execute` shows. */
export async function executeLocal<T>(
  command: Command,
  spec: Omit<CommandSpec<T>, 'run'> & { run: () => Promise<T> },
): Promise<void> {
  await present(command.optsWithGlobals<GlobalOptions>(), spec, spec.run);
}

async function present<T>(options: GlobalOptions, spec: Omit<CommandSpec<T>, 'run'>, run: () => Promise<T>): Promise<void> {
  const mode = outputMode(options.json);
  const task = run();
  task.catch(() => undefined); // handled below; this only keeps an early failure from counting as unhandled
  try {
    if (mode === 'ink') {
      // ink and React load only here, so --json, pipes and `serve` never pay for them.
      const { renderTask } = await importViews();
      await renderTask(spec.label, task, spec.view);
    } else {
      const result = await task;
      if (mode === 'json')
        process.stdout.write(`${JSON.stringify(spec.json === undefined ? result : spec.json(result), null, 2)}\n`);
      else process.stdout.write(`${spec.view(result).map(renderPlain).join('\n\n')}\n`);
    }
    const failure = spec.failure?.(await task);
    if (failure !== undefined) await reportFailure(mode, failure);
  } catch (err) {
    await reportFailure(mode, wordError(errorOf(err), spec));
  }
}

/** The ink views, React, ink and yoga in one file (`npm run build`: src/cli/views/bundle.mjs). */
const VIEWS_BUNDLE = new URL('./views-bundle.js', import.meta.url);

/**
 * The ink views, loaded as cheaply as they can be: one pre-built file (its React is the production
 * build), and no fetch while ink's layout engine (yoga) starts: it fetches its inlined WebAssembly
 * from a data: URL when fetch exists, which loads node's whole fetch stack (undici, web streams);
 * without it, it decodes the same bytes directly.
 */
async function importViews(): Promise<typeof Views> {
  const fetch = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetch?.configurable === true) Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return (await import(VIEWS_BUNDLE.href)) as typeof Views;
  } catch (err) {
    // tsc alone builds everything but the bundle: the launcher's one line, not a module-not-found stack.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !String(err).includes(fileURLToPath(VIEWS_BUNDLE)))
      throw err;
    process.stderr.write('switchyard is not built yet: run npm run build first (npm start builds too)\n');
    return process.exit(1);
  } finally {
    if (fetch?.configurable === true) Object.defineProperty(globalThis, 'fetch', fetch);
  }
}

/** A failure as the output mode shows it, with the contract's exit code. */
async function reportFailure(mode: OutputMode, err: unknown): Promise<void> {
  const error = errorOf(err);
  // Contract section 10: 1 the operation was refused or failed, 3 the daemon could not be reached.
  process.exitCode = error.code === 'unavailable' ? DAEMON_UNREACHABLE_EXIT_CODE : 1;
  if (mode === 'json') writeJsonError(error);
  else if (mode === 'ink' && process.stderr.isTTY === true) {
    const { renderError } = await importViews();
    await renderError(errorLine(error));
  } else process.stderr.write(`${errorLine(error)}\n`);
}

/** Prints one item of a stream: its JSON on one line with --json, else its text line. */
export type PrintLine = (json: unknown, text: string) => void;

interface StreamSpec {
  /**
   * Runs until the daemon ends the stream or `signal` aborts (SIGINT or SIGTERM: the command then
   * exits 0). Each item is printed as it comes, one line each.
   */
  run: (client: AdminClient, print: PrintLine, signal: AbortSignal) => Promise<void>;
}

/**
 * A command that follows a stream (`events tail`, `listen`): one line per item, JSON lines with
 * --json (one JSON value per line, not one value in all), plain text otherwise, terminal or not.
 */
export async function executeStream(command: Command, spec: StreamSpec): Promise<void> {
  const options = command.optsWithGlobals<GlobalOptions>();
  const mode = outputMode(options.json);
  const print: PrintLine = (json, text) => process.stdout.write(`${mode === 'json' ? JSON.stringify(json) : text}\n`);
  const interrupted = new AbortController();
  const stop = (): void => interrupted.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let client: AdminClient | undefined;
  try {
    client = new AdminClient(targetOf(options));
    await spec.run(client, print, interrupted.signal);
  } catch (err) {
    await reportFailure(mode, err);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    client?.close();
  }
}
