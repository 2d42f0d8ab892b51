// The undici side of the target guard, loaded on the first attempt (a daemon that sends no webhook
// never pays undici's memory): a dispatcher whose every new connection is checked by target-guard.ts.
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { IncomingHttpHeaders } from 'node:http';
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

/** An answer as an attempt keeps it: its status, the first bytes of its body as text, and a 429's or 503's Retry-After. */
export interface Answer {
  statusCode: number;
  body: string;
  retryAfter: string | undefined;
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
 * One POST on the wire, and undici's handler of its answer: `answer` resolves once the answer ended,
 * broke off after its status (a reset, abort), or sent its first `max` bytes (the rest is not read and
 * its connection is closed); it rejects when no status came, with the error or abort's reason. A
 * redirect is an answer like any other, never followed. One object per attempt, its methods shared:
 * hundreds are on the wire at once, and what each holds lives as long as its attempt.
 */
export class Post implements Dispatcher.DispatchHandler {
  readonly answer: Promise<Answer>;
  private resolve!: (answer: Answer) => void;
  private reject!: (err: Error) => void;
  private statusCode: number | undefined;
  private retryAfter: string | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private controller: Dispatcher.DispatchController | undefined;
  private settled: Error | true | undefined;

  constructor(private readonly max: number) {
    this.answer = new Promise<Answer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Ends the POST now (its deadline, shutdown): at once, also while it waits for a connection. */
  abort(reason: Error): void {
    this.settle(reason);
    this.controller?.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled instanceof Error) controller.abort(this.settled);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx answers are informational: the real one follows.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    // Only where it asks the sender to wait (docs/webhooks.md, "Retries"): nothing read from other answers.
    if (statusCode === 429 || statusCode === 503) {
      const value: unknown = headers['retry-after'];
      this.retryAfter = typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < this.max) return;
    this.settle();
    controller.abort(new Error('answer read no further'));
  }

  onResponseEnd(): void {
    this.settle();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.settle(err);
  }

  private settle(err?: Error): void {
    if (this.settled !== undefined) return;
    this.settled = err ?? true;
    if (this.statusCode === undefined) this.reject(err ?? new Error('the answer ended without a status'));
    else
      this.resolve({
        statusCode: this.statusCode,
        body: firstBytes(Buffer.concat(this.chunks, this.size), this.max),
        retryAfter: this.retryAfter,
      });
  }
}

/**
 * POSTs `body` to `url` through `dispatcher`, with undici's dispatch API rather than its request API:
 * no response stream per answer, half the CPU per POST (docs/benchmarks.md).
 */
export function post(dispatcher: Dispatcher, url: string, body: string, headers: Record<string, string>, max: number): Post {
  const sent = new Post(max);
  const { origin, path } = targetOf(url);
  dispatcher.dispatch({ origin, path, method: 'POST', body, headers }, sent);
  return sent;
}
