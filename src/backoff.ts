// One backoff for every retry in the daemon (Svix's one retry helper): the loops' failure backoff,
// webhook retries, the email outbox's retries and the provider breaker's probes. docs/decisions.md.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /**
   * 0..1: the share of the delay that is randomised, downwards (full jitter on that share): a delay
   * d becomes uniform in [(1 - jitter) x d, d], so a jittered retry is never later than the schedule.
   */
  jitter?: number;
  random?: () => number;
}

/** Exponential backoff with jitter: base * 2^(attempt-1), capped, for attempt >= 1. */
export function calculateDelay(attempt: number, options: BackoffOptions): number {
  const exp = options.baseMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(options.maxMs, exp);
  return jittered(capped, options.jitter, options.random);
}

/** `ms` less up to `jitter` (0..1) of itself, at random: uniform in [(1 - jitter) x ms, ms]. */
export function jittered(ms: number, jitter = 0, random: () => number = Math.random): number {
  const share = Math.min(1, Math.max(0, jitter));
  if (share === 0) return ms;
  return Math.round(ms * (1 - share) + ms * share * random());
}

/**
 * `ms` plus up to `share` (0..1) of itself at random, never past `capMs`: uniform in
 * [ms, min(capMs, (1 + share) x ms)]. For schedules that promise a minimum wait (webhook retries).
 */
export function spreadUp(ms: number, share: number, capMs: number, random: () => number = Math.random): number {
  const top = Math.min(capMs, ms * (1 + Math.min(1, Math.max(0, share))));
  return Math.round(ms + (top - ms) * random());
}

/**
 * The wait before a retry: the schedule's `scheduledMs`, or longer when the other side asked for it
 * (Retry-After), clamped to `capMs`, so a receiver cannot park a retry for longer than the schedule's
 * own longest wait. A Retry-After shorter than the schedule does not hurry it.
 */
export function honourRetryAfter(scheduledMs: number, retryAfterMs: number | undefined, capMs: number): number {
  if (retryAfterMs === undefined) return scheduledMs;
  return Math.max(scheduledMs, Math.min(retryAfterMs, capMs));
}

/** Retry-After as seconds or an HTTP date (RFC 9110 10.2.3), in milliseconds from `now`; undefined when unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
