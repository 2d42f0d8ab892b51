import { lstatSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { ERROR_CODE_KEY, ERROR_DETAILS_KEY } from '../grpc/error-keys.js';
import { fromStruct, fromValue } from '../grpc/json-value.js';
import { ADMIN_PACKAGE, adminProtoFileOf, protoLoadOptions } from '../grpc/proto-files.js';
import { socketAddress, type SocketAddress } from '../grpc/socket-path.js';
import { CliError } from './cli-error.js';
import {
  Client,
  credentials,
  loadSync,
  Metadata,
  status,
  type ChannelCredentials,
  type MessageTypeDefinition as ProtoMessageType,
  type MethodDefinition,
  type PackageDefinition,
  type ServiceError,
} from './grpc-lib.js';
import { permissionDenied } from './socket-access.js';

export { CliError };

// The CLI's only way into the daemon: calls on the admin API (unary, and server streams such as the
// event tail), answers turned into the same JSON shapes as the HTTP API (unset optional fields are
// null, google.protobuf.Value and Struct plain JSON), failures into CliError.

export type Target =
  /** `tried`: every socket path looked for (socket-lookup.ts), listed when none answers. */
  | { kind: 'unix'; socketPath: string; tried?: string[] }
  /** `tlsCa`: a PEM file; the daemon's TLS listener must present a certificate it verifies. */
  | { kind: 'tcp'; address: string; token: string | undefined; tlsCa?: string };

/**
 * A message as JSON: virtual oneof fields dropped, unset `optional` fields null, maps as they are,
 * and free-form JSON (google.protobuf.Value: any JSON; Struct, whose one field is `fields`: an object).
 */
export type Plain<T> = T extends readonly (infer U)[]
  ? Plain<U>[]
  : T extends object
    ? string extends keyof T
      ? T // a map
      : 'listValue' extends keyof T
        ? unknown
        : [keyof T] extends ['fields']
          ? Record<string, unknown>
          : {
              [K in keyof T as K extends `_${string}` ? never : K]-?: undefined extends T[K]
                ? Plain<Exclude<T[K], undefined>> | null
                : Plain<T[K]>;
            }
    : T;

type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** A service's methods as promise-returning functions, typed from its generated definition. */
type ServiceCalls<D> = {
  [M in KnownKeys<D>]: D[M] extends MethodDefinition<infer Req, object, object, infer Res>
    ? (request: Req) => Promise<Plain<Res>>
    : never;
};

export interface StreamOptions {
  /** Ends the stream (the command was interrupted): the iteration then just stops. */
  signal?: AbortSignal;
  /** Called once the daemon has opened the stream, before its first message. */
  onOpen?: () => void;
}

/** A service's server-streaming methods as async iterables of their messages. */
type StreamCalls<D> = {
  [M in KnownKeys<D>]: D[M] extends MethodDefinition<infer Req, object, object, infer Res>
    ? (request: Req, options?: StreamOptions) => AsyncIterable<Plain<Res>>
    : never;
};

/** Free-form JSON on the wire (json-value.ts): shown as the JSON itself. */
const jsonTypes: Record<string, (value: never) => unknown> = {
  'google.protobuf.Value': fromValue,
  'google.protobuf.Struct': fromStruct,
};

interface FieldDescriptor {
  name: string;
  type: string;
  typeName: string;
}
interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  oneofDecl: { name: string }[];
  /** A map field's entry type is one of these, with `options.mapEntry`. */
  nestedType?: MessageDescriptor[];
  options?: { mapEntry?: boolean } | null;
}

type MessageTypeDefinition = ProtoMessageType<object, object>;
type AnyMethod = MethodDefinition<object, object, object, object>;

const CALL_TIMEOUT_MS = 30_000;

function describeTarget(target: Target): string {
  return target.kind === 'unix' ? target.socketPath : target.address;
}

function noDaemon(target: Target): CliError {
  if (target.kind === 'unix' && target.tried !== undefined && target.tried.length > 1)
    return new CliError(
      'unavailable',
      `no daemon at any of ${target.tried.join(', ')}: start it with \`switchyard serve\`, or name its socket with --socket`,
      { tried: target.tried },
    );
  return new CliError('unavailable', `no daemon at ${describeTarget(target)}: start it with \`switchyard serve\``);
}

/** Why a Unix socket cannot be used before trying it: none there, or one the caller may not reach. */
function socketProblem(target: Target): CliError | undefined {
  if (target.kind !== 'unix') return undefined;
  try {
    lstatSync(target.socketPath);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' ? permissionDenied(target.socketPath) : noDaemon(target);
  }
}

let ipServernameWarningDropped = false;

/**
 * grpc-js names the TLS server after the target host even when that is an IP address, and Node
 * prints a deprecation warning for it (DEP0123) on stderr, where --json owes one JSON value. Only
 * that warning is dropped; the certificate is still checked against the IP address.
 */
