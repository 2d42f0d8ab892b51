import { chmod, lstat, mkdir, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import {
  Server,
  ServerCredentials,
  status,
  type handleServerStreamingCall,
  type handleUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServerInterceptor,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation, protoPath as healthProtoPath } from 'grpc-health-check';
import { hostOf, isLoopbackHost } from '../config/schema.js';
import { createLogThrottle } from '../log-throttle.js';
import { requireBearerToken } from './interceptors.js';
import { loadProtos } from './proto.js';
import { lazyReflection } from './reflection.js';
import { adminServices } from './services/index.js';
import type { AdminContext, AdminServiceModule, ServiceContext } from './services/context.js';
import { socketAddress } from './socket-path.js';
import type { Metrics } from '../metrics.js';

/** The gRPC admin API could not start; the message is the one line an operator sees. */
export class GrpcStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GrpcStartError';
  }
}

export interface RunningGrpcServer {
  /** The Unix socket (mode 0600): its file mode is the authorization. */
  readonly socketPath: string;
  /** host:port of the token-guarded TCP listener (the bound port), or null when there is none. */
  readonly tcpAddress: string | null;
  /** Stops intake, lets calls in flight finish for at most `timeoutMs`, then cuts the rest. */
  close(timeoutMs: number): Promise<void>;
}

function bind(server: Server, address: string, credentials = ServerCredentials.createInsecure()): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentials, (err, port) => (err ? reject(err) : resolve(port)));
  });
}

