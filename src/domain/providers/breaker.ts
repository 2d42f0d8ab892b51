// A provider's passive breaker: resilience4j's time-based sliding window. Each call's outcome lands
// in the window's current slice (the window is cut in SLICES, so it holds a fixed few counters, never
// a list of calls); the breaker opens when at least `minCalls` calls of the last `windowMs` ended and
// at least `failurePercent` % of them failed. Opening empties the window: the provider is skipped until a
// probe closes it, and starts again from no history.

/** Slices per window: the window slides in steps of windowMs / SLICES. */
const SLICES = 10;

export interface BreakerSettings {
  /** How far back outcomes count (ms). */
  windowMs: number;
  /** Calls in the window before the rate is judged. */
  minCalls: number;
  /** The share of failed calls, in percent (1 to 100), at which the breaker opens. */
  failurePercent: number;
}

/** What the window held when it opened: for the health reason. */
export interface Tripped {
  calls: number;
  failures: number;
}

/** One provider's window: counters per time slice, in a ring. */
export class FailureWindow {
  private readonly sliceMs: number;
  /** The slice number (time / sliceMs) each ring cell counts, -1 when empty. */
  private readonly slices = new Float64Array(SLICES).fill(-1);
  private readonly calls = new Uint32Array(SLICES);
  private readonly failures = new Uint32Array(SLICES);

  constructor(private readonly settings: BreakerSettings) {
    this.sliceMs = Math.max(1, settings.windowMs / SLICES);
  }

  /** A call that answered: counted, never opens. */
  succeeded(now: number): void {
    this.calls[this.cellAt(now)]++;
  }

  /** A call that failed retriably: counted; answers the window's totals when the breaker opens (it is emptied). */
  failed(now: number): Tripped | undefined {
    const cell = this.cellAt(now);
    this.calls[cell]++;
    this.failures[cell]++;
    const oldest = Math.floor(now / this.sliceMs) - SLICES + 1;
    let calls = 0;
    let failures = 0;
    for (let i = 0; i < SLICES; i++) {
      if (this.slices[i] < oldest) continue;
      calls += this.calls[i];
      failures += this.failures[i];
    }
    if (calls < this.settings.minCalls || failures * 100 < calls * this.settings.failurePercent) return undefined;
    this.reset();
    return { calls, failures };
  }

  reset(): void {
    this.slices.fill(-1);
    this.calls.fill(0);
    this.failures.fill(0);
  }

  /** The ring cell of `now`'s slice, emptied first when it last counted an older slice. */
  private cellAt(now: number): number {
    const slice = Math.floor(now / this.sliceMs);
    const cell = slice % SLICES;
    if (this.slices[cell] !== slice) {
      this.slices[cell] = slice;
      this.calls[cell] = 0;
      this.failures[cell] = 0;
    }
    return cell;
  }
}

/** A window per provider (by name), made on its first call. */
export class ProviderBreakers {
  private readonly windows = new Map<string, FailureWindow>();

  constructor(
    readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  succeeded(provider: string): void {
    this.windowOf(provider).succeeded(this.now());
  }

  failed(provider: string): Tripped | undefined {
    return this.windowOf(provider).failed(this.now());
  }

  /** Forgets a provider's outcomes (it was opened another way, e.g. our key refused). */
  reset(provider: string): void {
    this.windows.get(provider)?.reset();
  }

  private windowOf(provider: string): FailureWindow {
    let window = this.windows.get(provider);
    if (window === undefined) {
      window = new FailureWindow(this.settings);
      this.windows.set(provider, window);
    }
    return window;
  }
}
