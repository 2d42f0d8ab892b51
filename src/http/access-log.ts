import { pino, type Logger } from 'pino';

// One line per request is the daemon's most frequent log line. Through pino it cost about 5 µs of
// the 24 µs an API-key read takes (the object walk, the serialisation, and one write to the
// destination per line, whose buffer is re-measured on every write). Its fields are fixed, so it is
// built here as a string in pino's own format and lines are handed to the logger's destination in
// batches, once per turn of the event loop.

/** A string field: quoted as is when it needs no escaping (almost always), else through JSON.stringify. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** Lines waiting for the end of the turn, by access log: written synchronously at exit, however it comes. */
const unflushed = new Set<AccessLog>();
let exitHooked = false;

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
  private pending: string[] = [];
  private lastMs = 0;
  private lastTime = '';

  constructor(private readonly log: Logger) {
    this.stream = (log as unknown as Record<symbol, { write(chunk: string): unknown }>)[pino.symbols.streamSym];
    this.bindings = JSON.stringify(log.bindings()).slice(1, -1);
    if (!exitHooked) {
      exitHooked = true;
      // Before the destination's own exit flush (registered when it was made), so these lines join it.
      process.prependListener('exit', () => unflushed.forEach((access) => access.flush()));
    }
  }

  enabled(level: 'info' | 'debug'): boolean {
    return this.log.isLevelEnabled(level);
  }

  write(level: 'info' | 'debug', entry: AccessEntry): void {
    const value = this.log.levels.values[level];
    const ms = Math.round(entry.ms * 100) / 100;
    this.pending.push(
      `{"level":${value},"time":"${this.time()}",${this.bindings},"request_id":${quote(entry.requestId)},"method":${quote(entry.method)},"url":${quote(entry.url)},"status":${entry.status},"ms":${ms},"msg":"request"}\n`,
    );
    if (this.pending.length === 1) {
      unflushed.add(this);
      setImmediate(() => this.flush());
    }
  }

  /** Hands the waiting lines to the destination, in one write. */
  flush(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    unflushed.delete(this);
    this.stream.write(lines);
  }

  /** ISO time, as pino's isoTime writes it; made once per millisecond. */
  private time(): string {
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastTime = new Date(now).toISOString();
    }
    return this.lastTime;
  }
}
