import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import pg from 'pg';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Test } from 'tap';
import { loadConfig } from '../src/config/load.js';
import type { Config } from '../src/config/schema.js';
import { createLogger } from '../src/log.js';
import { startDaemon, type Daemon } from '../src/main.js';
import { AppError } from '../src/errors.js';
import type { LevelStorage } from '../src/storage/leveldb/engine.js';
import type { LoopSet } from '../src/loops/loop.js';
import { applySqlMigrations, sqlMigrations } from '../src/storage/postgres/migrations.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const binPath = path.join(repoRoot, 'bin', 'switchyard.js');

/**
 * The bound on waiting for a condition: generous, because a test waits for what happens, never for
 * how fast it happens (speed is `npm run bench`'s job), and it must pass on a loaded machine.
 */
export const PATIENCE_MS = 30_000;

const dieWithParent = pathToFileURL(path.join(repoRoot, 'test', 'fixtures', 'die-with-parent.js')).href;

/** tap's process hook in NODE_OPTIONS (either spelling tap writes: quoted or bare). */
const tapProcessHook =
  /"--(?:import|loader|experimental-loader)=[^"]*@tapjs\/processinfo[^"]*"|--(?:import|loader|experimental-loader)=\S*@tapjs\/processinfo\S*/g;

/**
 * `nodeOptions` without tap's process hook (@tapjs/processinfo). tap adds it to every child's
 * NODE_OPTIONS at spawn, whatever env the spawner passes: in a process that runs dist/ (the CLI,
 * `switchyard serve`) it records coverage the report excludes (dist/ is not counted, .taprc) and
 * costs about a second per process on a loaded machine (its module hooks run on a thread of their own).
 */
export function withoutTapHook(nodeOptions = ''): string {
  return nodeOptions.replace(tapProcessHook, '').trim();
}

/**
 * Spawns a child that dies with the test: it leads its own process group, which teardown kills
 * whole (the child and anything it started), and node processes in it preload die-with-parent.js,
 * so they exit by themselves when a killed test file runs no teardown. It starts through env(1),
 * which sets NODE_OPTIONS after tap's spawn hook has added its own (see withoutTapHook), and then
 * runs `command` in its own place (same pid, same process group).
 */
export function spawnOwned(t: Test, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  const nodeOptions = `${withoutTapHook(env.NODE_OPTIONS)} --import=${dieWithParent}`.trim();
  // A node child is told who its parent is (see die-with-parent.js); another program's children are not.
  if (command === process.execPath) env.DIE_WITH_PARENT_PID = String(process.pid);
  const child = spawn('env', [`NODE_OPTIONS=${nodeOptions}`, command, ...args], { ...options, detached: true, env });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the whole group has already exited
    }
    if (child.exitCode === null && child.signalCode === null) await exited;
  });
  return child;
}

/** A finished child's exit code and output. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a CLI child gets so that no daemon setting of the test runner's environment leaks in. */
export const cliCleanEnv = { SERVICE_GRPC_SOCKET: '', SERVICE_DATA_DIR: '', SERVICE_ADMIN_TOKEN: '', NO_COLOR: '' };

/** Runs a command that dies with the test (see spawnOwned) to its end: its exit code and output. */
export async function runOwned(t: Test, command: string, args: string[], options: SpawnOptions = {}): Promise<CliRun> {
  const child = spawnOwned(t, command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * The engine test daemons use. Unset: LevelDB in the daemon's temp data dir. Set to a PostgreSQL URL
 * (test/on-postgres-*.test.ts runs files so), each daemon gets a fresh database on that server, so the
 * same tests prove the same behaviour on PostgreSQL.
 */
export const testPostgres = process.env.SWITCHYARD_TEST_POSTGRES || undefined;

/** `env` plus a fresh PostgreSQL database when the tests run on PostgreSQL (and none is named). */
export async function withTestEngine(env: Record<string, string>): Promise<Record<string, string>> {
  if (testPostgres === undefined || env.SERVICE_DATABASE_URL !== undefined) return env;
  const template = await (migratedTemplate ??= createMigratedTemplate(testPostgres));
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: testPostgres });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await client.end();
  }
  return { ...env, SERVICE_DATABASE_URL: databaseUrl(testPostgres, name) };
}

/**
 * The tests' daemons start on a clone of one database migrated once per process (graphile-worker's
 * template database): a daemon then finds the schema current, as on any restart, instead of running
 * every migration again. Tests about migrating name a database of their own.
 */
