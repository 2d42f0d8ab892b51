import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import polka from 'polka';
import type { z } from 'zod';
import { callerAt, type Caller } from '../domain/identity/caller.js';
import { AccessLog } from './access-log.js';
import { aliasPlanOf, applyAliases, type AliasPlan } from './aliases.js';
import { ConnectionGuard } from './connection-guard.js';
import { AppError, describeError, fieldReasons, isAppError, validationFailed } from '../errors.js';
import { createLogThrottle } from '../log-throttle.js';
import type { Logger } from '../log.js';
import { noMetrics, type Metrics } from '../metrics.js';
import { redactUrl } from '../redact.js';
import { readBody } from './body.js';
import { rawHeader } from './headers.js';
import { buildOpenApi } from './openapi.js';
import { Reply, type ErrorShape, type RouteContext, type RouteDef } from './route.js';

/**
 * Resolves a request's credentials: a Caller, null for none, or throws `unauthenticated` for bad ones.
 * Synchronous where it can be (the development header), a promise where it cannot (API keys, JWTs).
 */
export type Authenticator = (req: IncomingMessage) => Caller | null | Promise<Caller | null>;

export interface HttpAppOptions {
  log: Logger;
  /** Requests by route template, in flight, and refused credentials (default: none recorded). */
  metrics?: Pick<Metrics, 'httpRequest' | 'httpInFlight' | 'authFailure'>;
  routes: RouteDef[];
  authenticate: Authenticator;
  version: string;
  /** The base URL clients reach the daemon at (SERVICE_PUBLIC_URL, else its own address): the OpenAPI server. */
  publicUrl?: () => string;
}

const REQUEST_ID = /^[\w.:@-]{1,128}$/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function sendJson(
  res: ServerResponse,
  requestId: string,
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): void {
  const text = JSON.stringify(body);
  if (headers !== undefined) for (const name in headers) res.setHeader(name, headers[name]);
  // One header object for writeHead: cheaper than setHeader() calls merged into it.
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': requestId,
  });
  res.end(text);
}

/** The same unexpected failure (a failing disk fails every request alike) is logged once per 10 s. */
const unhandledErrors = createLogThrottle(10_000);

