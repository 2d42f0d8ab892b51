import { setBounded } from '../bounded-map.js';

// What both engines' read caches of hot tables share: values are kept frozen (callers copy before
// they change a record, so a cached record cannot be changed under another reader) and a cache holds
// a bounded number of them, the oldest going first.

/** Freezes `value` and everything it holds; answers it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Keeps `value`, frozen, in `cache` (at most `maxEntries`, the oldest dropped first); answers it. */
export function remember<V>(cache: Map<string, V>, key: string, value: V, maxEntries: number): V {
  return setBounded(cache, key, deepFreeze(value), maxEntries);
}