let migratedTemplate: Promise<string> | undefined;

async function createMigratedTemplate(serverUrl: string): Promise<string> {
  const name = `tpl_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  // Closed before any clone: CREATE DATABASE ... TEMPLATE refuses a template with open sessions.
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, name) });
  await client.connect();
  try {
    await applySqlMigrations(client, sqlMigrations);
  } finally {
    await client.end();
  }
  return name;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A data dir of its own (0700), removed when the test process exits (after every daemon of it has
 * stopped). Not `t.testdir()`: that empties the test's one directory each time it is called, so a
 * test's second daemon would wipe its first one's data.
 */
export function privateDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-test-'));
  if (privateDirs.size === 0) process.once('exit', () => privateDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  privateDirs.add(dir);
  return dir;
}
const privateDirs = new Set<string>();

/** Config for a test daemon: its own temp data dir (unless `env` names one), a free port, quiet logs. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    env: {
      SERVICE_DATA_DIR: env.SERVICE_DATA_DIR ?? privateDir(),
      SERVICE_HTTP_ADDR: '127.0.0.1:0',
      SERVICE_LOG_LEVEL: 'silent',
      ...env,
    },
  });
}

/** An in-process daemon with real storage (see testPostgres) and a real HTTP listener on 127.0.0.1, stopped at teardown. */
export async function startTestDaemon(t: Test, env: Record<string, string> = {}): Promise<Daemon> {
  const config = testConfig(await withTestEngine(env));
  const daemon = await startDaemon(config, { log: createLogger(config.logLevel) });
  // tap says only "error thrown in teardown": the stack goes to stderr, so a failed stop says why.
  t.teardown(() =>
    daemon.stop().catch((err: unknown) => {
      process.stderr.write(`the test daemon did not stop cleanly: ${(err as Error).stack ?? String(err)}\n`);
      throw err;
    }),
  );
  return daemon;
}

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** fetch against a daemon; parses JSON bodies. */
export async function request<T = any>(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: leave the text
  }
  const answer = { status: res.status, headers: res.headers, body: parsed as T };
  await checkAnswer(base, method, path, answer);
  return answer;
}

/** One daemon's served /openapi.json, ready to check answers: its operations and a validator over it. */
interface ServedDocument {
  operations: { method: string; pattern: RegExp; params: number; pointer: string; statuses: Set<string> }[];
  schemaAt: (pointer: string) => ValidateFunction | undefined;
}

const documents = new Map<string, Promise<ServedDocument | null>>();
/** Validators by document (the same document is served by every daemon of a test file). */
const validatorsByText = new Map<string, ServedDocument['schemaAt']>();

function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

async function servedDocument(base: string): Promise<ServedDocument | null> {
  const res = await fetch(`${base}/openapi.json`);
  if (res.status !== 200) return null;
  const doc = (await res.json()) as { openapi?: string; paths?: Record<string, Record<string, unknown>>; components?: unknown };
  if (doc.openapi?.startsWith('3.1') !== true || doc.paths === undefined) return null;
  const key = JSON.stringify({ paths: doc.paths, components: doc.components });
  let schemaAt = validatorsByText.get(key);
  if (schemaAt === undefined) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
    const id = `openapi-${validatorsByText.size}.json`;
    ajv.addSchema({ ...doc, $id: id });
    const compiled = new Map<string, ValidateFunction | undefined>();
    schemaAt = (pointer) => {
      if (!compiled.has(pointer)) {
        let validate: ValidateFunction | undefined;
        try {
          validate = ajv.compile({ $ref: `${id}#${pointer.replace(/[{}]/g, encodeURIComponent)}` });
        } catch {
          validate = undefined; // nothing at that pointer
        }
        compiled.set(pointer, validate);
      }
      return compiled.get(pointer);
    };
    validatorsByText.set(key, schemaAt);
  }
  const operations = Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: (template.match(/\{/g) ?? []).length,
      pointer: `/paths/${pointerSegment(template)}/${method}`,
      statuses: new Set(Object.keys((op as { responses?: object }).responses ?? {})),
    })),
  );
  return { operations, schemaAt };
}

/**
 * Every answer a test receives from a daemon is checked against the daemon's own /openapi.json
 * (issue 36): its JSON body must match the schema the document gives for its operation and status
 * (the status itself, else `default`). A server that is not a daemon (a fake upstream) is left alone.
 */
