// Row (8) of `npm run bench`, the child's side: one engine's webhook runs in a process of their own,
// so that its peak RSS is the daemon's (with the event writer and the baseline client beside it),
// not the bench's. Events are appended in-process and delivered by the daemon to the receiver in
// the parent (webhook-receiver.ts); the baseline is undici POSTing the same bodies straight to it.
// See docs/benchmarks.md.
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config/load.js';
import { operator } from '../src/domain/identity/caller.js';
import { MAX_IN_FLIGHT } from '../src/domain/webhooks/index.js';
import { startDaemon, type Daemon } from '../src/main.js';
import { version } from '../src/version.js';
import { clockMs, type Arrivals } from './webhook-receiver.js';

/** Events per transaction in a burst (several events per business transaction). */
const BURST_EVENTS_PER_TX = 100;
/** The steady run: one event per transaction at this rate, for this long. */
const STEADY_RATE = 500;
const STEADY_SECONDS = 5;
/** The baseline's concurrency: as many requests in flight as the daemon's sender keeps at most. */
const BASELINE_IN_FLIGHT = MAX_IN_FLIGHT;
const BASELINE_ROUNDS = 3;
/** Unmeasured events before an engine's first run: JIT. */
const WARMUP_EVENTS = 1000;
/**
 * A run still delivering this long after its events began to be appended is cut there (the bench
 * stays short when an engine is slow): its rate counts what arrived by then, and it cannot pass.
 */
const RUN_CAP_MS = 20_000;
/** Unmeasured events on each fresh daemon before its run: connection pools, the engine's caches. */
const DAEMON_WARMUP_EVENTS = 200;
const RSS_SAMPLE_MS = 20;

export type RunName = 'one-hook' | 'ten-hooks' | 'steady';

export interface WebhookRunSpec {
  label: string;
  receiverUrl: string;
  /** Each run's daemon configuration (environment variables): its own storage, webhooks to private addresses allowed. */
  envs: Record<RunName, Record<string, string>>;
}

export type ToChild = { type: 'start'; spec: WebhookRunSpec } | { type: 'arrivals'; arrivals: Arrivals };
export type FromChild =
  | { type: 'take' }
  | { type: 'progress'; message: string }
  | { type: 'result'; figures: EngineFigures }
  | { type: 'error'; error: string };

/** Resolves once the message has been handed to the IPC channel. */
function tell(message: FromChild): Promise<void> {
  return new Promise((resolve) => {
    if (process.send === undefined) resolve();
    else process.send(message, undefined, undefined, () => resolve());
  });
}

/** The receiver in the parent process, seen from here: its URL, and what reached it (asked over IPC). */
class Receiver {
  private waiting: ((arrivals: Arrivals) => void) | undefined;

  constructor(private readonly base: string) {}

  url(path: string): string {
    return this.base + path;
  }

  /** What arrived since the last call. */
  take(): Promise<Arrivals> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      void tell({ type: 'take' });
    });
  }

  answered(arrivals: Arrivals): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(arrivals);
  }
}

