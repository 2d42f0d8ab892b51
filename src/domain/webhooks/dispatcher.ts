// The undici side of the target guard, loaded on the first attempt (a daemon that sends no webhook
// never pays undici's memory): a dispatcher whose every new connection is checked by target-guard.ts.
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { setBounded } from '../../bounded-map.js';
import { isRefusedAddress, refusedLiteral, TargetRefusedError, type GuardOptions } from './target-guard.js';

/** Every address of a hostname; the default is `dns.lookup` with `all: true` (the system resolver, /etc/hosts). */
export type Resolver = (hostname: string, options: Pick<LookupOptions, 'family' | 'hints'>) => Promise<LookupAddress[]>;

const lookupAll: Resolver = (hostname, options) =>
  dns.lookup(hostname, { family: options.family, hints: options.hints, all: true });

/**
 * A `net.connect` lookup that resolves once and hands Node only addresses it has checked, so the socket connects
 * to exactly what was checked. One refused address refuses the whole name: a name that also points inside is
 * not a receiver to trust, and connecting to "the other" address would depend on answer order.
 */
function createGuardedLookup(options: GuardOptions, resolve: Resolver): LookupFunction {
  const resolveChecked = async (hostname: string, lookupOptions: LookupOptions): Promise<LookupAddress[]> => {
    const answers = await resolve(hostname, { family: lookupOptions.family, hints: lookupOptions.hints });
    if (answers.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND', hostname });
    const checked: LookupAddress[] = [];
    for (const { address } of answers) {
      const range = isRefusedAddress(address, options);
      if (range !== undefined) throw new TargetRefusedError(hostname, address, range);
      checked.push({ address, family: isIP(address) });
    }
    return checked;
  };
  return (hostname, lookupOptions, callback) => {
    resolveChecked(hostname, lookupOptions).then(
      (checked) => (lookupOptions.all === true ? callback(null, checked) : callback(null, checked[0].address, checked[0].family)),
      (err: Error) => callback(err, ''),
    );
  };
}

export interface GuardedDispatcherOptions extends GuardOptions {
  connectTimeoutMs: number;
  /** Keep-alive connections per origin (the Agent keeps one pool per origin). */
  connectionsPerOrigin: number;
  /** Where hostnames are resolved, once per connection; tests inject answers here. */
  resolve?: Resolver;
}

/**
 * The undici dispatcher for webhook deliveries. Every new connection is checked: a hostname by the lookup hook
 * on the addresses the socket then connects to, an IP literal (which Node never looks up) before connecting.
 * A refused connection fails its request with TargetRefusedError.
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions): Agent {
  const guard = { allowPrivate: options.allowPrivate };
  const connectChecked = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: createGuardedLookup(guard, options.resolve ?? lookupAll),
  });
  return new Agent({
    connections: options.connectionsPerOrigin,
    connect: (connectOptions, callback) => {
      // `isIP` is the test Node uses to skip the lookup, so every host meets exactly one of the two checks.
      const refused = refusedLiteral(connectOptions.hostname, guard);
      if (refused !== undefined) return callback(new TargetRefusedError(refused.address, refused.address, refused.range), null);
      connectChecked(connectOptions, callback);
    },
  });
}

/** An answer as an attempt keeps it: its status, and the first bytes of its body as text. */
export interface Answer {
  statusCode: number;
  body: string;
}

/** What stops a POST early (the attempt's deadline, shutdown): undici's EventEmitter-style signal. */
export interface PostSignal {
  readonly aborted: boolean;
  readonly reason: Error | undefined;
  once(event: 'abort', listener: (reason: Error) => void): unknown;
  off(event: 'abort', listener: (reason: Error) => void): unknown;
}

/** Up to `max` bytes of `bytes` as UTF-8 text, never ending in part of a character. */
function firstBytes(bytes: Buffer, max: number): string {
  return bytes.length <= max ? bytes.toString('utf8') : new StringDecoder('utf8').write(bytes.subarray(0, max));
}

/** Receiver URLs as dispatch takes them (origin and path), parsed once each. */
const targets = new Map<string, { origin: string; path: string }>();
const TARGETS_KEPT = 1024;

function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    target = setBounded(targets, url, { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` }, TARGETS_KEPT);
  }
  return target;
}

/**
 * POSTs `body` to `url` through `dispatcher`, with undici's dispatch API rather than its request API:
 * no response stream per answer, half the CPU per POST (docs/benchmarks.md). Resolves once the answer
 * ended, broke off after its status (a reset, the signal), or sent `max` bytes (the rest is not read
 * and its connection is closed); rejects when no status came, with the error or the signal's reason.
 * A redirect is an answer like any other, never followed.
 */
export function post(
  dispatcher: Dispatcher,
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: PostSignal,
  max: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let statusCode: number | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    const settle = (err?: Error): void => {
      if (settled) return;
      settled = true;
      signal.off('abort', onAbort);
      if (statusCode === undefined) reject(err ?? new Error('the answer ended without a status'));
      else resolve({ statusCode, body: firstBytes(Buffer.concat(chunks, size), max) });
    };
    // Fired while the request waits for a connection, the POST ends at once and the request when it starts.
    const onAbort = (reason: Error): void => {
      if (controller === undefined) settle(reason);
      else controller.abort(reason);
    };
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    signal.once('abort', onAbort);
    const { origin, path } = targetOf(url);
    dispatcher.dispatch(
      { origin, path, method: 'POST', body, headers },
      {
        onRequestStart(c) {
          controller = c;
          if (settled) c.abort(signal.reason ?? new Error('aborted'));
        },
        onResponseStart(_c, code) {
          // 1xx answers are informational: the real one follows.
          if (code >= 200) statusCode = code;
        },
        onResponseData(c, chunk) {
          chunks.push(chunk);
          size += chunk.length;
          if (size < max) return;
          settle();
          c.abort(new Error('answer read no further'));
        },
        onResponseEnd() {
          settle();
        },
        onResponseError(_c, err) {
          settle(err);
        },
      },
    );
  });
}
