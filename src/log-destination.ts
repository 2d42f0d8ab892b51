import fs from 'node:fs';

// The daemon's log destination: JSON lines copied into 64 KB chunks as they are written, and the
// chunks written in order: to a regular file at once (the page cache takes them; nothing is ever in
// flight, so the exit's flush cannot overtake a write), to a pipe, socket or terminal asynchronously,
// one write in flight at a time (a reader that stops reading must not block the daemon).
//
// Why not pino's own destination (sonic-boom): it keeps what is buffered as a string, appends each
// line to it and measures the whole string's UTF-8 length on every write, and each write it hands
// to the kernel comes back to the event loop as a completion. At the default level every request
// writes a line, and that cost 2 to 5 µs a line in the daemon (more the fewer requests share a turn
// of the event loop); copying the line into a buffer and writing 64 KB at a time costs about 1 µs.
// docs/operations.md (Logs) says what an operator sees: lines within 50 ms, nothing blocks on a
// slow reader, a bound on what waits, and what happens at exit.

/** Lines are copied into chunks of this size; a full chunk is written at once. */
const CHUNK_BYTES = 64 * 1024;
/** A chunk that is not full is written at most this long after its first line. */
const FLUSH_AFTER_MS = 50;
/** Written chunks kept for reuse, so a steady log allocates nothing. */
const SPARE_CHUNKS = 4;
/** How long a non-blocking descriptor that is full (EAGAIN) is left before the write is tried again. */
const RETRY_AFTER_MS = 10;
/** How long the exit flush keeps trying a full descriptor before it gives up. */
const EXIT_PATIENCE_MS = 1000;

export interface LogDestinationOptions {
  /** Bytes waiting to be written at most; past it lines are dropped and counted (default 16 MB). */
  maxPendingBytes?: number;
  /** Said once, when a write fails for good (default: one line on stderr). */
  onFailure?: (err: NodeJS.ErrnoException) => void;
  /** The line that reports dropped lines once there is room again; `count` lines were dropped. */
  droppedLine?: (count: number) => string;
}

/** Bytes waiting for the descriptor: a sealed chunk's filled part (reused once written) or a long line. */
interface Pending {
  bytes: Buffer;
  /** How much of `bytes` is written already (a pipe or socket may take part of a write). */
  written: number;
  /** The chunk `bytes` was cut from, to reuse. */
  chunk?: Buffer;
}

export class LogDestination {
  /** The most bytes one claim() may ask for. */
  static readonly maxClaim = CHUNK_BYTES;

  private chunk: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  /** Bytes of `chunk` filled. */
  private filled = 0;
  /** What waits for the descriptor, oldest first. */
  private readonly queue: Pending[] = [];
  private queuedBytes = 0;
  private readonly spare: Buffer[] = [];
  /** queue[0] is being written. */
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private failed = false;
  private readonly maxPendingBytes: number;
  /** flush() callbacks waiting for the queue to empty. */
  private flushed: ((err?: Error) => void)[] = [];

  /** The descriptor is a regular file: chunks are written synchronously (next()). */
  private readonly toFile: boolean;

  constructor(
    private readonly fd: number,
    private readonly options: LogDestinationOptions = {},
  ) {
    this.maxPendingBytes = options.maxPendingBytes ?? 16 * 1024 * 1024;
    this.toFile = isRegularFile(fd);
  }

  /** Takes one or more whole lines (pino's stream interface). Never blocks; drops when the bound is reached. */
  write(text: string): boolean {
    // A UTF-8 byte count without measuring: at most three bytes per UTF-16 unit.
    if (this.admit(text.length * 3)) this.append(text);
    return true;
  }

  /**
   * Starts writing what is buffered now (pino's `logger.flush(cb)`); `done` is called once all of it
   * is written, or with the error that stopped it.
   */
  flush(done?: (err?: Error) => void): void {
    this.seal();
    if (done !== undefined) {
      if (this.failed) done(new Error('writing the log failed'));
      else if (this.queue.length === 0) done();
      else this.flushed.push(done);
    }
    this.next();
  }

