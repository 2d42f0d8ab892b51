import { composeAreas, type Services } from './areas.js';
import type { Config } from './config/schema.js';
import { devBanner } from './dev-banner.js';
import { bootstrapDev, type DevBootstrap } from './dev-bootstrap.js';
import { AuditLog } from './domain/audit/service.js';
import { EventLog } from './domain/events/service.js';
import { startGrpcServer, type RunningGrpcServer } from './grpc/server.js';
import { rawHeader } from './http/headers.js';
import { anthropicKeyHeader } from './http/routes/anthropic-compat.js';
import { healthRoutes } from './http/routes/health.js';
import { routeModules } from './http/routes/index.js';
import { createHttpApp, listenHttp, type Authenticator, type RunningHttpServer } from './http/server.js';
import { createLogger, type Logger } from './log.js';
import { LoopSet } from './loops/loop.js';
import { noMetrics, startMetrics, type MetricsServer } from './metrics.js';
import { prepareDataDir } from './storage/data-dir.js';
import { openStorage } from './storage/open.js';
import type { Storage } from './storage/port.js';
import { version } from './version.js';

/** Kept for code written against the old home of the type; new code imports it from areas.ts. */
export type { Services };

export type DaemonState = 'starting' | 'running' | 'stopping' | 'stopped';

