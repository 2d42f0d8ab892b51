import type { Config } from './config/schema.js';
import { EventLog } from './domain/events/service.js';
import { createIdentity, type Identity } from './domain/identity/index.js';
import { bootstrapDev } from './dev-bootstrap.js';
import { startGrpcServer, type RunningGrpcServer } from './grpc/server.js';
import { rawHeader } from './http/headers.js';
import { createHttpApp, listenHttp, type Authenticator, type RunningHttpServer } from './http/server.js';
import { eventRoutes } from './http/routes/events.js';
import { healthRoutes } from './http/routes/health.js';
import { identityRoutes } from './http/routes/identity.js';
import { createInvitationArea } from './domain/invitations/index.js';
import type { InvitationService } from './domain/invitations/service.js';
import type { SettingsService } from './domain/settings/service.js';
import type { OutboxService } from './domain/email/outbox.js';
import { invitationRoutes } from './http/routes/invitations.js';
import { settingsRoutes } from './http/routes/settings.js';
import { createLogger, type Logger } from './log.js';
import { LoopSet } from './loops/loop.js';
import { Storage } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { version } from './version.js';

export type DaemonState = 'starting' | 'running' | 'stopping' | 'stopped';

export interface Daemon {
  readonly config: Config;
  readonly log: Logger;
  readonly storage: Storage;
  readonly events: EventLog;
  readonly identity: Identity;
  /** Invitations, organization settings and the email outbox (also for the admin surface). */
  readonly invitations: InvitationService;
  readonly settings: SettingsService;
  readonly outbox: OutboxService;
  readonly loops: LoopSet;
  readonly http: RunningHttpServer;
  /** The gRPC admin API: `socketPath`, and `tcpAddress` when a TCP listener runs. */
  readonly grpc: RunningGrpcServer;
  /** Base URL of the HTTP listener (the bound port when the configured one was 0). */
  readonly url: string;
  readonly startedAt: Date;
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

  const storage = await Storage.open(config.dataDir, log.child({ module: 'storage' }));
  let http: RunningHttpServer | undefined;
  let grpc: RunningGrpcServer | undefined;
  try {
    await migrate(storage);
    const events = new EventLog(storage, log.child({ module: 'events' }));
    const identity = createIdentity(storage, events, config, log.child({ module: 'identity' }));
    const loops = new LoopSet();
    const invitationArea = await createInvitationArea(
      storage,
      events,
      identity,
      config,
      () => config.publicUrl ?? http?.url ?? `http://${config.httpAddr}`,
      log,
    );
    for (const loop of invitationArea.loops) loops.add(loop);

    const authenticate: Authenticator = (req) =>
      identity.authentication.authenticate({
        authorization: rawHeader(req, 'authorization', 'first'),
        principalId: rawHeader(req, 'x-principal-id', 'join'),
      });
    const routes = [
      ...healthRoutes({ storage: () => storage.isOpen, loops: () => loops.allRunning, accepting: () => state === 'running' }),
      ...identityRoutes(identity),
      ...eventRoutes(events, identity.permissions),
      ...invitationRoutes(invitationArea.invitations, { redirectUrl: config.inviteRedirectUrl }),
      ...settingsRoutes(invitationArea.settings),
    ];
    const app = createHttpApp({ log: log.child({ module: 'http' }), routes, authenticate, version });
    http = await listenHttp(app, config.httpAddr);
    const { invitations, settings, outbox } = invitationArea;
    grpc = await startGrpcServer({
      config,
      log: log.child({ module: 'grpc' }),
      version,
      startedAt,
      httpUrl: http.url,
      state: () => state,
      identity,
      invitations,
      settings,
      outbox,
      loops,
    });
    if (config.dev)
      await bootstrapDev({ storage, identity, httpUrl: http.url, log, print: (text) => process.stdout.write(text) });
    loops.startAll();
    state = 'running';
    log.info({ url: http.url, data_dir: config.dataDir, version, env: config.env }, 'switchyard listening');

    const running = http;
    const admin = grpc;
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        state = 'stopping';
        log.info('shutting down');
        // Intake and loops wind down together under one deadline; a tick that hangs past it is
        // abandoned (logged), so shutdown is always bounded.
        const loopsStopped = loops.stopAll().then(() => true);
        await Promise.all([running.close(config.shutdownTimeoutMs), admin.close(config.shutdownTimeoutMs)]);
        const deadline = new Promise<false>((resolve) => setTimeout(() => resolve(false), config.shutdownTimeoutMs).unref());
        if (!(await Promise.race([loopsStopped, deadline])))
          log.warn({ timeout_ms: config.shutdownTimeoutMs }, 'a loop tick did not finish in time; closing anyway');
        await storage.close();
        state = 'stopped';
        log.info('stopped');
      })());

    return {
      config,
      log,
      storage,
      events,
      identity,
      invitations: invitationArea.invitations,
      settings: invitationArea.settings,
      outbox: invitationArea.outbox,
      loops,
      http: running,
      grpc: admin,
      url: running.url,
      startedAt,
      state: () => state,
      stop,
    };
  } catch (err) {
    await grpc?.close(0);
    await http?.close(0);
    await storage.close();
    throw err;
  }
}

/** Runs the daemon until SIGTERM or SIGINT; a second signal while stopping forces exit. */
export async function runServe(config: Config): Promise<void> {
  const daemon = await startDaemon(config);
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