async function checkAnswer(base: string, method: string, path: string, answer: JsonResponse): Promise<void> {
  // HEAD answers carry GET's headers and no body.
  if (method.toUpperCase() === 'HEAD') return;
  if (answer.headers.get('x-request-id') === null || !(answer.headers.get('content-type') ?? '').startsWith('application/json'))
    return;
  let loading = documents.get(base);
  if (loading === undefined) documents.set(base, (loading = servedDocument(base).catch(() => null)));
  const doc = await loading;
  if (doc === null) return;
  const pathname = new URL(path, 'http://x').pathname;
  const op = doc.operations
    .filter((o) => o.method === method.toUpperCase() && o.pattern.test(pathname))
    .sort((a, b) => a.params - b.params)[0];
  const status = String(answer.status);
  let pointer: string;
  if (op === undefined) {
    if (answer.status < 400) throw new Error(`${method} ${path} answered ${status}, and /openapi.json has no such operation`);
    pointer = '/components/schemas/Error';
  } else {
    const responses = op.statuses.has(status) ? status : 'default';
    pointer = `${op.pointer}/responses/${responses}/content/application~1json/schema`;
  }
  const validate = doc.schemaAt(pointer);
  if (validate === undefined)
    throw new Error(`${method} ${path} answered ${status} JSON, and /openapi.json gives no JSON schema at ${pointer}`);
  if (!validate(answer.body))
    throw new Error(
      `${method} ${path} answered ${status} off its /openapi.json schema (${pointer}): ${JSON.stringify(validate.errors?.slice(0, 5))}\n` +
        JSON.stringify(answer.body).slice(0, 2000),
    );
}