/** TLS credentials from the PEM files of SERVICE_GRPC_TLS_CERT and SERVICE_GRPC_TLS_KEY. */
async function tlsCredentials(certFile: string, keyFile: string): Promise<ServerCredentials> {
  const read = async (file: string, variable: string): Promise<Buffer> => {
    try {
      return await readFile(file);
    } catch (err) {
      throw new GrpcStartError(
        `cannot read ${variable} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  };
  // One after the other: when both are unreadable, the line always names the certificate first.
  const cert = await read(certFile, 'SERVICE_GRPC_TLS_CERT');
  const key = await read(keyFile, 'SERVICE_GRPC_TLS_KEY');
  try {
    return ServerCredentials.createSsl(null, [{ cert_chain: cert, private_key: key }], false);
  } catch (err) {
    throw new GrpcStartError(`SERVICE_GRPC_TLS_CERT / SERVICE_GRPC_TLS_KEY: ${(err as Error).message}`, { cause: err });
  }
}

function shutdown(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, timeoutMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Whether something accepts connections on a Unix socket path. */
function answers(connectPath: string, socketPath: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(connectPath);
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(true); // accepted into a full backlog, or hung: something holds it either way
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(false);
      else reject(new GrpcStartError(`cannot check the admin socket ${socketPath}: ${err.code ?? err.message}`));
    });
  });
}

/** A socket file left by a crashed daemon is removed; a live one, or any other file, is left alone. */
async function clearStaleSocket(socketPath: string, connectPath: string): Promise<void> {
  let stats;
  try {
    stats = await lstat(socketPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!stats.isSocket())
    throw new GrpcStartError(`${socketPath} exists and is not a socket: remove it or choose another --grpc-socket`);
  if (await answers(connectPath, socketPath)) throw new GrpcStartError(`another daemon is listening on ${socketPath}`);
  await rm(socketPath, { force: true });
}

function serviceDefinition(definitions: ReturnType<typeof loadProtos>, module: AdminServiceModule): ServiceDefinition {
  const definition = definitions[module.serviceName];
  if (definition === undefined || 'format' in definition)
    throw new TypeError(`${module.protoFile} defines no service ${module.serviceName}`);
  return definition;
}

/** Every handler of a service, with each call counted by method and status code (a stream once it ends). */
function counted(
  serviceName: string,
  definition: ServiceDefinition,
  implementation: UntypedServiceImplementation,
  metrics: Metrics,
): UntypedServiceImplementation {
  const short = serviceName.split('.').pop()!;
  const codeName = (code: number | undefined): string => status[code ?? status.UNKNOWN] ?? 'UNKNOWN';
  return Object.fromEntries(
    Object.entries(implementation).map(([name, handler]): [string, UntypedServiceImplementation[string]] => {
      const method = `${short}/${name}`;
      if (definition[name]?.responseStream === true)
        return [
          name,
          (call: ServerWritableStream<unknown, unknown>) => {
            let counted = false;
            const count = (code: string): void => {
              if (counted) return;
              counted = true;
              metrics.grpcCall(method, code);
            };
            call.once('error', (err: { code?: number }) => count(codeName(err.code)));
            call.once('cancelled', () => count('CANCELLED'));
            call.once('finish', () => count('OK'));
            (handler as handleServerStreamingCall<unknown, unknown>)(call);
          },
        ];
      return [
        name,
        (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
          (handler as handleUnaryCall<unknown, unknown>)(call, (err, value, ...rest) => {
            metrics.grpcCall(method, err ? codeName(err.code) : 'OK');
            callback(err, value, ...rest);
          });
        },
      ];
    }),
  );
}

/**
 * The admin API: the services of services/index.ts plus grpc.health.v1.Health and server
 * reflection, on a Unix socket (no token: the file mode decides who may connect) and, when
 * configured, on TCP where every call needs `authorization: Bearer <SERVICE_ADMIN_TOKEN>`.
 */
export async function startGrpcServer(
  context: AdminContext,
  modules: readonly AdminServiceModule[] = adminServices,
): Promise<RunningGrpcServer> {
  const { config, log } = context;
  const definitions = loadProtos(modules.map((m) => m.protoFile));
  const listeners = { socketPath: config.grpcSocket, tcpAddress: null as string | null };
  const stopping = new AbortController();
  const serviceContext: ServiceContext = { ...context, listeners: () => ({ ...listeners }), closing: stopping.signal };
  const implementations: Array<[ServiceDefinition, UntypedServiceImplementation]> = modules.map((m) => {
    const definition = serviceDefinition(definitions, m);
    return [definition, counted(m.serviceName, definition, m.implement(serviceContext), context.metrics)];
  });

  const healthNames = ['', ...modules.map((m) => m.serviceName)];
  const health = new HealthImplementation(Object.fromEntries(healthNames.map((name) => [name, 'SERVING'])));
  // Reflection describes the health service too, so `grpcurl describe` works for everything served.
  const healthInclude = path.resolve(path.dirname(healthProtoPath), '..', '..');
  const addReflection = lazyReflection(() =>
    loadProtos([...modules.map((m) => m.protoFile), path.relative(healthInclude, healthProtoPath)], [healthInclude]),
  );

  const build = (interceptors: ServerInterceptor[]): Server => {
    const server = new Server({ interceptors });
    for (const [definition, implementation] of implementations) server.addService(definition, implementation);
    health.addToServer(server);
    addReflection(server);
    return server;
  };

  const socketPath = config.grpcSocket;
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const address = socketAddress(socketPath);
  const servers: Server[] = [];
  let socketBound = false;
  let tcpTls = false;
  try {
    await clearStaleSocket(socketPath, address.path);
    const unixServer = build([]);
    servers.push(unixServer);
    try {
      await bind(unixServer, `unix:${address.path}`);
    } catch (err) {
      throw new GrpcStartError(`cannot listen on the admin socket ${socketPath}: ${(err as Error).message}`, { cause: err });
    }
    socketBound = true;
    await chmod(socketPath, 0o600);

    if (config.grpcAddr !== undefined) {
      // config refuses a TCP listener without a token; this guards against a caller that skips config.
      if (config.adminToken === undefined) throw new GrpcStartError('a TCP gRPC listener needs SERVICE_ADMIN_TOKEN');
      const tls =
        config.grpcTlsCert !== undefined && config.grpcTlsKey !== undefined
          ? await tlsCredentials(config.grpcTlsCert, config.grpcTlsKey)
          : undefined;
      const tcpServer = build([requireBearerToken(config.adminToken)]);
      servers.push(tcpServer);
      let port: number;
      try {
        port = await bind(tcpServer, config.grpcAddr, tls);
      } catch (err) {
        throw new GrpcStartError(`cannot listen on ${config.grpcAddr} (gRPC): ${(err as Error).message}`, { cause: err });
      }
      listeners.tcpAddress = `${config.grpcAddr.slice(0, config.grpcAddr.lastIndexOf(':'))}:${port}`;
      tcpTls = tls !== undefined;
      if (!tcpTls && !isLoopbackHost(hostOf(config.grpcAddr)))
        log.warn(
          { tcp: listeners.tcpAddress },
          'the TCP admin listener is not loopback and not TLS: the admin token travels in clear text; set SERVICE_GRPC_TLS_CERT and SERVICE_GRPC_TLS_KEY',
        );
    }
  } catch (err) {
    for (const server of servers) server.forceShutdown();
    address.release();
    if (socketBound) await rm(socketPath, { force: true });
    throw err;
  }
  log.info({ socket: socketPath, tcp: listeners.tcpAddress, tls: tcpTls }, 'gRPC admin API listening');

  // A deleted socket file (a tmp cleaner, an operator's rm) would leave the daemon running with no
  // way in for the CLI: check for it now and then, and bind it again.
  let closing: Promise<void> | undefined;
  let watchTimer: NodeJS.Timeout | undefined;
  const unixServer = servers[0];
  const socketFailures = createLogThrottle(60_000);
  const watchSocket = async (): Promise<void> => {
    try {
      await lstat(socketPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || closing !== undefined) return;
      unixServer.unbind(`unix:${address.path}`);
      await bind(unixServer, `unix:${address.path}`);
      await chmod(socketPath, 0o600);
      log.warn({ socket: socketPath }, 'the admin socket file was deleted: re-created it');
    }
  };
  const scheduleWatch = (): void => {
    watchTimer = setTimeout(() => {
      watchSocket()
        .catch((err: unknown) =>
          socketFailures.error(
            log,
            { err, socket: socketPath },
            `cannot re-create the admin socket: ${(err as Error).message}`,
            (err as NodeJS.ErrnoException).code,
          ),
        )
        .finally(() => {
          if (closing === undefined) scheduleWatch();
        });
    }, config.grpcSocketCheckMs);
    watchTimer.unref();
  };
  scheduleWatch();

  return {
    socketPath,
    tcpAddress: listeners.tcpAddress,
    close: (timeoutMs) =>
      (closing ??= (async () => {
        clearTimeout(watchTimer);
        for (const name of healthNames) health.setStatus(name, 'NOT_SERVING');
        // Open streams (event tails) would hold the server until the deadline: they end now.
        stopping.abort();
        await Promise.all(servers.map((server) => shutdown(server, timeoutMs)));
        address.release();
        await rm(socketPath, { force: true });
      })()),
  };
}