function dropIpServernameWarning(): void {
  if (ipServernameWarningDropped) return;
  ipServernameWarningDropped = true;
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    if (warning.code !== 'DEP0123') for (const print of printers) print.call(process, warning);
  });
}

function tlsCredentials(caFile: string, address: string): ChannelCredentials {
  if (isIP(address.slice(0, address.lastIndexOf(':')).replace(/^\[|\]$/g, '')) !== 0) dropIpServernameWarning();
  let ca: Buffer;
  try {
    ca = readFileSync(caFile);
  } catch (err) {
    throw new CliError(
      'invalid_request',
      `cannot read --tls-ca ${caFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return credentials.createSsl(ca);
}

/** The socket's address; a directory that cannot be opened is reported on the first call instead. */
function reachableAddress(socketPath: string): SocketAddress {
  try {
    return socketAddress(socketPath);
  } catch {
    return { path: socketPath, release: () => {} };
  }
}

export class AdminClient {
  private readonly client: Client;
  /** The services called so far, with their messages: each proto file is parsed on its first call. */
  private readonly definitions: PackageDefinition = {};
  private readonly address: SocketAddress | undefined;

  constructor(readonly target: Target) {
    if (target.kind === 'unix') {
      this.address = reachableAddress(target.socketPath);
      this.client = new Client(`unix:${this.address.path}`, credentials.createInsecure());
    } else {
      this.client = new Client(
        target.address,
        target.tlsCa === undefined ? credentials.createInsecure() : tlsCredentials(target.tlsCa, target.address),
      );
    }
  }

  /** Typed calls of one service, e.g. `client.service<OrganizationServiceDefinition>('OrganizationService')`. */
  service<D>(name: string): ServiceCalls<D> {
    const calls: Record<string, (request: object) => Promise<unknown>> = {};
    for (const [method, md] of this.methods(name)) if (!md.responseStream) calls[method] = (request) => this.unary(md, request);
    return calls as ServiceCalls<D>;
  }

  /** Typed server-streaming calls of one service, e.g. `client.streams<EventServiceDefinition>('EventService')`. */
  streams<D>(name: string): StreamCalls<D> {
    const calls: Record<string, (request: object, options?: StreamOptions) => AsyncIterable<unknown>> = {};
    for (const [method, md] of this.methods(name))
      if (md.responseStream) calls[method] = (request, options) => this.serverStream(md, request, options);
    return calls as StreamCalls<D>;
  }

  close(): void {
    this.client.close();
    this.address?.release();
  }

  private methods(name: string): Array<[string, AnyMethod]> {
    const qualified = `${ADMIN_PACKAGE}.${name}`;
    if (this.definitions[qualified] === undefined) {
      const file = adminProtoFileOf(name);
      if (file !== undefined) Object.assign(this.definitions, loadSync([file], protoLoadOptions()));
    }
    const definition = this.definitions[qualified];
    if (definition === undefined || 'format' in definition) throw new TypeError(`no service ${name} in ${ADMIN_PACKAGE}`);
    return Object.entries(definition as Record<string, AnyMethod>);
  }

  private metadata(): Metadata {
    const metadata = new Metadata();
    if (this.target.kind === 'tcp' && this.target.token !== undefined)
      metadata.set('authorization', `Bearer ${this.target.token}`);
    return metadata;
  }

  private unary(md: AnyMethod, request: object): Promise<unknown> {
    const problem = socketProblem(this.target);
    if (problem !== undefined) return Promise.reject(problem);
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        md.path,
        md.requestSerialize,
        md.responseDeserialize,
        request,
        this.metadata(),
        { deadline: Date.now() + CALL_TIMEOUT_MS },
        (err, response) => {
          if (err) reject(this.toCliError(err));
          else resolve(this.plain(md.responseType, response as Record<string, unknown>));
        },
      );
    });
  }

  /** A server stream's messages until it ends; no deadline (a tail runs until interrupted). */
  private async *serverStream(md: AnyMethod, request: object, { signal, onOpen }: StreamOptions = {}): AsyncGenerator<unknown> {
    const problem = socketProblem(this.target);
    if (problem !== undefined) throw problem;
    const call = this.client.makeServerStreamRequest(
      md.path,
      md.requestSerialize,
      md.responseDeserialize,
      request,
      this.metadata(),
    );
    if (onOpen !== undefined) call.once('metadata', onOpen);
    const cancel = (): void => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      for await (const message of call as AsyncIterable<Record<string, unknown>>) yield this.plain(md.responseType, message);
    } catch (err) {
      if (signal?.aborted === true && (err as ServiceError).code === status.CANCELLED) return;
      throw this.toCliError(err as ServiceError);
    } finally {
      signal?.removeEventListener('abort', cancel);
      call.cancel();
    }
  }

  private toCliError(err: ServiceError): CliError {
    const code = err.metadata?.get(ERROR_CODE_KEY)[0];
    if (typeof code === 'string') {
      const detailsText = err.metadata.get(ERROR_DETAILS_KEY)[0];
      const details = typeof detailsText === 'string' ? (JSON.parse(detailsText) as Record<string, unknown>) : undefined;
      const message = err.details.startsWith(`${code}: `) ? err.details.slice(code.length + 2) : err.details;
      return new CliError(code, message, details);
    }
    if (err.code === status.UNAVAILABLE) {
      if (/EACCES|EPERM/.test(err.details))
        return this.target.kind === 'unix'
          ? permissionDenied(this.target.socketPath)
          : new CliError('forbidden', `permission denied on ${describeTarget(this.target)}`);
      if (this.target.kind === 'tcp' && this.target.tlsCa !== undefined && /certificate|SSL|TLS|handshake/i.test(err.details))
        return new CliError('unavailable', `TLS with ${this.target.address} failed: ${err.details}`);
      // Something listens but does not speak gRPC in clear text: most likely a TLS listener.
      if (
        this.target.kind === 'tcp' &&
        this.target.tlsCa === undefined &&
        !/ECONNREFUSED|EHOSTUNREACH|ETIMEDOUT/.test(err.details)
      )
        return new CliError(
          'unavailable',
          `no daemon answers at ${this.target.address} in clear text (if it serves TLS, pass --tls-ca FILE)`,
        );
      return noDaemon(this.target);
    }
    if (err.code === status.DEADLINE_EXCEEDED)
      return new CliError(
        'upstream_timeout',
        `the daemon at ${describeTarget(this.target)} did not answer within ${CALL_TIMEOUT_MS / 1000} s`,
      );
    return new CliError('internal', err.details || status[err.code] || 'call failed');
  }

  /** Walks the message's descriptor, so every command prints the same shapes as the HTTP API. */
  private plain(type: MessageTypeDefinition, value: Record<string, unknown>): Record<string, unknown> {
    const descriptor = type.type as MessageDescriptor;
    const optional = new Set(descriptor.oneofDecl.map((o) => o.name).filter((name) => name.startsWith('_')));
    const out: Record<string, unknown> = {};
    for (const field of descriptor.field) {
      const v = value[field.name];
      if (v === undefined || v === null) {
        if (v === null || optional.has(`_${field.name}`)) out[field.name] = null;
        continue;
      }
      const json = jsonTypes[field.typeName.replace(/^\./, '')];
      if (json !== undefined) {
        out[field.name] = json(v as never);
        continue;
      }
      const entry = mapEntryOf(descriptor, field);
      if (entry !== undefined) {
        out[field.name] = this.plainMap(entry, v as Record<string, unknown>);
        continue;
      }
      const nested = field.type === 'TYPE_MESSAGE' ? this.messageType(field.typeName) : undefined;
      if (nested === undefined)
        out[field.name] = v; // scalars
      else if (Array.isArray(v)) out[field.name] = v.map((item: Record<string, unknown>) => this.plain(nested, item));
      else out[field.name] = this.plain(nested, v as Record<string, unknown>);
    }
    return out;
  }

  /** A map's values as JSON too when they are messages (`map<string, WorkflowNodeState>`). */
  private plainMap(entry: MessageDescriptor, map: Record<string, unknown>): Record<string, unknown> {
    const value = entry.field.find((f) => f.name === 'value');
    const json = value === undefined ? undefined : jsonTypes[value.typeName.replace(/^\./, '')];
    const nested = value?.type === 'TYPE_MESSAGE' ? this.messageType(value.typeName) : undefined;
    if (json === undefined && nested === undefined) return map; // scalar values
    return Object.fromEntries(
      Object.entries(map).map(([k, item]) => [
        k,
        json !== undefined ? json(item as never) : this.plain(nested!, item as Record<string, unknown>),
      ]),
    );
  }

  private messageType(typeName: string): MessageTypeDefinition | undefined {
    const name = typeName.startsWith('.') ? typeName.slice(1) : typeName;
    const found = this.definitions[name] ?? this.definitions[`${ADMIN_PACKAGE}.${name}`];
    return found !== undefined && 'format' in found ? (found as MessageTypeDefinition) : undefined;
  }
}

/** The entry type of a map field (its descriptor names it relatively, e.g. `Node_states`), if it is one. */
function mapEntryOf(message: MessageDescriptor, field: FieldDescriptor): MessageDescriptor | undefined {
  if (field.type !== 'TYPE_MESSAGE') return undefined;
  const name = field.typeName.split('.').at(-1);
  return message.nestedType?.find((nested) => nested.name === name && nested.options?.mapEntry === true);
}

/** Every page of a list, following next_cursor until it is empty. */
export async function allPages<T>(
  fetchPage: (cursor: string, limit: number) => Promise<[items: T[], nextCursor: string]>,
  max = Infinity,
): Promise<T[]> {
  const items: T[] = [];
  let cursor = '';
  do {
    const [page, next] = await fetchPage(cursor, Math.min(200, max - items.length));
    items.push(...page);
    cursor = next;
  } while (cursor !== '' && items.length < max);
  return items.slice(0, max);
}
