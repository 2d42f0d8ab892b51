import type { Dispatcher } from 'undici';
import { calculateDelay, honourRetryAfter, parseRetryAfter, spreadUp } from '../../backoff.js';
import { scrubErrorText } from '../../redact.js';
import { describeSocketError } from '../../socket-errors.js';
import { isoAt, nowIso } from '../../storage/keys.js';
import type { Tx } from '../../storage/port.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventLog } from '../events/service.js';
import type { DomainEvent } from '../events/types.js';
import type { AttentionClock } from './attention.js';
import type { Post, post } from './dispatcher.js';
import { deliveryHeaders } from './signing.js';
import { TargetRefusedError } from './target-guard.js';
import type { Delivery, DeliveryAttempt, Webhook } from './types.js';

/** The first 1 KB of an answer is kept on the attempt. */
const RESPONSE_BYTES = 1024;
/** The schedule's longest wait is base x 2^10 (contract 7). */
const MAX_BACKOFF_DOUBLINGS = 10;
/**
 * Retries spread over a fifth more than their wait: a retry waits between 100 % and 120 % of the
 * contract's delay (never less, and never past the cap), so deliveries that failed together are not
 * all retried in the same millisecond.
 */
export const RETRY_JITTER = 0.2;

/** How attempts reach receivers: dispatcher.ts's POST on the guarded dispatcher (loaded on first use). */
export interface Transport {
  post: typeof post;
  dispatcher: Dispatcher;
}

/** An event as the sender sends it: its kind (a header) and its JSON (the body, or its `event` field). */
export interface SentEvent {
  kind: DomainEvent['kind'];
  json: string;
}

/** What a receiver answered, as the delivery records it. */
export interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  /** The attempt ran out of time (its receiver did not answer within the timeout). */
  timedOut?: boolean;
  /** How long a 429 or 503 asked the sender to wait (its Retry-After), in ms. */
  retryAfterMs?: number;
}

/**
 * The delay before the attempt after failed attempt `k` (k = 1, 2, ...): base x 2^(k-1), capped at
 * base x 2^10, plus up to RETRY_JITTER of it (within the cap); or the receiver's Retry-After (a 429's
 * or 503's) when that is longer, clamped to the same cap.
 */
export function retryDelayMs(k: number, baseMs: number, retryAfterMs?: number, random: () => number = Math.random): number {
  const capMs = baseMs * 2 ** MAX_BACKOFF_DOUBLINGS;
  const scheduled = spreadUp(calculateDelay(k, { baseMs, maxMs: capMs }), RETRY_JITTER, capMs, random);
  return honourRetryAfter(scheduled, retryAfterMs, capMs);
}

/** An attempt's deadline: its POST ends, with what `describeFailure` reads as a timeout. */
function timeOut(sent: Post, ms: number): void {
  sent.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError'));
}

/**
 * An attempt's time counts on the attention clock: time this process's event loop stalled is given
 * back (an answer that came during a stall is read after the timers that fell due in it), up to the
 * timeout again, so an attempt ends within twice its timeout of wall time whatever happens (its
 * lease is three times the timeout).
 */
const STALL_GRACE = 1;

function timedOutAfter(ms: number): string {
  return `timed out after ${ms} ms`;
}

/** What an attempt's failure is called on the delivery (never a secret: callers scrub). */
function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof TargetRefusedError) return err.message;
  const e = err as Error & { code?: string; cause?: unknown; name?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT')
    return timedOutAfter(timeoutMs);
  if (e.cause instanceof TargetRefusedError) return e.cause.message;
  return describeSocketError(err);
}

function scrub(text: string, secrets: string[], max = 500): string {
  let out = text;
  for (const secret of secrets) out = out.replaceAll(secret, '[redacted]');
  return scrubErrorText(out, max);
}

/**
 * The POSTs of attempts: each within the timeout, on the transport loaded with the first of them;
 * shutdown (stop) ends those on the wire and refuses new ones.
 */
export class AttemptPoster {
  /** The POSTs on the wire (shutdown ends them all). */
  private readonly onWire = new Set<Post>();
  /** The transport, once loaded (an attempt does not wait a turn of the event loop for it). */
  private loaded: Transport | undefined;
  /** Aborted at shutdown: attempts in flight stop, unrecorded, and are taken over like a crash's. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly transport: () => Promise<Transport>,
    readonly timeoutMs: number,
    private readonly clock?: Pick<AttentionClock, 'now'>,
  ) {}

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Shutdown: every POST on the wire ends now, and any started after it at once. */
  stop(): void {
    this.stopping.abort();
    for (const sent of this.onWire) sent.abort(this.stopping.signal.reason as Error);
  }