export interface Daemon {
  readonly config: Config;
  readonly log: Logger;
  readonly storage: Storage;
  readonly eventLog: EventLog;
  readonly services: Services;
  readonly loops: LoopSet;
  readonly http: RunningHttpServer;
  /** The gRPC admin API: `socketPath`, and `tcpAddress` when a TCP listener runs. */
  readonly grpc: RunningGrpcServer;
  /** Base URL of the HTTP listener (the bound port when the configured one was 0). */
  readonly url: string;
  /** host:port of the Prometheus listener, when SERVICE_METRICS_ADDR is set. */
  readonly metricsAddress: string | null;
  readonly startedAt: Date;
  /** With --dev: the development organization, and its key on the first start. */
  readonly dev: DevBootstrap | null;
  state(): DaemonState;
  stop(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
}

/** config -> storage -> services -> transports + loops. Signals are the caller's (see runServe). */
export async function startDaemon(config: Config, options: StartOptions = {}): Promise<Daemon> {
  const log = options.log ?? createLogger(config.logLevel);
  let state: DaemonState = 'starting';
  const startedAt = new Date();

  await prepareDataDir(config.dataDir, { allowShared: config.dataDirAllowShared });
  const storage = await openStorage(config, log.child({ module: 'storage' }));
  let http: RunningHttpServer | undefined;
  let grpc: RunningGrpcServer | undefined;
  let scrape: MetricsServer | undefined;
  let closeAreas: () => Promise<void> = async () => {};
  try {
    scrape =
      config.metricsAddr === undefined ? undefined : await startMetrics(config.metricsAddr, log.child({ module: 'metrics' }));
    const metrics = scrape?.metrics ?? noMetrics;
    const eventLog = new EventLog(storage, log.child({ module: 'events' }), metrics);
    const publicUrl = () => config.publicUrl ?? http?.url ?? `http://${config.httpAddr}`;
    const audit = new AuditLog(storage);
    const areas = await composeAreas({ config, storage, eventLog, audit, log, publicUrl, metrics });
    closeAreas = areas.close;
    const { services } = areas;
    // Scraped figures are read from the services, which exist once the areas are composed; a scrape
    // before that reports zeros.
    scrape?.readFrom({
      outbox: () => services.outbox.outboxFigures(),
      pendingInvitations: () => services.invitations.countPendingInvitations(),
      webhooks: async () => ({
        ...(await services.webhooks.backlogFigures()),
        fanoutLag: await services.webhookFanout.lag(100_000),
      }),
      workflows: async () => ({ ...(await services.workflows.queueFigures()), ...(await services.jobs.queueFigures()) }),
    });
    services.permissions.observeDenials((denial) => metrics.permissionDenied(denial));
    const loops = new LoopSet((name, seconds, ok) => metrics.loopTick(name, seconds, ok));
    for (const loop of areas.loops) loops.add(loop);

    const authenticate: Authenticator = (req) =>
      services.authentication.authenticate({
        authorization: rawHeader(req, 'authorization', 'first') ?? anthropicKeyHeader(req),
        principalId: rawHeader(req, 'x-principal-id', 'join'),
      });
    const routes = [
      ...healthRoutes({
        storage: () => storage.isOpen,
        storageWrites: () => storage.checkWritable(),
        loops: () => loops.allRunning,
        accepting: () => state === 'running',
      }),
      ...routeModules.flatMap((routesOf) => routesOf(services, config)),
    ];
    const app = createHttpApp({ log: log.child({ module: 'http' }), routes, authenticate, version, metrics, publicUrl });
    http = await listenHttp(app, config.httpAddr, {
      maxConnections: config.httpMaxConnections,
      maxConnectionsPerAddress: config.httpMaxConnectionsPerAddress,
      headersTimeoutMs: config.httpHeadersTimeoutMs,
    });
    grpc = await startGrpcServer({
      config,
      log: log.child({ module: 'grpc' }),
      version,
      startedAt,
      httpUrl: http.url,
      state: () => state,
      services,
      loops,
      count: areas.count,
      metrics,
      // Loaded on the first backup: its restore side holds both engines (pg among them).
      backup: async function* () {
        const { backupLines } = await import('./storage/backup.js');
        yield* backupLines(storage, version);
      },
      ...(storage.inspectDatabase === undefined ? {} : { inspectDatabase: () => storage.inspectDatabase!() }),
    });
    const dev = config.dev ? await bootstrapDev({ storage, services, log }) : null;
    loops.startAll();
    state = 'running';
    if (config.env === 'development')
      log.warn(
        { header: 'X-Principal-Id' },
        'development mode: any caller can act as any principal with the X-Principal-Id header; set SERVICE_ENV=production to turn it off',
      );
    log.info(
      { url: http.url, data_dir: config.dataDir, storage: storage.engine, version, env: config.env },
      'switchyard listening',
    );

    const running = http;
    const admin = grpc;
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        state = 'stopping';
        log.info('shutting down');
        // Shutdown holds the process until it is done: some of what it waits for holds nothing that
        // keeps node running (a loop tick waiting on an unref'd timer, a native library's dispose),
        // and without this the process would exit half-way, the areas and the storage never closed.
        // Each step that can wait on something else (a loop tick, a native library's dispose, a
        // database) is given SERVICE_SHUTDOWN_TIMEOUT_MS and then abandoned (logged), so shutdown is
        // always bounded: the keep-alive must never hold a process whose shutdown hangs.
        const keepAlive = setInterval(() => {}, 60_000);
        const step = (what: string, work: Promise<unknown>): Promise<void> =>
          withinShutdown(work, config.shutdownTimeoutMs, log, what);
        try {
          // Intake and loops wind down together.
          const loopsStopped = step('a loop tick', loops.stopAll());
          await Promise.all([running.close(config.shutdownTimeoutMs), admin.close(config.shutdownTimeoutMs)]);
          await loopsStopped;
          await step('closing the areas', areas.close());
          await scrape?.close();
          await step('closing the storage', storage.close());
        } finally {
          clearInterval(keepAlive);
        }
        state = 'stopped';
        log.info('stopped');
      })());

    return {
      config,
      log,
      storage,
      eventLog,
      services,
      loops,
      http: running,
      grpc: admin,
      url: running.url,
      metricsAddress: scrape?.address ?? null,
      startedAt,
      dev,
      state: () => state,
      stop,
    };
  } catch (err) {
    await grpc?.close(0);
    await http?.close(0);
    await closeAreas().catch(() => undefined);
    await scrape?.close();
    await storage.close();
    throw err;
  }
}

/** Runs the daemon until SIGTERM or SIGINT; a second signal while stopping forces exit. */
export async function runServe(config: Config, log?: Logger): Promise<void> {
  // Whatever the caller's umask, what the daemon creates (LevelDB files, secrets) is its user's alone.
  process.umask(0o077);
  const daemon = await startDaemon(config, { log });
  // For the person who started it, not for the log: stderr, as a block (dev-banner.ts).
  if (config.env === 'development') process.stderr.write(devBanner(daemon.dev, daemon.url));
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      daemon.log.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    signalled = true;
    daemon.log.info({ signal }, 'signal received');
    daemon.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        daemon.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * Waits for one step of shutdown for at most `timeoutMs`: a step that fails or does not finish in
 * time is logged (`<what> did not finish in time; going on`) and shutdown goes on without it.
 */
async function withinShutdown(work: Promise<unknown>, timeoutMs: number, log: Logger, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
  try {
    const outcome = await Promise.race([work.then(() => 'done' as const), late]);
    if (outcome === 'late') log.warn({ timeout_ms: timeoutMs }, `${what} did not finish in time; going on`);
  } catch (err) {
    log.warn({ err }, `${what} failed; going on`);
  } finally {
    clearTimeout(timer);
  }
}
