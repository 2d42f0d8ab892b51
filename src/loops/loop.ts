import { calculateDelay } from '../backoff.js';
import type { Logger } from '../log.js';

export { calculateDelay, type BackoffOptions } from '../backoff.js';

export interface LoopOptions {
  name: string;
  intervalMs: number;
  /**
   * One tick of work. A thrown error is logged and the next tick is delayed by backoff. A tick may
   * answer when (epoch ms) work falls due: the next tick runs then when that is before the interval.
   */
  tick: () => Promise<void | number | undefined>;
  log: Logger;
  /** Run the first tick right away instead of after one interval. */
  immediate?: boolean;
  /** Backoff cap after consecutive failures (default 10 intervals). */
  maxBackoffMs?: number;
}

/** Told of every finished tick: the loop, how long it took (seconds), whether it succeeded. */
export type LoopObserver = (loop: string, seconds: number, ok: boolean) => void;

export interface LoopStatus {
  name: string;
  running: boolean;
  interval_ms: number;
  runs: number;
  failures: number;
  consecutive_failures: number;
  last_run_at: string | null;
  last_error: string | null;
}

/**
 * A setTimeout chain (never setInterval, so ticks never overlap). stop() clears the timer and
 * resolves once an in-flight tick has finished. wake() runs the next tick now (e.g. new work).
 */
export class Loop {
  private active = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private consecutiveFailures = 0;
  private runs = 0;
  private failures = 0;
  private lastRunAt: Date | null = null;
  private lastError: string | null = null;
  /** wake() arrived during a tick: run the next one right after it, not an interval later. */
  private wakeRequested = false;
  /** A tick runs now (set until the next one is scheduled, so no wake-up falls between the two). */
  private ticking = false;
  private wakeQueued = false;

  private observer: LoopObserver | undefined;

  constructor(private readonly options: LoopOptions) {}

  /** Hears of every tick (metrics). */
  observe(observer: LoopObserver): void {
    this.observer = observer;
  }

  get name(): string {
    return this.options.name;
  }

  get running(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.schedule(this.options.immediate === true ? 0 : this.options.intervalMs);
  }

  /** Runs a tick as soon as the current one (if any) ends. */
  wake(): void {
    if (!this.active) return;
    if (this.ticking) this.wakeRequested = true;
    else this.schedule(0);
  }

  /**
   * wake() on the next turn of the event loop: wake-ups that arrive together (one commit heard
   * in-process and through the storage) make one tick, and a tick that has just ended has let go.
   */
  wakeSoon(): void {
    if (this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      this.wake();
    });
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  status(): LoopStatus {
    return {
      name: this.name,
      running: this.active,
      interval_ms: this.options.intervalMs,
      runs: this.runs,
      failures: this.failures,
      consecutive_failures: this.consecutiveFailures,
      last_run_at: this.lastRunAt?.toISOString() ?? null,
      last_error: this.lastError,
    };
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.runTick().finally(() => {
        this.inFlight = undefined;
      });
    }, delay);
  }

  private async runTick(): Promise<void> {
    if (!this.active) return;
    this.ticking = true;
    let next = this.options.intervalMs;
    this.wakeRequested = false;
    const started = performance.now();
    let ok = false;
    try {
      const due = await this.options.tick();
      ok = true;
      this.consecutiveFailures = 0;
      this.lastError = null;
      if (this.wakeRequested) next = 0;
      else if (typeof due === 'number' && !Number.isNaN(due)) next = Math.min(next, Math.max(0, due - Date.now()));
    } catch (err) {
      this.failures++;
      this.consecutiveFailures++;
      this.lastError = err instanceof Error ? err.message : String(err);
      next = calculateDelay(this.consecutiveFailures, {
        baseMs: this.options.intervalMs,
        maxMs: this.options.maxBackoffMs ?? this.options.intervalMs * 10,
        jitter: 0.2,
      });
      this.options.log.error({ err, loop: this.options.name, retry_in_ms: next }, 'loop tick failed');
    } finally {
      this.runs++;
      this.lastRunAt = new Date();
      this.observer?.(this.options.name, (performance.now() - started) / 1000, ok);
    }
    this.ticking = false;
    if (this.active) this.schedule(next);
  }
}

/** The daemon's loops, started and stopped together. */
export class LoopSet {
  private readonly loops: Loop[] = [];

  constructor(private readonly observer?: LoopObserver) {}

  add(loop: Loop): Loop {
    if (this.observer !== undefined) loop.observe(this.observer);
    this.loops.push(loop);
    return loop;
  }

  startAll(): void {
    for (const l of this.loops) l.start();
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.loops.map((l) => l.stop()));
  }

  get allRunning(): boolean {
    return this.loops.every((l) => l.running);
  }

  /** The loop of that name, if the daemon runs one. */
  named(name: string): Loop | undefined {
    return this.loops.find((l) => l.name === name);
  }

  status(): LoopStatus[] {
    return this.loops.map((l) => l.status());
  }
}

/** Full batches in a row per tick before a sweep yields to the next interval. */
const MAX_BATCHES_PER_TICK = 20;

/**
 * A sweep's tick: runs `batch` until it answers that nothing more is left, at most
 * MAX_BATCHES_PER_TICK times; answers whether work was left over.
 */
export async function sweepBatches(batch: () => Promise<{ more: boolean }>): Promise<boolean> {
  for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) if (!(await batch()).more) return false;
  return true;
}
