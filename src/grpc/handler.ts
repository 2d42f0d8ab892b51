import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Metadata, type handleServerStreamingCall, type handleUnaryCall } from '@grpc/grpc-js';
import { z } from 'zod';
import { operator, operatorAt, type Operator } from '../domain/identity/caller.js';
import type { IdentityServices } from '../domain/identity/index.js';
import type { Organization } from '../domain/identity/types.js';
import { AppError, fieldReasons, isAppError, validationFailed } from '../errors.js';
import type { Logger } from '../log.js';
import type { PageOptions } from '../storage/collection.js';
import { toStatus } from './status.js';

// What every RPC handler shares: the call adapter (errors -> status, one log line), request
// validation with the domain's zod schemas, paging, and records -> messages.

/** What a unary handler is given beside its request. */
export interface CallContext {
  /** The operator acting through this call, with its request id: what changes are audited as. */
  actor: Operator;
}

/** A client's `x-request-id` metadata when it is a sensible one (as over HTTP), else a new id. */
function requestIdOf(metadata: Metadata): string {
  const [given] = metadata.get('x-request-id');
  return typeof given === 'string' && /^[\x21-\x7e]{1,128}$/.test(given) ? given : randomUUID();
}

/** Adapts an async handler to grpc-js: its value answers the call, its error becomes the status. */
export function unary<Req, Res>(
  log: Logger,
  handler: (request: Req, context: CallContext) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const started = performance.now();
    const rpc = call.getPath();
    const actor = operatorAt({ source: 'grpc', requestId: requestIdOf(call.metadata) });
    handler(call.request, { actor }).then(
      (response) => {
        log.info({ rpc, duration_ms: Math.round(performance.now() - started) }, 'rpc');
        callback(null, response);
      },
      (err: unknown) => {
        const status = toStatus(err);
        if (isAppError(err))
          log.info({ rpc, code: err.code, duration_ms: Math.round(performance.now() - started) }, 'rpc failed');
        else log.error({ err, rpc }, 'rpc failed unexpectedly');
        callback(status);
      },
    );
  };
}

/** What a server-streaming handler is given beside its request. */
export interface ServerStream<Res> {
  /** Writes a message; waits while the client is behind. */
  send: (message: Res) => Promise<void>;
  /** Sends the response headers now: the client learns the stream is open before a first message. */
  ready: () => void;
  /** Aborts when the client cancels, the daemon starts shutting down, or the handler returns. */
  signal: AbortSignal;
}

/**
 * Adapts an async server-streaming handler: it writes until done and its error becomes the status.
 * A daemon that starts shutting down (`closing`) ends the stream UNAVAILABLE, so a client can tell
 * a stopped daemon from a finished stream.
 */
export function serverStream<Req, Res>(
  log: Logger,
  closing: AbortSignal,
  handler: (request: Req, stream: ServerStream<Res>) => Promise<void>,
): handleServerStreamingCall<Req, Res> {
  return (call) => {
    const started = performance.now();
    const rpc = call.getPath();
    const ended = new AbortController();
    const end = (): void => ended.abort();
    call.once('cancelled', end);
    closing.addEventListener('abort', end, { once: true });
    if (closing.aborted) end();
    const send = (message: Res): Promise<void> =>
      new Promise((resolve) => {
        if (ended.signal.aborted || call.write(message)) return resolve();
        // Backpressure: wait for room, or for the end of the call.
        const done = (): void => {
          call.off('drain', done);
          ended.signal.removeEventListener('abort', done);
          resolve();
        };
        call.once('drain', done);
        ended.signal.addEventListener('abort', done, { once: true });
      });
    let headersSent = false;
    const ready = (): void => {
      if (headersSent || ended.signal.aborted) return;
      headersSent = true;
      call.sendMetadata(new Metadata());
    };
    const finish = (err: unknown): void => {
      closing.removeEventListener('abort', end);
      const shuttingDown = closing.aborted;
      end(); // whatever the handler left listening stops with it
      const duration_ms = Math.round(performance.now() - started);
      if (call.cancelled) {
        log.info({ rpc, duration_ms }, 'rpc stream cancelled by the client');
        return;
      }
      if (err === undefined && !shuttingDown) {
        log.info({ rpc, duration_ms }, 'rpc');
        call.end();
        return;
      }
      // A read cut short by the shutdown is the shutdown too, not an internal error.
      const failure =
        err === undefined || (shuttingDown && !isAppError(err))
          ? new AppError('unavailable', 'the daemon is shutting down')
          : err;
      if (isAppError(failure)) log.info({ rpc, code: failure.code, duration_ms }, 'rpc failed');
      else log.error({ err: failure, rpc }, 'rpc failed unexpectedly');
      call.emit('error', toStatus(failure));
    };
    handler(call.request, { send, ready, signal: ended.signal }).then(
      () => finish(undefined),
      (err: unknown) => finish(err),
    );
  };
}

/** Validates a request (or part of one); failures are validation_failed naming every field. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = fieldReasons(result.error.issues, '(request)');
  const [field, reason] = Object.entries(fields)[0];
  throw validationFailed(fields, `invalid ${field}: ${reason}`);
}

const pageRequest = z.object({
  limit: z.number().int().min(0, 'must be 0 (default) to 200').max(200, 'must be 0 (default) to 200'),
  cursor: z.string().max(1024),
});

/** limit 0 and an empty cursor mean "not given", as proto3 cannot tell them from unset. */
export function pageOptions(request: { limit: number; cursor: string }): PageOptions {
  const { limit, cursor } = parseRequest(pageRequest, { limit: request.limit, cursor: request.cursor });
  return { ...(limit === 0 ? {} : { limit }), ...(cursor === '' ? {} : { cursor }) };
}

const organizationRef = z.object({ organization: z.string().trim().min(1, 'required: an organization id or slug') });

/** The organization a request names by id or slug (not_found when there is none). */
export async function resolveOrganization(services: Pick<IdentityServices, 'organizations'>, ref: string): Promise<Organization> {
  const { organization } = parseRequest(organizationRef, { organization: ref });
  return services.organizations.getOrganization(operator, organization);
}

/**
 * A principal a request names by id or by email: an email becomes the id of the principal registered
 * for it (not_found when none is); anything else is passed on for the request's own validation.
 */
export async function resolvePrincipal(services: Pick<IdentityServices, 'principals'>, ref: string): Promise<string> {
  return ref.includes('@') ? (await services.principals.findPrincipal(operator, ref)).id : ref;
}

type Message<T> = { [K in keyof T]: null extends T[K] ? Exclude<T[K], null> | undefined : T[K] };

/** A record as a message: null fields are left unset (proto3 `optional`), the rest kept as is. */
export function toMessage<T extends object>(record: T): Message<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)) as Message<T>;
}
