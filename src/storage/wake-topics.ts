import type { Logger } from '../log.js';

/**
 * Who waits for which topic (a loop for its queue, a stream for its run), for both engines: a commit
 * names the topics it wakes, and the engine wakes them once the commit is durable. A listener that
 * throws is logged and the others still run.
 */
export class WakeTopics {
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly log: Logger) {}

  /** Calls `fn` on each wake of `topic`; answers the function that stops it. */
  on(topic: string, fn: () => void): () => void {
    let set = this.listeners.get(topic);
    if (set === undefined) this.listeners.set(topic, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      // Narrow topics (one per run) come and go: an empty one is not kept.
      if (set.size === 0 && this.listeners.get(topic) === set) this.listeners.delete(topic);
    };
  }

  /** Wakes each topic's listeners; `family:*` wakes every topic of the family (`family:...`). */
  wake(topics: readonly string[]): void {
    for (const topic of topics) {
      if (!topic.endsWith(':*')) {
        const set = this.listeners.get(topic);
        // A copy: a listener that subscribes again as it runs is not called twice by one wake.
        if (set !== undefined) for (const fn of [...set]) this.call(fn, topic);
        continue;
      }
      const family = topic.slice(0, -1);
      for (const [name, set] of [...this.listeners]) if (name.startsWith(family)) for (const fn of [...set]) this.call(fn, name);
    }
  }

  /** How many listeners wait for `topic` (a stream that ended must not leave its own behind). */
  count(topic: string): number {
    return this.listeners.get(topic)?.size ?? 0;
  }

  private call(fn: () => void, topic: string): void {
    try {
      fn();
    } catch (err) {
      this.log.error({ err, topic }, 'wake listener failed');
    }
  }
}