export interface ChildDaemon {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Waits (bounded, by default by PATIENCE_MS) until `predicate` is true, polling every `intervalMs`. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  { timeoutMs = PATIENCE_MS, intervalMs = 20, what = 'condition' } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * Waits until each named loop of the daemon has run a whole pass that began after this call, in the
 * order given (the fan-out before the sender, say). Each loop is woken, so no interval is waited out.
 * "Nothing happened" is then what those passes did, not what a sleep happened to see.
 */
export async function passesOf(d: { loops: LoopSet }, ...names: string[]): Promise<void> {
  for (const name of names) {
    const loop = d.loops.named(name);
    if (loop === undefined) throw new Error(`the daemon runs no loop named ${name}`);
    const start = loop.status().runs;
    // A pass in flight now may have begun before the call; the one after it began after the call.
    for (const more of [1, 2]) {
      loop.wake();
      await waitFor(() => loop.status().runs >= start + more, { what: `a pass of ${name}` });
    }
  }
}

/** A child's exit code, waited for with a bound (PATIENCE_MS), so a child that never exits fails the test by name. */
export async function waitForExit(
  run: { child: ChildProcess; exited: Promise<number | null> },
  what = 'the process to exit',
): Promise<number | null> {
  await waitFor(() => run.child.exitCode !== null || run.child.signalCode !== null, { what });
  return run.exited;
}

/** Runs `switchyard serve` as a real child process and waits for its listening line. */
export async function spawnDaemon(t: Test, args: string[] = [], env: Record<string, string> = {}): Promise<ChildDaemon> {
  env = await withTestEngine(env);
  const dataDir = env.SERVICE_DATA_DIR ?? privateDir();
  const child = spawnOwned(
    t,
    process.execPath,
    [binPath, 'serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0', ...args],
    {
      env: { ...process.env, SERVICE_LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let url = '';
  await waitFor(
    () => {
      const m = /"url":"(http:\/\/[^"]+)".*switchyard listening/.exec(out);
      if (m) url = m[1]!;
      if (child.exitCode !== null) throw new Error(`daemon exited early (${child.exitCode}):\n${out}`);
      return url !== '';
    },
    { what: 'daemon to listen' },
  );
  return { child, url, output: () => out, exited };
}

export interface ChildRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (null when a signal ended the process). */
  exited: Promise<number | null>;
}

/** Runs `switchyard <args>` as a child without waiting for it; it dies with the test (spawnOwned). */
export function spawnSwitchyard(t: Test, args: string[], env: Record<string, string> = {}): ChildRun {
  const child = spawnOwned(t, process.execPath, [binPath, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close' (not 'exit'): the output pipes are drained too, so stdout()/stderr() are complete.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs `switchyard <args>` against one daemon to its end: exit code and output. */
export type Sy = (...args: string[]) => Promise<CliRun>;

/**
 * `switchyard serve` as a child (spawnDaemon) with its admin socket in a private data dir of its own,
 * and `sy`, which runs real CLI children against that socket with cliCleanEnv.
 */
export async function spawnDaemonCli(
  t: Test,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<ChildDaemon & { socket: string; dataDir: string; sy: Sy }> {
  const dataDir = privateDir();
  const socket = path.join(dataDir, 'admin.sock');
  const daemon = await spawnDaemon(t, ['--grpc-socket', socket, ...args], { SERVICE_DATA_DIR: dataDir, ...env });
  const sy: Sy = async (...argv) => {
    const run = spawnSwitchyard(t, ['--socket', socket, ...argv], cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  return { ...daemon, socket, dataDir, sy };
}

/** Runs a --json command that must succeed (exit 0, nothing on stderr) and answers its one JSON value. */
export async function cliJson(t: Test, sy: Sy, ...args: string[]): Promise<any> {
  const run = await sy(...args, '--json');
  t.equal(run.code, 0, `${args.slice(0, 2).join(' ')} exits 0`);
  t.equal(run.stderr, '', `${args.slice(0, 2).join(' ')}: nothing on stderr`);
  return JSON.parse(run.stdout);
}

/** Headers that authenticate as a development principal (X-Principal-Id; ignored in production). */
export function asPrincipal(principalId: string): Record<string, string> {
  return { 'x-principal-id': principalId };
}

/** An Authorization header carrying a bearer credential (API key or JWT). */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Creates an organization over HTTP as `headers`' caller (who becomes its owner); fails loudly otherwise. */
export async function createOrganizationAs(
  base: string,
  headers: Record<string, string>,
  slug: string,
): Promise<{ id: string; slug: string; display_name: string }> {
  const res = await request(base, 'POST', '/v1/organizations', { headers, body: { slug } });
  if (res.status !== 201) throw new Error(`creating organization ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** An in-process daemon whose log lines are kept in memory (e.g. to prove a secret is never logged). */
export async function startTestDaemonWithLogs(
  t: Test,
  env: Record<string, string> = {},
): Promise<{ daemon: Daemon; logs: () => string }> {
  const config = testConfig(await withTestEngine({ ...env, SERVICE_LOG_LEVEL: 'debug' }));
  let text = '';
  const { Writable } = await import('node:stream');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  const daemon = await startDaemon(config, { log: createLogger(config.logLevel, sink) });
  t.teardown(() => daemon.stop());
  return { daemon, logs: () => text };
}

/** Every key and value the daemon stores, as text (e.g. to prove a secret is never stored), on either engine. */
export async function dumpStorage(daemon: Daemon): Promise<string> {
  const lines: string[] = [];
  if (daemon.storage.engine === 'leveldb') {
    for await (const [key, value] of (daemon.storage as LevelStorage).db.iterator())
      lines.push(`${key} ${JSON.stringify(value)}`);
    return lines.join('\n');
  }
  const client = new pg.Client({ connectionString: daemon.config.databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    for (const { name } of tables) {
      // Every row as text, and its bytea columns (ids, index keys) decoded, so they are searched as written.
      const { rows: columns } = await client.query<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_name = $1 AND data_type = 'bytea'",
        [name],
      );
      const decoded = columns.map((c) => `coalesce(encode("${c.name}", 'escape'), '')`);
      const { rows } = await client.query<{ row: string }>(
        `SELECT concat_ws(' ', ${['t::text', ...decoded].join(', ')}) AS row FROM "${name}" t`,
      );
      for (const { row } of rows) lines.push(`${name} ${row}`);
    }
  } finally {
    await client.end();
  }
  return lines.join('\n');
}

/** The AppError code a promise rejects with (undefined when it resolves), for refusal assertions. */
export async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return err instanceof AppError ? err.code : `not an AppError: ${String(err)}`;
  }
  return undefined;
}

/** The statuses a run or a job ends in. */
export const endedStatuses: readonly string[] = ['completed', 'failed', 'cancelled'];

/**
 * GETs `path` (a run or a job) until its `status` is `status` (or any ended status when none is
 * given), bounded like waitFor; answers the record as it was then.
 */
export async function untilStatus(base: string, path: string, headers: Record<string, string>, status?: string): Promise<any> {
  let record: any;
  await waitFor(
    async () => {
      record = (await request(base, 'GET', path, { headers })).body.data;
      return status === undefined ? endedStatuses.includes(record?.status) : record?.status === status;
    },
    { what: `${path} ${status ?? 'ended'}` },
  );
  return record;
}
