import { AppError } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import type { Storage } from '../../storage/port.js';
import { runEventsTopic, type EventLog } from '../events/service.js';
import type { DomainEvent } from '../events/types.js';

const FOLLOW_PAGE = 200;
const terminalRunEvents = new Set<string>(['workflow.run.completed', 'workflow.run.failed', 'workflow.run.cancelled']);
/** What a refused stream is told to wait before it tries again: about as long as a stream lives. */
const RETRY_AFTER_S = 30;

export interface RunStreamOptions {
  /** Open streams one principal may hold on this daemon. */
  perPrincipal: number;
  /** Open streams on one organization's runs on this daemon. */
  perOrganization: number;
  /** Without a wake-up, a stream still reads its run's events this often (a lost notification). */
  pollMs: number;
  /** How often a stream checks that its caller may still read the run. */
  recheckMs: number;
}

/** Whether the caller may still read the run: resolves when so, rejects (or false) when not. */
export type StillAllowed = () => Promise<boolean>;

/**
 * Live run event streams (GET /v1/workflows/runs/{id}/events). Each listens to its own run's wake-up
 * topic, so a commit elsewhere never makes it read the log; each holds a place under a cap per
 * principal and per organization (429 past it); each checks its caller's access as it goes and ends
 * once a revocation, a removal or a role change refuses it.
 */
export class RunStreams {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly storage: Storage,
    private readonly eventLog: EventLog,
    private readonly options: RunStreamOptions,
    private readonly metrics: Pick<Metrics, 'runStreamsOpen' | 'runStreamRead'>,
  ) {}

  /** Open streams of a principal (`principal`) or on an organization's runs (`organization`). */
  count(kind: 'principal' | 'organization', id: string): number {
    return this.open.get(`${kind}:${id}`) ?? 0;
  }

  /**
   * Takes a place for a stream of `principalId` on a run of `organizationId`, or refuses with 429.
   * The place is given back when the stream ends (the signal aborts or the generator returns).
   */
  reserve(principalId: string, organizationId: string): () => void {
    const principal = `principal:${principalId}`;
    const organization = `organization:${organizationId}`;
    const refuse = (limit: string, what: string, max: number) =>
      new AppError('rate_limited', `too many live run event streams ${what} (at most ${max}); close one first`, {
        retryAfterSeconds: RETRY_AFTER_S,
        details: { limit, max, retry_after_seconds: RETRY_AFTER_S },
      });
    if ((this.open.get(principal) ?? 0) >= this.options.perPrincipal)
      throw refuse('run_streams_per_principal', 'for this principal', this.options.perPrincipal);
    if ((this.open.get(organization) ?? 0) >= this.options.perOrganization)
      throw refuse('run_streams_per_organization', "on this organization's runs", this.options.perOrganization);
    for (const key of [principal, organization]) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    this.metrics.runStreamsOpen(1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.metrics.runStreamsOpen(-1);
      for (const key of [principal, organization]) {
        const left = (this.open.get(key) ?? 1) - 1;
        if (left <= 0) this.open.delete(key);
        else this.open.set(key, left);
      }
    };
  }

  /**
   * The run's events past `after`, then live ones as they commit, to its terminal event. Ends early
   * when `signal` aborts or `stillAllowed` refuses; `release` runs when it ends, whichever way.
   */
  async *follow(
    runId: string,
    after: string | undefined,
    signal: AbortSignal,
    stillAllowed: StillAllowed,
    release: () => void,
  ): AsyncGenerator<DomainEvent> {
    const ended = new AbortController();
    const end = () => ended.abort();
    let wake: (() => void) | undefined;
    const woken = () => wake?.();
    const off = this.storage.onWake(runEventsTopic(runId), woken);
    signal.addEventListener('abort', end);
    ended.signal.addEventListener('abort', woken);
    let checking = false;
    const recheck = setInterval(() => {
      if (checking || ended.signal.aborted) return;
      checking = true;
      stillAllowed()
        .then((allowed) => {
          if (!allowed) end();
        }, end)
        .finally(() => (checking = false));
    }, this.options.recheckMs);
    recheck.unref();
    if (signal.aborted) end();
    let timer: NodeJS.Timeout | undefined;
    try {
      let last = after;
      while (!ended.signal.aborted) {
        // Armed before the read, so that a commit between the read and the wait is not missed.
        const next = new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, this.options.pollMs);
        });
        this.metrics.runStreamRead();
        const page = await this.eventLog.readRun(runId, { after: last, limit: FOLLOW_PAGE });
        for (const event of page) {
          if (ended.signal.aborted) return;
          yield event;
          last = event.id;
          if (terminalRunEvents.has(event.kind)) return;
        }
        if (page.length < FOLLOW_PAGE) await next;
        clearTimeout(timer);
      }
    } finally {
      clearTimeout(timer);
      clearInterval(recheck);
      off();
      signal.removeEventListener('abort', end);
      release();
    }
  }
}
