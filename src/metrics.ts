import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './log.js';

// Prometheus metrics (prom-client) on a listener of their own (SERVICE_METRICS_ADDR), never on the
// public one. With no address set, every instrument is a no-op and prom-client is never loaded.

/** What the daemon records. Every method is cheap; the no-op version costs a call. */
export interface Metrics {
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  httpInFlight(delta: 1 | -1): void;
  authFailure(reason: string): void;
  permissionDenied(denial: string): void;
  grpcCall(method: string, code: string): void;
  loopTick(loop: string, seconds: number, ok: boolean): void;
  eventAppended(kind: string): void;
  /** One webhook attempt: `delivered`, `retry` (failed, another is due) or `failed` (the last), and its time. */
  webhookAttempt(outcome: 'delivered' | 'retry' | 'failed', seconds: number): void;
  /** One upstream provider call: `ok`, `failed` or `cancelled`, and its time to the whole answer. */
  providerCall(provider: string, modality: string, outcome: 'ok' | 'failed' | 'cancelled', seconds: number): void;
  /** A call that went on to the next provider after a retriable failure of `provider`. */
  providerFallback(provider: string): void;
  /** An asset stored (committed), served (a signed download started) or swept by retention. */
  assetEvent(event: 'stored' | 'served' | 'swept'): void;
  /** A workflow run or a job that ended (committed), by outcome. */
  workEnded(kind: 'run' | 'job', outcome: 'completed' | 'failed' | 'cancelled'): void;
  /** How long a run waited in its organization's queue before it started (each start). */
  runQueueWait(seconds: number): void;
  /** One node's provider call, started to recorded, by modality and outcome. */
  nodeDuration(modality: string, outcome: 'completed' | 'failed', seconds: number): void;
  /** A live run event stream opened (1) or ended (-1). */
  runStreamsOpen(delta: 1 | -1): void;
  /** One read of the event log by a live run event stream (its history, a wake-up or its poll). */
  runStreamRead(): void;
}

export const noMetrics: Metrics = Object.freeze({
  httpRequest: () => undefined,
  httpInFlight: () => undefined,
  authFailure: () => undefined,
  permissionDenied: () => undefined,
  grpcCall: () => undefined,
  loopTick: () => undefined,
  eventAppended: () => undefined,
  webhookAttempt: () => undefined,
  providerCall: () => undefined,
  providerFallback: () => undefined,
  assetEvent: () => undefined,
  workEnded: () => undefined,
  runQueueWait: () => undefined,
  nodeDuration: () => undefined,
  runStreamsOpen: () => undefined,
  runStreamRead: () => undefined,
});

/** Figures read when scraped (counted by the areas, not pushed on every change). */
export interface ScrapedFigures {
  /** Outbox entries by status, and the age in seconds of the oldest due entry (0 when none). */
  outbox: () => Promise<{ byStatus: Record<string, number>; oldestDueAgeSeconds: number }>;
  pendingInvitations: () => Promise<number>;
  /**
   * Webhook deliveries waiting (due or being attempted), the age in seconds of the oldest due one, and
   * the events committed that the fan-out has not reached yet.
   */
  webhooks: () => Promise<{ pending: number; oldestDueAgeSeconds: number; fanoutLag: number }>;
  /** Workflow runs queued and running, and jobs queued and running (counted up to 100,000 each). */
  workflows: () => Promise<{ runsQueued: number; runsRunning: number; jobsQueued: number; jobsRunning: number }>;
}

/** What the gauges read before the areas exist: nothing yet. */
const noFigures: ScrapedFigures = {
  outbox: () => Promise.resolve({ byStatus: {}, oldestDueAgeSeconds: 0 }),
  pendingInvitations: () => Promise.resolve(0),
  webhooks: () => Promise.resolve({ pending: 0, oldestDueAgeSeconds: 0, fanoutLag: 0 }),
  workflows: () => Promise.resolve({ runsQueued: 0, runsRunning: 0, jobsQueued: 0, jobsRunning: 0 }),
};

export interface MetricsServer {
  metrics: Metrics;
  /** Where the scraped gauges read from from now on (the areas' services, once composed). */
  readFrom(scraped: ScrapedFigures): void;
  /** host:port the scrape listener is bound to. */
  address: string;
  close(): Promise<void>;
}