  /**
   * Writes everything buffered before returning: for the process's exit, when no callback will run
   * again. A descriptor that stays full or fails is given up on. Only a pipe, socket or terminal can
   * have a write in flight here: it is left to the thread pool, and if the pool had not started it
   * yet, those bytes land after what is written here or, at exit, not at all.
   */
  flushSync(): void {
    if (this.failed) return;
    if (this.dropped > 0) this.sayDropped();
    this.seal();
    const waiting = this.queue.splice(this.writing ? 1 : 0);
    const giveUpAt = Date.now() + EXIT_PATIENCE_MS;
    for (const pending of waiting) {
      while (pending.written < pending.bytes.length) {
        try {
          pending.written += fs.writeSync(this.fd, pending.bytes, pending.written);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > giveUpAt) return this.fail(err as Error);
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        }
      }
      this.queuedBytes -= pending.bytes.length;
    }
  }

  /**
   * For a writer that encodes its line itself (the access log): a buffer with at least `bytes` free
   * from `end` on, or undefined when the line is to be dropped (stdout failed, or the bound is
   * reached: the line is counted). The writer puts its bytes there and calls commit() with where
   * they end; if it calls nothing instead, nothing was written.
   */
  claim(bytes: number): Buffer | undefined {
    if (bytes > LogDestination.maxClaim) throw new RangeError(`a claimed line is at most ${LogDestination.maxClaim} bytes`);
    if (!this.admit(bytes)) return undefined;
    if (bytes > CHUNK_BYTES - this.filled) this.flush();
    return this.chunk;
  }

  /** Where a claimed line starts. */
  get end(): number {
    return this.filled;
  }

  /** The claimed buffer now holds lines up to `end`. */
  commit(end: number): void {
    this.filled = end;
    this.written();
  }

  /**
   * Whether a line of at most `bytes` may be buffered: not once stdout failed, nor past the bound
   * (then it is counted). The first line admitted once all that waited is written says how many were
   * dropped before it.
   */
  private admit(bytes: number): boolean {
    if (this.failed) return false;
    if (this.queuedBytes + this.filled + bytes > this.maxPendingBytes) {
      this.dropped++;
      return false;
    }
    if (this.dropped > 0 && this.queuedBytes === 0) this.sayDropped();
    return true;
  }

  /** The line that counts the dropped ones (at exit too, whatever still waits). */
  private sayDropped(): void {
    const count = this.dropped;
    this.dropped = 0;
    if (this.options.droppedLine !== undefined) this.append(this.options.droppedLine(count));
  }

  private append(text: string): void {
    const most = text.length * 3;
    if (most > CHUNK_BYTES - this.filled) {
      this.flush();
      if (most > CHUNK_BYTES) {
        // Longer than a chunk: written on its own, after what was buffered.
        this.enqueue({ bytes: Buffer.from(text, 'utf8'), written: 0 });
        this.next();
        return;
      }
    }
    this.filled += this.chunk.write(text, this.filled, 'utf8');
    this.written();
  }

  /** After bytes were added to the chunk: a full one is written now, any other within FLUSH_AFTER_MS. */
  private written(): void {
    if (this.filled === CHUNK_BYTES) return this.flush();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, FLUSH_AFTER_MS).unref();
  }

  /**
   * The current chunk, if it holds anything, joins the queue; a fresh one takes its place. It clears
   * the timer, so whatever seals must also start the write (flush(); a chunk with no room for the
   * next line included): under a load that fills a chunk within FLUSH_AFTER_MS the timer never fires.
   * Only flushSync() seals without it, and writes the queue itself.
   */
  private seal(): void {
    if (this.filled === 0) return;
    this.enqueue({ bytes: this.chunk.subarray(0, this.filled), written: 0, chunk: this.chunk });
    this.chunk = this.spare.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
    this.filled = 0;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private enqueue(pending: Pending): void {
    this.queue.push(pending);
    this.queuedBytes += pending.bytes.length;
  }

  /** Writes the queue: a file's at once, anything else's one asynchronous write after another. */
  private next(): void {
    if (this.writing || this.failed || this.queue.length === 0) return;
    if (this.toFile) {
      while (this.queue.length > 0) {
        const pending = this.queue[0];
        try {
          this.wrote(pending, fs.writeSync(this.fd, pending.bytes, pending.written));
        } catch (err) {
          return this.fail(err as Error);
        }
      }
      return;
    }
    this.writing = true;
    const pending = this.queue[0];
    const { bytes } = pending;
    fs.write(this.fd, bytes, pending.written, bytes.length - pending.written, null, (err, written) => {
      this.writing = false;
      if (err !== null) {
        if (err.code === 'EAGAIN') {
          setTimeout(() => this.next(), RETRY_AFTER_MS).unref();
          return;
        }
        return this.fail(err);
      }
      this.wrote(pending, written);
      this.next();
    });
  }

  /** `written` more bytes of the oldest pending went out: once all of it has, it leaves the queue. */
  private wrote(pending: Pending, written: number): void {
    pending.written += written;
    if (pending.written === pending.bytes.length) {
      this.queue.shift();
      this.queuedBytes -= pending.bytes.length;
      if (pending.chunk !== undefined && this.spare.length < SPARE_CHUNKS) this.spare.push(pending.chunk);
    }
    if (this.queue.length === 0 && this.flushed.length > 0) for (const done of this.flushed.splice(0)) done();
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.filled = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.options.onFailure?.(err);
    for (const done of this.flushed.splice(0)) done(err);
  }
}

function isRegularFile(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFile();
  } catch {
    return false;
  }
}
