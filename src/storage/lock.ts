// Per-key async mutex. LevelDB has no transactions, so every read-modify-write of a record
// (and every check-then-write of a limit) runs under the lock of the key it decides on.

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

  get size(): number {
    return this.tails.size;
  }
}