/**
 * `read`, with the calls that overlap one in progress sharing it: a scrape collects its gauges together,
 * and several gauges show parts of one figure (three of the webhook figures' reads), read once a scrape.
 */
function sharedWhileRunning<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () =>
    (running ??= read().finally(() => {
      running = undefined;
    }));
}

/** The metrics listener could not start (its address taken, not allowed): one line naming it. */
export class MetricsStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MetricsStartError';
  }
}

/** Builds the registry and its instruments, and serves GET /metrics on `addr`. */
export async function startMetrics(addr: string, log: Logger): Promise<MetricsServer> {
  let figures: ScrapedFigures = noFigures;
  const client = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'switchyard_' });
  const http_ = new client.Histogram({
    name: 'switchyard_http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const inFlight = new client.Gauge({
    name: 'switchyard_http_requests_in_flight',
    help: 'HTTP requests being answered',
    registers: [registry],
  });
  const authFailures = new client.Counter({
    name: 'switchyard_auth_failures_total',
    help: 'Refused credentials by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const denials = new client.Counter({
    name: 'switchyard_permission_denials_total',
    help: 'Permission decisions that said no, by denial (not_visible, insufficient_scope, role)',
    labelNames: ['denial'] as const,
    registers: [registry],
  });
  const grpc = new client.Counter({
    name: 'switchyard_grpc_calls_total',
    help: 'Admin API calls by method and status code',
    labelNames: ['method', 'code'] as const,
    registers: [registry],
  });
  const loopTicks = new client.Counter({
    name: 'switchyard_loop_ticks_total',
    help: 'Background loop ticks by loop and outcome',
    labelNames: ['loop', 'outcome'] as const,
    registers: [registry],
  });
  const loopSeconds = new client.Histogram({
    name: 'switchyard_loop_tick_duration_seconds',
    help: 'Background loop tick duration',
    labelNames: ['loop'] as const,
    buckets: [0.001, 0.01, 0.1, 1, 10],
    registers: [registry],
  });
  const appends = new client.Counter({
    name: 'switchyard_events_appended_total',
    help: 'Domain events appended to the log, by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new client.Gauge({
    name: 'switchyard_outbox_entries',
    help: 'Email outbox entries by status',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const { byStatus } = await figures.outbox();
      this.reset();
      for (const [status, n] of Object.entries(byStatus)) this.set({ status }, n);
    },
  });
  new client.Gauge({
    name: 'switchyard_outbox_oldest_due_age_seconds',
    help: 'Age of the oldest email outbox entry that is due (0 when none)',
    registers: [registry],
    async collect() {
      this.set((await figures.outbox()).oldestDueAgeSeconds);
    },
  });
  const webhookAttempts = new client.Counter({
    name: 'switchyard_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (failed, another attempt is due), failed (the last)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhookSeconds = new client.Histogram({
    name: 'switchyard_webhook_attempt_duration_seconds',
    help: 'Webhook attempt duration, connect to answer',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new client.Gauge({
    name: 'switchyard_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting: due, retrying or being attempted (counted up to 100,000)',
    registers: [registry],
    async collect() {
      this.set((await figures.webhooks()).pending);
    },
  });
  new client.Gauge({
    name: 'switchyard_webhook_oldest_due_age_seconds',
    help: 'Age of the oldest webhook delivery that is due (0 when none)',
    registers: [registry],
    async collect() {
      this.set((await figures.webhooks()).oldestDueAgeSeconds);
    },
  });
  new client.Gauge({
    name: 'switchyard_webhook_fanout_lag_events',
    help: 'Events committed that the webhook fan-out has not reached yet (counted up to 100,000)',
    registers: [registry],
    async collect() {
      this.set((await figures.webhooks()).fanoutLag);
    },
  });
  const providerCalls = new client.Counter({
    name: 'switchyard_provider_calls_total',
    help: 'Upstream provider calls by provider, modality and outcome (ok, failed, cancelled)',
    labelNames: ['provider', 'modality', 'outcome'] as const,
    registers: [registry],
  });
  const providerSeconds = new client.Histogram({
    name: 'switchyard_provider_call_duration_seconds',
    help: 'Upstream provider call duration, request to the whole answer, by provider',
    labelNames: ['provider'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const providerFallbacks = new client.Counter({
    name: 'switchyard_provider_fallbacks_total',
    help: 'Calls that fell back to the next provider, by the provider that failed',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const assetEvents = new client.Counter({
    name: 'switchyard_assets_total',
    help: 'Assets stored, served (signed downloads started) and swept by retention, by event',
    labelNames: ['event'] as const,
    registers: [registry],
  });
  const workEnded = new client.Counter({
    name: 'switchyard_workflow_outcomes_total',
    help: 'Workflow runs and jobs that ended, by kind (run, job) and outcome (completed, failed, cancelled)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const queueWait = new client.Histogram({
    name: 'switchyard_workflow_queue_wait_seconds',
    help: "How long a run waited in its organization's queue before it started",
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60, 300, 1800],
    registers: [registry],
  });
  const nodeSeconds = new client.Histogram({
    name: 'switchyard_workflow_node_duration_seconds',
    help: "A node's provider call, started to recorded, by modality and outcome",
    labelNames: ['modality', 'outcome'] as const,
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120],
    registers: [registry],
  });
  new client.Gauge({
    name: 'switchyard_workflow_queue_depth',
    help: 'Workflow runs and jobs waiting (queued) and in progress (running), by kind and state',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      const f = await figures.workflows();
      this.set({ kind: 'run', state: 'queued' }, f.runsQueued);
      this.set({ kind: 'run', state: 'running' }, f.runsRunning);
      this.set({ kind: 'job', state: 'queued' }, f.jobsQueued);
      this.set({ kind: 'job', state: 'running' }, f.jobsRunning);
    },
  });
  const runStreams = new client.Gauge({
    name: 'switchyard_run_streams_open',
    help: 'Live run event streams (GET /v1/workflows/runs/{id}/events) open on this daemon',
    registers: [registry],
  });
  const runStreamReads = new client.Counter({
    name: 'switchyard_run_stream_reads_total',
    help: "Reads of the event log by live run event streams: each follows a commit of its own run's events (or its poll)",
    registers: [registry],
  });
  new client.Gauge({
    name: 'switchyard_invitations_pending',
    help: 'Pending invitations',
    registers: [registry],
    async collect() {
      this.set(await figures.pendingInvitations());
    },
  });

  const metrics: Metrics = {
    httpRequest: (route, method, status, seconds) => http_.observe({ route, method, status: String(status) }, seconds),
    httpInFlight: (delta) => inFlight.inc(delta),
    authFailure: (reason) => authFailures.inc({ reason }),
    permissionDenied: (denial) => denials.inc({ denial }),
    grpcCall: (method, code) => grpc.inc({ method, code }),
    loopTick: (loop, seconds, ok) => {
      loopTicks.inc({ loop, outcome: ok ? 'ok' : 'failed' });
      loopSeconds.observe({ loop }, seconds);
    },
    eventAppended: (kind) => appends.inc({ kind }),
    webhookAttempt: (outcome, seconds) => {
      webhookAttempts.inc({ outcome });
      webhookSeconds.observe(seconds);
    },
    providerCall: (provider, modality, outcome, seconds) => {
      providerCalls.inc({ provider, modality, outcome });
      providerSeconds.observe({ provider }, seconds);
    },
    providerFallback: (provider) => providerFallbacks.inc({ provider }),
    assetEvent: (event) => assetEvents.inc({ event }),
    workEnded: (kind, outcome) => workEnded.inc({ kind, outcome }),
    runQueueWait: (seconds) => queueWait.observe(seconds),
    nodeDuration: (modality, outcome, seconds) => nodeSeconds.observe({ modality, outcome }, seconds),
    runStreamsOpen: (delta) => runStreams.inc(delta),
    runStreamRead: () => runStreamReads.inc(),
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  const [host, port] = splitAddr(addr);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new MetricsStartError(`cannot listen on ${addr} (SERVICE_METRICS_ADDR, metrics): ${err.code ?? err.message}`, {
          cause: err,
        }),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const address = `${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  log.info({ address }, 'metrics listening');
  return {
    metrics,
    readFrom: (scraped) => {
      figures = {
        outbox: sharedWhileRunning(scraped.outbox),
        pendingInvitations: scraped.pendingInvitations,
        webhooks: sharedWhileRunning(scraped.webhooks),
        workflows: scraped.workflows,
      };
    },
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function splitAddr(addr: string): [string, number] {
  const i = addr.lastIndexOf(':');
  const host = addr.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return [host, Number(addr.slice(i + 1))];
}
