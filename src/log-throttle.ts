import { setBounded } from './bounded-map.js';
import type { Logger } from './log.js';

/** Most distinct lines remembered; past it the oldest are forgotten (they log again next time). */
const MAX_KEYS = 1000;

export interface LogThrottle {
  /**
   * Logs `message` at `level` unless the same message and code was logged less than the interval
   * ago; then it is only counted, and the next line that gets through carries `suppressed: n`.
   */
  error(log: Logger, fields: Record<string, unknown>, message: string, code?: string): void;
}

/**
 * Identical error lines at most once per `intervalMs`: a failing disk or a broken dependency fails
 * every request the same way, and one line per request would bury everything else in the log.
 */
export function createLogThrottle(intervalMs: number, now: () => number = Date.now): LogThrottle {
  const seen = new Map<string, { at: number; suppressed: number }>();
  return {
    error(log, fields, message, code) {
      const key = `${code ?? ''}\u0000${message}`;
      const t = now();
      const entry = seen.get(key);
      if (entry !== undefined && t - entry.at < intervalMs) {
        entry.suppressed++;
        return;
      }
      const suppressed = entry?.suppressed ?? 0;
      seen.delete(key); // re-inserted last: the map stays in last-logged order
      setBounded(seen, key, { at: t, suppressed: 0 }, MAX_KEYS);
      log.error(suppressed > 0 ? { ...fields, suppressed } : fields, message);
    },
  };
}
