import type { Logger } from 'pino';
import { destinationOf } from '../log.js';
import { LogDestination } from '../log-destination.js';

// One line per request is the daemon's most frequent log line. Its fields are fixed, so for the
// daemon's own destination (log-destination.ts) it is encoded here byte by byte, in pino's format,
// straight into the destination's buffer: bench row (9) measures that at about 0.8 µs of CPU a line,
// and the same line through pino's own destination and log.info at about 9 µs (a quarter of an
// API-key read). Any other logger (tests, pretty output) gets the same fields through log.info.

/** An ASCII string's bytes (a loop: Uint8Array.from's iterator cost 0.3 % of a read, once a millisecond). */
function ascii(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Copies `bytes` into `target` at `at`; returns where they end. */
function put(target: Buffer, at: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) target[at++] = bytes[i];
  return at;
}

/**
 * Copies `text` into `target` at `at` as a JSON string's content, when no character of it needs
 * escaping (printable ASCII but `"` and `\`): returns where it ends, or -1 when one does.
 */
function putPlain(target: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -1;
    target[at++] = c;
  }
  return at;
}

/** Writes a non-negative integer's decimal digits; returns where they end. */
function putInteger(target: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = digits - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 10)) target[at + i] = 0x30 + (rest % 10);
  return at + digits;
}

/** Writes hundredths as JSON writes `hundredths / 100` (`12`, `0.4`, `0.43`); returns where it ends. */
function putHundredths(target: Buffer, at: number, hundredths: number): number {
  at = putInteger(target, at, Math.floor(hundredths / 100));
  const fraction = hundredths % 100;
  if (fraction === 0) return at;
  target[at++] = 0x2e;
  target[at++] = 0x30 + Math.floor(fraction / 10);
  if (fraction % 10 !== 0) target[at++] = 0x30 + (fraction % 10);
  return at;
}

/** The line's fixed parts and numbers' bytes at most: the strings' lengths are added per line. */
const FIXED_BYTES = 512;

export interface AccessEntry {
  requestId: string;
  method: string;
  /** Already masked of credentials (redactUrl). */
  url: string;
  status: number;
  ms: number;
}

export class AccessLog {
  private lastMs = 0;
  /** The line's fixed parts as bytes, for the daemon's destination. */
  private readonly parts: Record<'info' | 'debug', Uint8Array>;
  private readonly afterTime: Uint8Array;
  private readonly afterRequestId = ascii('","method":"');
  private readonly afterMethod = ascii('","url":"');
  private readonly afterUrl = ascii('","status":');
  private readonly afterStatus = ascii(',"ms":');
  private readonly end = ascii(',"msg":"request"}\n');
  private timeBytes: Uint8Array = new Uint8Array(0);

  /** `log`'s lines go to `destination` (the daemon's: found through the logger by default). */
  constructor(
    private readonly log: Logger,
    private readonly destination: LogDestination | undefined = destinationOf(log),
  ) {
    this.parts = {
      info: ascii(`{"level":${log.levels.values.info},"time":"`),
      debug: ascii(`{"level":${log.levels.values.debug},"time":"`),
    };
    // `"service":"switchyard","module":"http"`: the logger's bindings, as pino writes them.
    const bindings = JSON.stringify(log.bindings()).slice(1, -1);
    this.afterTime = new Uint8Array(Buffer.from(`",${bindings},"request_id":"`, 'utf8'));
  }

  enabled(level: 'info' | 'debug'): boolean {
    return this.log.isLevelEnabled(level);
  }

  write(level: 'info' | 'debug', entry: AccessEntry): void {
    const hundredths = Math.round(entry.ms * 100);
    if (this.destination !== undefined) {
      const most = FIXED_BYTES + this.afterTime.length + entry.requestId.length + entry.method.length + entry.url.length;
      if (most <= LogDestination.maxClaim && this.encode(this.destination, most, level, entry, hundredths)) return;
    }
    const { requestId, method, url, status } = entry;
    this.log[level]({ request_id: requestId, method, url, status, ms: hundredths / 100 }, 'request');
  }

  /**
   * The line, byte by byte, into the destination's buffer: true when it is written or dropped there,
   * false when a field needs escaping (then nothing was written).
   */
  private encode(
    destination: LogDestination,
    most: number,
    level: 'info' | 'debug',
    entry: AccessEntry,
    hundredths: number,
  ): boolean {
    const target = destination.claim(most);
    if (target === undefined) return true;
    this.time();
    let at = put(target, destination.end, this.parts[level]);
    at = put(target, at, this.timeBytes);
    at = put(target, at, this.afterTime);
    if ((at = putPlain(target, at, entry.requestId)) < 0) return false;
    at = put(target, at, this.afterRequestId);
    if ((at = putPlain(target, at, entry.method)) < 0) return false;
    at = put(target, at, this.afterMethod);
    if ((at = putPlain(target, at, entry.url)) < 0) return false;
    at = put(target, at, this.afterUrl);
    at = putInteger(target, at, entry.status);
    at = put(target, at, this.afterStatus);
    at = putHundredths(target, at, hundredths);
    at = put(target, at, this.end);
    destination.commit(at);
    return true;
  }

  /** The ISO time's bytes, as pino's isoTime writes it; made once per millisecond. */
  private time(): void {
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.timeBytes = ascii(new Date(now).toISOString());
    }
  }
}