/** The process's resident memory, sampled while the runs go (the daemon runs in this process). */
class RssSampler {
  peak = 0;
  /** The most seen in each named phase (a phase lasts until the next one starts). */
  readonly phases = new Map<string, number>();
  private current: string | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
  }

  sample(): number {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
    if (this.current !== undefined && rss > (this.phases.get(this.current) ?? 0)) this.phases.set(this.current, rss);
    return rss;
  }

  phase(name: string): void {
    this.current = name;
    this.sample();
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

export interface DeliveryFigures {
  events: number;
  webhooks: number;
  /** events x webhooks. */
  expected: number;
  /** Distinct X-Service-Delivery values that reached the receiver (by the cut, if the run was cut). */
  received: number;
  /** Requests not counted: a delivery id received before (a retry), or no event of this run. */
  extra: number;
  /** Every delivery arrived before the cut (RUN_CAP_MS). */
  complete: boolean;
  /** First commit to last receipt (or to the cut). */
  seconds: number;
  /** received / seconds. */
  rate: number;
  /** Events committed per second, first commit to last (the writer's pace: a steady run's real arrival rate). */
  commitRate: number;
  /** CPU time of this process (daemon, event writer; every thread) per delivery received, microseconds. */
  cpuUsPerDelivery: number;
  /**
   * Commit to receipt over every expected delivery, ms; one not received by the cut counts as the
   * time to the cut, so the figures of a cut run are lower bounds.
   */
  p50: number;
  p99: number;
  max: number;
  /** Last receipt to the moment no delivery was waiting or leased any more, ms (complete runs). */
  recordedLagMs: number;
  /** Delivery records `delivered` at the end (the durable count). */
  delivered: number;
}

/** The median of BASELINE_ROUNDS rounds of `requests` POSTs. */
export interface BaselineFigures {
  requests: number;
  seconds: number;
  rate: number;
  /** Each round's rate, in order. */
  rounds: number[];
  /** CPU time of this process (the undici client) per request, microseconds. */
  cpuUsPerRequest: number;
}

export interface EngineFigures {
  one: DeliveryFigures;
  oneBaseline: BaselineFigures;
  ten: DeliveryFigures;
  tenBaseline: BaselineFigures;
  steady: DeliveryFigures;
  /** The steady run's warm-up: the first second (at the same rate) of its fresh daemon. */
  steadyWarmup: DeliveryFigures;
  /** This process's RSS before the engine's first daemon started, and the most seen during its runs (MB). */
  startRssMb: number;
  peakRssMb: number;
  /** The most seen during each delivery run (a daemon and the event writer) and each baseline (undici alone), MB. */
  phaseRssMb: Record<string, number>;
  settings: { steadyRate: number; inFlight: number; capSeconds: number };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const mb = (bytes: number): number => bytes / (1024 * 1024);
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Subscribed {
  orgId: string;
  hookIds: string[];
  paths: string[];
}

/** One organization with `count` webhooks on the receiver (`/hook/<name>/<i>`), for `invitation.created`. */
async function subscribe(daemon: Daemon, receiver: Receiver, name: string, count: number): Promise<Subscribed> {
  const { organization } = await daemon.services.organizations.createOrganization(operator, { slug: name });
  const hookIds: string[] = [];
  const paths = Array.from({ length: count }, (_, i) => `/hook/${name}/${i}`);
  for (const path of paths) {
    const hook = await daemon.services.webhooks.createWebhook(operator, organization.id, {
      url: receiver.url(path),
      event_filter: ['invitation.created'],
    });
    hookIds.push(hook.id);
  }
  return { orgId: organization.id, hookIds, paths };
}

/** Appends `seq` from..to-1 in one transaction; resolves once it committed. */
function commitEvents(daemon: Daemon, orgId: string, from: number, to: number): Promise<void> {
  return daemon.storage.transaction({}, (tx) => {
    for (let seq = from; seq < to; seq++)
      daemon.eventLog.append(tx, { kind: 'invitation.created', organization_id: orgId, payload: { seq } });
    return Promise.resolve();
  });
}

type Append = (daemon: Daemon, orgId: string, events: number, commitAt: Float64Array) => Promise<void>;

/** `events` appended as fast as one writer can, BURST_EVENTS_PER_TX per transaction. */
const appendBurst: Append = async (daemon, orgId, events, commitAt) => {
  for (let from = 0; from < events; from += BURST_EVENTS_PER_TX) {
    const to = Math.min(events, from + BURST_EVENTS_PER_TX);
    await commitEvents(daemon, orgId, from, to);
    commitAt.fill(clockMs(), from, to);
  }
};

/** STEADY_RATE events per second, each in its own transaction, on schedule (not waiting for earlier commits). */
const appendSteady: Append = async (daemon, orgId, events, commitAt) => {
  const started = clockMs();
  const commits: Promise<void>[] = [];
  let next = 0;
  while (next < events) {
    const due = Math.min(events, Math.floor(((clockMs() - started) * STEADY_RATE) / 1000) + 1);
    for (; next < due; next++) {
      const seq = next;
      commits.push(commitEvents(daemon, orgId, seq, seq + 1).then(() => void (commitAt[seq] = clockMs())));
    }
    await delay(1);
  }
  await Promise.all(commits);
};

/**
 * Whether no delivery is waiting any more (due, leased, or handed off with no record yet): every one
 * has an outcome recorded. The store's own count of what waits (the pending metric's).
 */
async function queueEmpty(daemon: Daemon): Promise<boolean> {
  return (await daemon.services.webhooks.store.backlog(1)).pending === 0;
}

/**
 * Delivery records of these webhooks that are `delivered`: neither waiting, leased, held nor failed.
 * The queue is counted whole: on the run's fresh daemon, only these webhooks can have work in it.
 */
async function countDelivered(daemon: Daemon, hookIds: string[]): Promise<number> {
  const { deliveries } = daemon.services.webhooks.store;
  let n = -(await deliveries.countRange('queue', 'due')) - (await deliveries.countRange('queue', 'leased'));
  for (const id of hookIds)
    n +=
      (await deliveries.countBy('webhook', id)) -
      (await deliveries.countBy('held', id)) -
      (await deliveries.countBy('webhook_failed', id));
  return n;
}

/**
 * One measured run: `events` appended by `append` for the subscribed webhooks; waits until every
 * delivery reached the receiver and every record says `delivered`, or until the cut.
 */
async function deliveryRun(
  daemon: Daemon,
  receiver: Receiver,
  { orgId, hookIds }: Subscribed,
  events: number,
  append: Append,
): Promise<DeliveryFigures> {
  const webhooks = hookIds.length;
  await receiver.take(); // drop anything left from the warm-up
  const expected = events * webhooks;
  const commitAt = new Float64Array(events).fill(NaN);
  const receivedOf = new Uint16Array(events);
  const seen = new Set<string>();
  const latencies: number[] = [];
  let extra = 0;
  let lastAt = -Infinity;
  const absorb = (arrivals: Arrivals): void => {
    for (let i = 0; i < arrivals.at.length; i++) {
      const seq = arrivals.seqs[i];
      if (seen.has(arrivals.deliveries[i]) || !(seq >= 0 && seq < events)) {
        extra++;
        continue;
      }
      seen.add(arrivals.deliveries[i]);
      receivedOf[seq]++;
      latencies.push(arrivals.at[i] - commitAt[seq]);
      if (arrivals.at[i] > lastAt) lastAt = arrivals.at[i];
    }
  };
  const cutAt = clockMs() + RUN_CAP_MS;
  const cpuAtStart = process.cpuUsage();
  await append(daemon, orgId, events, commitAt);
  for (;;) {
    absorb(await receiver.take());
    if (seen.size >= expected || clockMs() > cutAt) break;
    await delay(10);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  const complete = seen.size >= expected;
  const end = complete ? lastAt : clockMs();
  for (let seq = 0; seq < events; seq++) for (let k = receivedOf[seq]; k < webhooks; k++) latencies.push(end - commitAt[seq]);
  let recordedLagMs = NaN;
  if (complete) {
    while (!(await queueEmpty(daemon)) && clockMs() < cutAt + RUN_CAP_MS) await delay(5);
    recordedLagMs = clockMs() - lastAt;
  }
  const firstCommit = commitAt.reduce((min, at) => (at < min ? at : min), Infinity);
  const lastCommit = commitAt.reduce((max, at) => (at > max ? at : max), -Infinity);
  const seconds = (end - firstCommit) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    events,
    webhooks,
    expected,
    received: seen.size,
    extra,
    complete,
    seconds,
    rate: seen.size / seconds,
    commitRate: events / ((lastCommit - firstCommit) / 1000),
    cpuUsPerDelivery: (cpu.user + cpu.system) / seen.size,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    recordedLagMs,
    delivered: await countDelivered(daemon, hookIds),
  };
}

/** The organization's `invitation.created` events as the sender sends them (the event JSON), in order. */
async function bodiesOf(daemon: Daemon, orgId: string): Promise<{ kind: string; body: string }[]> {
  const bodies: { kind: string; body: string }[] = [];
  let cursor: string | null = null;
  do {
    const page = await daemon.eventLog.read({ organizationId: orgId, kind: 'invitation.created', limit: 200, cursor });
    for (const event of page.items) bodies.push({ kind: event.kind, body: JSON.stringify(event) });
    cursor = page.nextCursor;
  } while (cursor !== null);
  return bodies;
}

/**
 * The baseline: undici POSTs of `bodies` straight to the receiver, BASELINE_IN_FLIGHT at a time
 * through one keep-alive Agent, request `i` to `paths[i % paths.length]`; headers of the same sizes
 * as the sender's (placeholder signatures: signing is the daemon's cost, measured in its rate).
 * BASELINE_ROUNDS rounds back to back (one takes well under a second, so one disturbance would
 * decide it); the figures are the median round's.
 */
async function baselineRun(
  receiver: Receiver,
  bodies: { kind: string; body: string }[],
  paths: string[],
): Promise<BaselineFigures> {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const requests = bodies.length;
  const post = async (i: number): Promise<void> => {
    const id = `dlv_baseline${String(i).padStart(14, '0')}`;
    const res = await request(receiver.url(paths[i % paths.length]), {
      method: 'POST',
      dispatcher: agent,
      body: bodies[i].body,
      headers: {
        'content-type': 'application/json',
        'user-agent': `Switchyard-Webhooks/${version}`,
        'x-service-signature': `sha256=${'0'.repeat(64)}`,
        'x-service-event': bodies[i].kind,
        'x-service-delivery': id,
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${'A'.repeat(43)}=`,
      },
    });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`baseline: the receiver answered ${res.statusCode}`);
  };
  const round = async (): Promise<{ seconds: number; cpuUs: number }> => {
    await receiver.take();
    let next = 0;
    const started = clockMs();
    const cpuAtStart = process.cpuUsage();
    await Promise.all(
      Array.from({ length: BASELINE_IN_FLIGHT }, async () => {
        while (next < requests) await post(next++);
      }),
    );
    const seconds = (clockMs() - started) / 1000;
    const cpu = process.cpuUsage(cpuAtStart);
    const arrived = (await receiver.take()).at.length;
    if (arrived !== requests) throw new Error(`baseline: ${arrived} of ${requests} requests reached the receiver`);
    return { seconds, cpuUs: cpu.user + cpu.system };
  };
  try {
    const rounds: { seconds: number; cpuUs: number }[] = [];
    for (let i = 0; i < BASELINE_ROUNDS; i++) rounds.push(await round());
    const median = [...rounds].sort((x, y) => x.seconds - y.seconds)[rounds.length >> 1];
    return {
      requests,
      seconds: median.seconds,
      rate: requests / median.seconds,
      rounds: rounds.map((r) => requests / r.seconds),
      cpuUsPerRequest: median.cpuUs / requests,
    };
  } finally {
    await agent.close();
  }
}

interface RunResult {
  figures: DeliveryFigures;
  /** The unmeasured warm-up before it, on the same fresh daemon. */
  warmup: DeliveryFigures;
  /** The run's events as the sender sent them, once to each webhook, with the webhook's path. */
  bodies: { kind: string; body: string }[];
  paths: string[];
}

/**
 * One run on a fresh daemon (a cut run leaves work behind): a few unmeasured events to a webhook of
 * their own (the daemon's pools and caches), then `events` to `webhooks` webhooks. The daemon is
 * stopped before this returns.
 */
async function runOnFreshDaemon(
  env: Record<string, string>,
  receiver: Receiver,
  name: RunName,
  warmupEvents: number,
  events: number,
  webhooks: number,
  append: Append,
  warmupAppend: Append = appendBurst,
): Promise<RunResult> {
  const daemon = await startDaemon(loadConfig({ env }));
  try {
    const warm = await deliveryRun(daemon, receiver, await subscribe(daemon, receiver, 'warm-up', 1), warmupEvents, warmupAppend);
    if (!warm.complete) throw new Error(`${name}: the warm-up delivered ${warm.received} of ${warm.expected} in time`);
    const subscribed = await subscribe(daemon, receiver, name, webhooks);
    const figures = await deliveryRun(daemon, receiver, subscribed, events, append);
    // Each event once to each webhook, as the daemon sent them.
    const bodies = (await bodiesOf(daemon, subscribed.orgId)).flatMap((body) => subscribed.paths.map(() => body));
    return { figures, warmup: warm, bodies, paths: subscribed.paths };
  } finally {
    await daemon.stop();
  }
}

/** Every run of one engine, one daemon at a time; each baseline right after its run, once the daemon stopped. */
async function measureEngine(spec: WebhookRunSpec, receiver: Receiver): Promise<EngineFigures> {
  const progress = (message: string): void => void tell({ type: 'progress', message: `(8) webhooks, ${spec.label}: ${message}` });
  const rss = new RssSampler();
  try {
    const startRssMb = mb(rss.sample());
    progress(`10,000 events to 1 webhook (after ${WARMUP_EVENTS.toLocaleString('en-US')} unmeasured), then the undici baseline`);
    rss.phase('1 hook');
    const one = await runOnFreshDaemon(spec.envs['one-hook'], receiver, 'one-hook', WARMUP_EVENTS, 10_000, 1, appendBurst);
    rss.phase('1-hook baseline');
    const oneBaseline = await baselineRun(receiver, one.bodies, one.paths);

    progress('1,000 events to 10 webhooks, then the undici baseline');
    rss.phase('10 hooks');
    const ten = await runOnFreshDaemon(
      spec.envs['ten-hooks'],
      receiver,
      'ten-hooks',
      DAEMON_WARMUP_EVENTS,
      1_000,
      10,
      appendBurst,
    );
    rss.phase('10-hook baseline');
    const tenBaseline = await baselineRun(receiver, ten.bodies, ten.paths);

    progress(`${STEADY_RATE} events/s for ${STEADY_SECONDS} s to 1 webhook`);
    const events = STEADY_RATE * STEADY_SECONDS;
    rss.phase('steady');
    // Warmed up the way it is measured (one event per transaction, on schedule), for one second: the
    // first second of a fresh daemon (its connections, its compiled code) is reported on its own.
    const steady = await runOnFreshDaemon(
      spec.envs.steady,
      receiver,
      'steady',
      STEADY_RATE,
      events,
      1,
      appendSteady,
      appendSteady,
    );
    return {
      one: one.figures,
      oneBaseline,
      ten: ten.figures,
      tenBaseline,
      steady: steady.figures,
      steadyWarmup: steady.warmup,
      startRssMb,
      peakRssMb: mb(rss.peak),
      phaseRssMb: Object.fromEntries([...rss.phases].map(([name, bytes]) => [name, mb(bytes)])),
      settings: { steadyRate: STEADY_RATE, inFlight: BASELINE_IN_FLIGHT, capSeconds: RUN_CAP_MS / 1000 },
    };
  } finally {
    rss.stop();
  }
}

// The child's entry: the parent sends `start`, answers every `take`, and gets one `result` or `error`.
if (process.send !== undefined) {
  let receiver: Receiver | undefined;
  let finished = false;
  // A parent that went away cannot hear the result: stop at once (its data dir goes with it).
  process.on('disconnect', () => {
    if (!finished) process.exit(1);
  });
  process.on('message', (message: ToChild) => {
    if (message.type === 'arrivals') receiver?.answered(message.arrivals);
    else {
      receiver = new Receiver(message.spec.receiverUrl);
      void measureEngine(message.spec, receiver)
        .then(
          (figures) => tell({ type: 'result', figures }),
          (err: unknown) => tell({ type: 'error', error: String((err as Error)?.stack ?? err) }),
        )
        .finally(() => {
          finished = true;
          process.disconnect();
        });
    }
  });
}