  /** POST within the timeout; a 2xx is success, a 3xx a failure never followed. */
  async post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
    const ms = this.timeoutMs;
    let sent: Post | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const { post, dispatcher } = this.loaded ?? (this.loaded = await this.transport());
      sent = post(dispatcher, url, body, headers, RESPONSE_BYTES);
      // A real timer holds the attempt until it fires or is cleared (deadline.ts: not AbortSignal.timeout);
      // it fires on wall time and then looks at the attention clock (STALL_GRACE).
      const onWire = sent;
      const clock = this.clock;
      const wallEnd = Date.now() + ms * (1 + STALL_GRACE);
      const end = clock === undefined ? 0 : clock.now() + ms;
      const check = (): void => {
        const left = clock === undefined ? 0 : Math.min(end - clock.now(), wallEnd - Date.now());
        if (left > 0) timer = setTimeout(check, left);
        else timeOut(onWire, ms);
      };
      timer = setTimeout(check, ms);
      this.onWire.add(sent);
      if (this.stopping.signal.aborted) sent.abort(this.stopping.signal.reason as Error);
      const { statusCode: code, body: response, retryAfter } = await sent.answer;
      if (code >= 200 && code < 300) return { ok: true, statusCode: code, error: null, response };
      const error = code >= 300 && code < 400 ? `redirect (${code}) not followed` : `receiver answered ${code}`;
      const retryAfterMs = parseRetryAfter(retryAfter);
      return retryAfterMs === undefined
        ? { ok: false, statusCode: code, error, response }
        : { ok: false, statusCode: code, error, response, retryAfterMs };
    } catch (err) {
      const error = describeFailure(err, ms);
      return { ok: false, statusCode: null, error, response: null, timedOut: error === timedOutAfter(ms) };
    } finally {
      clearTimeout(timer);
      if (sent !== undefined) this.onWire.delete(sent);
    }
  }
}

/** One attempt as sent: what the receiver answered, and the attempt as the delivery records it. */
export interface AttemptResult {
  outcome: Outcome;
  attempt: DeliveryAttempt;
}

/**
 * One attempt of `delivery` (attempt number `delivery.attempt + 1`): the signed POST of its event to
 * the webhook, timed, its error and answer scrubbed of the webhook's secrets. An event no longer stored
 * is a failed attempt that sent nothing.
 */
export async function sendAttempt(
  poster: AttemptPoster,
  delivery: Delivery,
  webhook: Webhook,
  event: SentEvent | undefined,
  secretsOf: (webhook: Webhook, at: number) => string[],
): Promise<AttemptResult> {
  const number = delivery.attempt + 1;
  const started = Date.now();
  let outcome: Outcome;
  let secrets: string[] = [];
  if (event === undefined) outcome = { ok: false, statusCode: null, error: 'the event is no longer stored', response: null };
  else {
    secrets = secretsOf(webhook, started);
    // Byte for byte JSON.stringify({ event, state }), without serialising the event again.
    const body = webhook.state === null ? event.json : `{"event":${event.json},"state":${JSON.stringify(webhook.state)}}`;
    const headers = deliveryHeaders({
      secrets,
      deliveryId: delivery.id,
      eventKind: event.kind,
      body,
      timestamp: Math.floor(started / 1000),
      attempt: number,
    });
    outcome = await poster.post(webhook.url, body, headers);
  }
  const attempt: DeliveryAttempt = {
    attempt: number,
    at: isoAt(started),
    status_code: outcome.statusCode,
    duration_ms: Date.now() - started,
    error: outcome.error === null ? null : scrub(outcome.error, secrets),
    response: outcome.response === null ? null : scrub(outcome.response, secrets, RESPONSE_BYTES),
  };
  return { outcome, attempt };
}

/**
 * The delivery record after an attempt (`current` as stored when its outcome is written): delivered,
 * pending with its next attempt's time, or failed once `max_retries` retries are spent, and then
 * (unless it was itself about an exhaustion) `webhook.delivery.exhausted` appended in `tx`. A platform
 * webhook's exhaustion has no event: it would land in the log of the event's organization, whose
 * callers cannot see that webhook (the operator reads its deliveries, the log and the metrics).
 */
export function settleDelivery(
  current: Delivery,
  tx: Tx,
  sent: AttemptResult,
  webhook: Pick<Webhook, 'organization_id' | 'max_retries'>,
  retryBaseMs: number,
  eventLog: EventLog,
): Delivery {
  const { outcome, attempt } = sent;
  const k = attempt.attempt - current.budget_from;
  const status = outcome.ok ? 'delivered' : k <= webhook.max_retries ? 'pending' : 'failed';
  // Spent: failed, and (unless this was itself about an exhaustion) the event that says so.
  if (status === 'failed' && current.event_kind !== 'webhook.delivery.exhausted' && webhook.organization_id !== null)
    eventLog.append(tx, {
      kind: 'webhook.delivery.exhausted',
      organization_id: current.organization_id,
      payload: {
        webhook_id: current.webhook_id,
        delivery_id: current.id,
        event_id: current.event_id,
        event_kind: current.event_kind,
        attempts: attempt.attempt,
        status_code: attempt.status_code,
        error_message: attempt.error,
      } satisfies EventPayload<'webhook.delivery.exhausted'>,
    });
  // One copy of the record (its own keys only after the spread: V8 keeps that literal fast).
  return {
    ...current,
    status,
    attempt: attempt.attempt,
    attempts: [...current.attempts, attempt],
    status_code: attempt.status_code,
    error_message: outcome.ok ? null : attempt.error,
    next_attempt_at: status === 'pending' ? isoAt(Date.now() + retryDelayMs(k, retryBaseMs, outcome.retryAfterMs)) : null,
    lease_owner: null,
    lease_until: null,
    updated_at: nowIso(),
  };
}
