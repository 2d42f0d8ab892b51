/**
 * Sets `key` in a map that holds at most `max` entries: when it is full and `key` is new, the oldest
 * entry (the first inserted) goes first. The daemon's caches and throttles all bound themselves so.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}
