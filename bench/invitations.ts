// Rows (13) and (14) of `npm run bench`: invitation creates over HTTP against a daemon in a child
// process of its own (bench/invitation-daemon.ts). (13) the write rate at 0 and at 900 pending
// invitations per organization; (14) the soak: memory after each batch of invitations. See
// docs/benchmarks.md.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { FromDaemon, MemoryFigures, ToDaemon } from './invitation-daemon.js';

export type { MemoryFigures } from './invitation-daemon.js';

/** Requests in flight at once, as in the measurements. */
export const INVITE_CONCURRENCY = 50;
/** The most an organization may set (settingsBounds): pending invitations and sends per hour. */
const ORG_MAX_PENDING = 10_000;
const ORG_MAX_PER_HOUR = 1_000;
const EXIT_GRACE_MS = 10_000;

export interface InvitationDaemon {
  url: string;
  pid: number;
  memory: () => Promise<MemoryFigures>;
  stop: () => Promise<void>;
}

/** A daemon in a child process with `env` (its storage among it). */
export async function startInvitationDaemon(env: Record<string, string>): Promise<InvitationDaemon> {
  const child = fork(new URL('./invitation-daemon.js', import.meta.url), [], {
    execArgv: [
      '--max-semi-space-size=2',
      ...(process.env.BENCH_CPU_PROF === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]),
    ],
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  let waiting: { type: FromDaemon['type']; resolve: (m: FromDaemon) => void; reject: (e: Error) => void } | undefined;
  child.on('message', (message: FromDaemon) => {
    const w = waiting;
    waiting = undefined;
    if (message.type === 'error') w?.reject(new Error(message.error));
    else w?.resolve(message);
  });
  void exited.then(() => waiting?.reject(new Error('the invitation daemon exited')));
  const ask = (message: ToDaemon, answer: FromDaemon['type']): Promise<FromDaemon> =>
    new Promise((resolve, reject) => {
      waiting = { type: answer, resolve, reject };
      child.send(message);
    });
  const kill = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  try {
    const started = (await ask({ type: 'start', env }, 'started')) as Extract<FromDaemon, { type: 'started' }>;
    return {
      url: started.url,
      pid: child.pid!,
      memory: async () => ((await ask({ type: 'memory' }, 'memory')) as Extract<FromDaemon, { type: 'memory' }>).figures,
      stop: async () => {
        if (child.connected) await ask({ type: 'stop' }, 'stopped');
        await kill();
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    await kill();
    throw err;
  }
}

export interface InvitingOrg {
  id: string;
  headers: Record<string, string>;
}

/** One HTTP client for the rows: keep-alive connections, as many as requests in flight. */
const agent = new Agent({ connections: INVITE_CONCURRENCY, pipelining: 1 });

export function closeInvitationClient(): Promise<void> {
  return agent.close();
}

async function call(url: string, method: 'POST' | 'PUT', body: unknown, headers: Record<string, string>): Promise<unknown> {
  const res = await request(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    dispatcher: agent,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300)
    throw new Error(`${method} ${new URL(url).pathname} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data: unknown }).data;
}

/** `n` organizations, each by its own development principal, allowed the most pending and hourly invitations. */
export async function createOrgs(url: string, n: number): Promise<InvitingOrg[]> {
  const orgs: InvitingOrg[] = [];
  for (let i = 0; i < n; i++) {
    const headers = { 'x-principal-id': randomUUID() };
    const org = (await call(`${url}/v1/organizations`, 'POST', { slug: `inv-${randomUUID().slice(0, 18)}` }, headers)) as {
      id: string;
    };
    await call(
      `${url}/v1/organizations/${org.id}/settings`,
      'PUT',
      { max_pending_invitations: ORG_MAX_PENDING, max_invitations_per_hour: ORG_MAX_PER_HOUR },
      headers,
    );
    orgs.push({ id: org.id, headers });
  }
  return orgs;
}

let invited = 0;

/**
 * `perOrg` invitations in each of `orgs` (fresh addresses), `concurrency` in flight, taken round the
 * organizations in turn; answers creates per second.
 */
export async function inviteAll(
  url: string,
  orgs: InvitingOrg[],
  perOrg: number,
  concurrency = INVITE_CONCURRENCY,
): Promise<number> {
  const total = orgs.length * perOrg;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      for (let n = next++; n < total; n = next++) {
        const org = orgs[n % orgs.length];
        await call(
          `${url}/v1/invitations`,
          'POST',
          { organization_id: org.id, email: `soak-${process.pid}-${invited++}@example.com`, role: 'member' },
          org.headers,
        );
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

export interface SoakBatch {
  /** Invitations created so far. */
  invitations: number;
  /** Creates per second during the batch. */
  rate: number;
  memory: MemoryFigures;
}

export interface SoakSpec {
  batches: number;
  /** Organizations per batch (fresh ones), and invitations in each. */
  orgsPerBatch: number;
  perOrg: number;
  /** Rest after each batch before memory is read (the daemon's loops run; V8 collects). */
  restMs: number;
  onBatch?: (batch: SoakBatch) => void;
}

/** The soak: batches of invitations on one daemon, its memory after each (and before the first). */
export async function measureSoak(daemon: InvitationDaemon, spec: SoakSpec): Promise<SoakBatch[]> {
  const rest = () => new Promise((r) => setTimeout(r, spec.restMs));
  const out: SoakBatch[] = [{ invitations: 0, rate: 0, memory: await daemon.memory() }];
  spec.onBatch?.(out[0]);
  for (let b = 1; b <= spec.batches; b++) {
    const orgs = await createOrgs(daemon.url, spec.orgsPerBatch);
    const rate = await inviteAll(daemon.url, orgs, spec.perOrg);
    await rest();
    const batch = { invitations: b * spec.orgsPerBatch * spec.perOrg, rate, memory: await daemon.memory() };
    out.push(batch);
    spec.onBatch?.(batch);
  }
  return out;
}

export interface RateFigures {
  /** Creates per second into organizations with no pending invitation, and with 900 each. */
  empty: number;
  crowded: number;
}

/** Pending invitations of each crowded organization; the hour's cap (1,000) leaves 100 sends each. */
export const CROWDED_PENDING = 900;
const MEASURED_PER_ORG = 100;

/**
 * (13) Creates per second at `INVITE_CONCURRENCY` in flight over `orgs` organizations, into fresh
 * ones and into ones holding 900 pending invitations (filled first, unmeasured), on one daemon
 * after a warm-up round.
 */
export async function measureInviteRate(
  daemon: InvitationDaemon,
  orgs: number,
  progress: (m: string) => void,
): Promise<RateFigures> {
  progress(`(13) warm-up: ${orgs} organizations x ${MEASURED_PER_ORG}`);
  await inviteAll(daemon.url, await createOrgs(daemon.url, orgs), MEASURED_PER_ORG);
  progress(`(13) filling ${orgs} organizations with ${CROWDED_PENDING} pending invitations each`);
  const crowdedOrgs = await createOrgs(daemon.url, orgs);
  await inviteAll(daemon.url, crowdedOrgs, CROWDED_PENDING);
  const emptyOrgs = await createOrgs(daemon.url, orgs);
  progress(`(13) measuring: ${orgs} x ${MEASURED_PER_ORG} creates at 0 pending, then at ${CROWDED_PENDING}`);
  const empty = await inviteAll(daemon.url, emptyOrgs, MEASURED_PER_ORG);
  const crowded = await inviteAll(daemon.url, crowdedOrgs, MEASURED_PER_ORG);
  return { empty, crowded };
}