function sendError(res: ServerResponse, requestId: string, err: unknown, log: Logger, shape?: ErrorShape): void {
  if (!isAppError(err)) {
    const e = err as { message?: unknown; code?: unknown };
    unhandledErrors.error(log, { err }, `unhandled error: ${String(e.message)}`, typeof e.code === 'string' ? e.code : undefined);
  }
  const error = describeError(err);
  const status = isAppError(err) ? err.httpStatus : 500;
  const headers: Record<string, string> = {};
  if (error.code === 'unauthenticated') headers['www-authenticate'] = 'Bearer';
  // Answered before its body has all arrived (more than drainBody waits for): the rest is dropped and
  // the connection ends after the answer, which says so, so a client does not send its next request on it.
  if (!res.req.complete) headers.connection = 'close';
  if (isAppError(err) && err.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
  sendJson(res, requestId, status, shape === undefined ? { meta: { status }, error } : shape.body(status, error), headers);
}

/** An error answered while its request body is still arriving waits for at most this much more of it ... */
const DRAIN_BYTES = 64 * 1024 * 1024;
/** ... and for at most this long. */
const DRAIN_MS = 2000;

/**
 * Reads and drops what is left of a request body (bounded), before an error answer. Answering and
 * closing while the client still sends makes the kernel reset the connection, and a reset can
 * discard the answer before the client reads it (a 413 on a 40 MB body did, under load). A body that
 * ends within the bounds leaves the connection usable; one that does not is answered with
 * Connection: close (sendError), the rest still dropped.
 */
function drainBody(req: IncomingMessage): Promise<void> {
  if (req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

// Generated request ids: this process's random prefix and a counter. Unique across restarts and
// cheap (a random UUID per request was about 600 bytes of garbage); they are not secrets.
const bootPrefix = randomBytes(6).toString('hex');
let requestCounter = 0;

/** The client's X-Request-Id when it is a sane token, else a new one. */
function requestIdOf(req: IncomingMessage): string {
  const given = rawHeader(req, 'x-request-id', 'join');
  return given !== undefined && REQUEST_ID.test(given) ? given : `${bootPrefix}-${(++requestCounter).toString(36)}`;
}

function parsePart(schema: z.ZodType | undefined, value: unknown, part: 'path' | 'query' | 'body', aliases?: AliasPlan): unknown {
  if (schema === undefined) return undefined;
  if (part === 'body') value ??= {};
  // The spec's camelCase spellings become the fields' names; both spellings, differing, is an error.
  const clashes = aliases === undefined ? undefined : applyAliases(aliases, value);
  if (clashes !== undefined) {
    if (part === 'body') throw validationFailed(clashes);
    const [field, reason] = Object.entries(clashes)[0];
    throw new AppError('invalid_request', `invalid ${part} parameter ${field}: ${reason}`, { details: { fields: clashes } });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  if (part === 'body') throw validationFailed(fieldReasons(result.error.issues));
  const fields = fieldReasons(result.error.issues);
  const [field, reason] = Object.entries(fields)[0];
  throw new AppError('invalid_request', `invalid ${part} parameter ${field}: ${reason}`, { details: { fields } });
}

/**
 * What a handler receives. A class rather than an object literal: every request's context then has
 * the same shape (an object literal with a getter gets a fresh hidden class per request, which cost
 * about a tenth of /healthz throughput in young-generation garbage collections).
 */
class RequestContext implements RouteContext<unknown, unknown, unknown> {
  params: unknown = undefined;
  query: unknown = undefined;
  body: unknown = undefined;
  caller: Caller | null = null;
  private child: Logger | undefined = undefined;

  constructor(
    readonly requestId: string,
    readonly req: IncomingMessage,
    private readonly response: ServerResponse,
    private readonly parentLog: Logger,
  ) {}

  /** The raw response, for handlers that write it themselves (streams); it carries X-Request-Id. */
  get res(): ServerResponse {
    if (!this.response.headersSent && !this.response.hasHeader('x-request-id'))
      this.response.setHeader('x-request-id', this.requestId);
    return this.response;
  }

  /** The per-request child logger, made only when something is logged. */
  get log(): Logger {
    return (this.child ??= this.parentLog.child({ request_id: this.requestId }));
  }
}

function render(res: ServerResponse, requestId: string, route: RouteDef, result: unknown): void {
  if (result instanceof Reply) {
    // instanceof gives Reply<any>: the body is unknown here, whatever the route's schema.
    const reply: Reply<unknown> = result;
    if (reply.kind === 'handled') return;
    if (reply.kind === 'redirect') {
      res.writeHead(reply.status, { ...reply.headers, 'content-length': 0, 'x-request-id': requestId });
      res.end();
      return;
    }
    if (reply.kind === 'raw') return sendJson(res, requestId, reply.status, reply.data, reply.headers);
    if (reply.kind === 'html') {
      const html = reply.html;
      res.writeHead(reply.status, {
        ...reply.headers,
        'content-type': 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(html),
        'x-request-id': requestId,
      });
      res.end(html);
      return;
    }
    return sendJson(
      res,
      requestId,
      reply.status,
      { meta: { status: reply.status, ...reply.meta }, data: reply.data },
      reply.headers,
    );
  }
  const status = route.status ?? 200;
  sendJson(res, requestId, status, { meta: { status }, data: result });
}

export interface HttpApp {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Every route served, /openapi.json included. */
  routes: readonly RouteDef[];
  /** The OpenAPI document, built on first use (an idle daemon does not hold it). */
  openapi: () => Record<string, unknown>;
  /** Requests currently being handled. */
  inFlight: () => number;
}

export function createHttpApp(options: HttpAppOptions): HttpApp {
  const accessLog = new AccessLog(options.log);
  const { log } = options;
  const metrics = options.metrics ?? noMetrics;
  let inFlight = 0;
  const openapiRoute: RouteDef = {
    method: 'GET',
    path: '/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: 'meta',
    auth: 'none',
    quiet: true,
    handler: () => Reply.raw(200, openapi()),
  };
  const routes = [...options.routes, openapiRoute];
  // The document lists every route served, itself included.
  let document: Record<string, unknown> | undefined;
  const openapi = (): Record<string, unknown> =>
    (document ??= buildOpenApi(routes, { version: options.version, publicUrl: options.publicUrl?.() ?? '/' }));

  const app = polka({
    onNoMatch: (req: IncomingMessage & { path?: string }, res: ServerResponse) =>
      sendError(res, requestIdOf(req), new AppError('not_found', `no route for ${req.method ?? 'GET'} ${req.path ?? '/'}`), log),
  });

  for (const route of routes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const level = route.quiet === true ? 'debug' : 'info';
    const hasBody = BODY_METHODS.has(route.method);
    const queryAliases = aliasPlanOf(route.query);
    const bodyAliases = aliasPlanOf(route.body);
    app[method](
      route.path,
      async (
        req: IncomingMessage & { params?: Record<string, string>; query?: Record<string, unknown> },
        res: ServerResponse,
      ) => {
        const ctx = new RequestContext(requestIdOf(req), req, res, log);
        const started = performance.now();
        inFlight++;
        metrics.httpInFlight(1);
        try {
          if (route.auth !== 'none') {
            const authenticated = options.authenticate(req);
            const caller = authenticated instanceof Promise ? await authenticated : authenticated;
            // A change is audited with its request: the caller (shared between requests) is copied
            // with the request's id for methods that change things. A GET changes nothing (the
            // invitation link hands its request to the acceptance itself), so reads skip the copy.
            ctx.caller =
              caller === null || req.method === 'GET' ? caller : callerAt(caller, { source: 'http', requestId: ctx.requestId });
          }
          if (route.auth === undefined || route.auth === 'required') {
            const { caller } = ctx;
            if (caller === null) throw new AppError('unauthenticated', 'credentials are required', { reason: 'missing' });
            const scopes = caller.apiKey?.scopes;
            if (
              scopes !== undefined &&
              scopes.length > 0 &&
              route.scope !== 'any' &&
              (route.scope === undefined || !scopes.includes(route.scope))
            ) {
              throw new AppError(
                'insufficient_scope',
                route.scope === undefined
                  ? 'this route needs a full-access API key'
                  : `this route needs the ${route.scope} scope`,
                {
                  details: { required_scope: route.scope ?? null },
                },
              );
            }
          }
          if (route.params !== undefined) ctx.params = parsePart(route.params, req.params ?? {}, 'path');
          if (route.query !== undefined) ctx.query = parsePart(route.query, req.query ?? {}, 'query', queryAliases);
          if (hasBody)
            ctx.body = parsePart(route.body, await readBody(req, route.bodyFormats, route.bodyLimitBytes), 'body', bodyAliases);
          const result = route.handler(ctx);
          render(res, ctx.requestId, route, result instanceof Promise ? await result : result);
        } catch (err) {
          if (isAppError(err) && err.code === 'unauthenticated') metrics.authFailure(err.reason ?? 'invalid');
          if (res.headersSent) {
            ctx.log.error({ err }, 'error after response started');
            res.destroy();
          } else {
            if (!req.complete) await drainBody(req);
            sendError(res, ctx.requestId, err, ctx.log, route.errorBody);
          }
        } finally {
          inFlight--;
          metrics.httpInFlight(-1);
          const ms = performance.now() - started;
          metrics.httpRequest(route.path, route.method, res.statusCode, ms / 1000);
          // The access line: five fields, the URL already masked (access-log.ts writes it).
          if (accessLog.enabled(level))
            accessLog.write(level, {
              requestId: ctx.requestId,
              method: req.method ?? '',
              url: redactUrl(req.url ?? ''),
              status: res.statusCode,
              ms,
            });
        }
      },
    );
  }

  // Every answer carries X-Request-Id: sendJson and redirects put it in their header block, and a
  // handler that takes the raw response gets it set there (RequestContext.res).
  const handle = (req: IncomingMessage, res: ServerResponse): void => void app.handler(req as never, res, undefined as never);
  return { handle, routes, openapi, inFlight: () => inFlight };
}

export interface RunningHttpServer {
  server: http.Server;
  /** The app it serves (its routes and OpenAPI document). */
  app: HttpApp;
  url: string;
  address: AddressInfo;
  /** Stops intake, lets in-flight requests finish within `timeoutMs`, then cuts what is left. */
  close: (timeoutMs: number) => Promise<void>;
}

export interface ListenLimits {
  /** Open connections at most; past it a new connection is closed at once (server.maxConnections). */
  maxConnections?: number;
  /** Open connections from one client address at most; past it a new one from there is closed at once. */
  maxConnectionsPerAddress?: number;
  /**
   * How long a request's headers may take from the moment the connection opens (or the last request
   * ends): a connection that never sends a byte is answered 408 and closed after this.
   */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept (default 5 s; Node adds 1 s before it closes one). */
  keepAliveTimeoutMs?: number;
}

/** The whole request (headers and body) at most; a slow body is cut after this. */
const REQUEST_TIMEOUT_MS = 60_000;
/** An idle keep-alive connection is closed after this. */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

export async function listenHttp(app: HttpApp, addr: string, limits: ListenLimits = {}): Promise<RunningHttpServer> {
  const headersTimeout = limits.headersTimeoutMs ?? 20_000;
  const server = http.createServer(
    {
      // Node's own connection checker is off (both 0): ConnectionGuard keeps these deadlines, as
      // that checker could lose a connection under load (connection-guard.ts says how).
      headersTimeout: 0,
      requestTimeout: 0,
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
    },
    app.handle,
  );
  const guard = new ConnectionGuard(server, {
    headersTimeoutMs: headersTimeout,
    requestTimeoutMs: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
    maxConnectionsPerAddress: limits.maxConnectionsPerAddress,
  });
  if (limits.maxConnections !== undefined) server.maxConnections = limits.maxConnections;
  const sep = addr.lastIndexOf(':');
  const host = addr.slice(0, sep).replace(/^\[|\]$/g, '');
  const port = Number(addr.slice(sep + 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => {
      guard.stop();
      reject(err);
    });
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const close = async (timeoutMs: number): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = Date.now() + timeoutMs;
    while (app.inFlight() > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      server.closeIdleConnections();
    }
    server.closeAllConnections();
    await closed;
    guard.stop();
  };
  return { server, app, url: `http://${urlHost}:${address.port}`, address, close };
}
