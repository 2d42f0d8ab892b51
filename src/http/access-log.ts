import { pino, type Logger } from 'pino';
import { LogDestination } from '../log-destination.js';

// One line per request is the daemon's most frequent log line. Through pino it cost about 5 µs of
// the 24 µs an API-key read takes (the object walk and the serialisation). Its fields are fixed, so
// it is written here in pino's own format. For the daemon's destination (log-destination.ts) the line
// is encoded byte by byte straight into the destination's buffer: building it as a string and copying
// that in cost 5 µs a line in the daemon (bench row 9), this about 1 µs. Any other destination
// (tests, pretty output) is handed the same line as a string.

/** A string field: quoted as is when it needs no escaping (almost always), else through JSON.stringify. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

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
  private readonly stream: { write(chunk: string): unknown };
  /** `"service":"switchyard","module":"http"`: the logger's bindings, as pino writes them. */
  private readonly bindings: string;
  private lastMs = 0;
  private lastTime = '';
  /** The line's fixed parts as bytes, for the daemon's destination. */
  private readonly parts: Record<'info' | 'debug', Uint8Array>;
  private readonly afterTime: Uint8Array;
  private readonly afterRequestId = ascii('","method":"');
  private readonly afterMethod = ascii('","url":"');
  private readonly afterUrl = ascii('","status":');
  private readonly afterStatus = ascii(',"ms":');
  private readonly end = ascii(',"msg":"request"}\n');
  private timeBytes: Uint8Array = new Uint8Array(0);

  constructor(private readonly log: Logger) {
    this.stream = (log as unknown as Record<symbol, { write(chunk: string): unknown }>)[pino.symbols.streamSym];
    this.bindings = JSON.stringify(log.bindings()).slice(1, -1);
    this.parts = {
      info: ascii(`{"level":${log.levels.values.info},"time":"`),
      debug: ascii(`{"level":${log.levels.values.debug},"time":"`),
    };
    this.afterTime = new Uint8Array(Buffer.from(`",${this.bindings},"request_id":"`, 'utf8'));
  }

  enabled(level: 'info' | 'debug'): boolean {
    return this.log.isLevelEnabled(level);
  }

  write(level: 'info' | 'debug', entry: AccessEntry): void {
    const hundredths = Math.round(entry.ms * 100);
    const time = this.time();
    if (this.stream instanceof LogDestination) {
      const most = FIXED_BYTES + this.afterTime.length + entry.requestId.length + entry.method.length + entry.url.length;
      if (most <= LogDestination.maxClaim && this.encode(this.stream, most, level, entry, hundredths)) return;
    }
    this.stream.write(
      `{"level":${this.log.levels.values[level]},"time":"${time}",${this.bindings},"request_id":${quote(entry.requestId)},"method":${quote(entry.method)},"url":${quote(entry.url)},"status":${entry.status},"ms":${hundredths / 100},"msg":"request"}\n`,
    );
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

  /** ISO time, as pino's isoTime writes it; made once per millisecond. */
  private time(): string {
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastTime = new Date(now).toISOString();
      this.timeBytes = ascii(this.lastTime);
    }
    return this.lastTime;
  }
}
