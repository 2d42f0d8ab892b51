// Per-key async mutex: the LevelDB engine's transaction locks (LevelDB has no transactions; one
// process owns the data dir, so an in-process lock is a lock on the data).

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Takes several locks in a fixed (sorted) order, so two callers can never deadlock. */
  async runAll<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const step = (i: number): Promise<T> => (i === sorted.length ? fn() : this.run(sorted[i], () => step(i + 1)));
    return step(0);
  }

  /** Whether someone holds (or waits for) `key` now. */
  isHeld(key: string): boolean {
    return this.tails.has(key);
  }

  get size(): number {
    return this.tails.size;
  }
}
