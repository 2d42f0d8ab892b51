import type { Page } from '../../storage/collection.js';
import type { Actor } from '../identity/caller.js';
import { organizationRef, type PermissionEngine } from '../identity/permissions.js';
import type { EventLog, ReadEventsOptions } from './service.js';
import type { DomainEvent, EventKind } from './types.js';

/** Events read per page while a tail catches up. */
const TAIL_PAGE = 200;
/** A tail reads the log this often even unwoken, so a lost wake-up costs at most this much. */
const TAIL_POLL_MS = 5_000;

export interface TailEventsOptions {
  kind?: EventKind;
  /** An event id: the tail starts right after it. Unset: only events committed from now on. */
  since?: string;
  /** Ends the tail (the client went away, the daemon stops). */
  signal: AbortSignal;
}

/** Registers a listener of event commits on every daemon sharing the storage; returns its removal. */
export type OnEventsCommitted = (fn: () => void) => () => void;

/** Reading an organization's event log over the API (event.read: admin). */
export class EventReadService {
  constructor(
    private readonly eventLog: EventLog,
    private readonly permissions: PermissionEngine,
    private readonly onEventsCommitted: OnEventsCommitted,
  ) {}

  async listEvents(
    actor: Actor,
    organizationId: string,
    options: Omit<ReadEventsOptions, 'organizationId'> = {},
  ): Promise<Page<DomainEvent>> {
    await this.permissions.authorize(actor, 'event.read', organizationRef(organizationId));
    return this.eventLog.read({ ...options, organizationId });
  }

  /**
   * One run's events in log order, after `after` (an event id): the history of its event stream.
   * Whoever may read the run may read them (workflow.read); an unknown run is not_found.
   */
  async listRunEvents(actor: Actor, runId: string, options: { after?: string; limit?: number } = {}): Promise<DomainEvent[]> {
    await this.permissions.authorize(actor, 'workflow.read', { type: 'workflow_run', id: runId });
    return this.eventLog.readRun(runId, options);
  }

  /**
   * Opens a tail of an organization's events: those stored after `since`, then each as it commits,
   * until `signal` aborts. It resolves once the tail listens and its starting point is fixed, so
   * every event committed after that is in it. The log itself is the source: whenever woken, the
   * tail reads what follows the last event it yielded, and the log is gap-free in commit order, so
   * nothing is skipped or yielded twice, whichever daemon committed it. Wake-ups are only hints
   * (several collapse into one read; a lost one costs a poll).
   */
  async openTail(
    actor: Actor,
    organizationId: string,
    options: TailEventsOptions,
  ): Promise<AsyncGenerator<DomainEvent, void, void>> {
    await this.permissions.authorize(actor, 'event.read', organizationRef(organizationId));
    const { kind, signal } = options;
    let woken = false;
    let wake: (() => void) | undefined;
    const onWake = (): void => {
      woken = true;
      wake?.();
    };
    // Listening before the starting point is read: an event committed in between wakes the loop.
    const stopListening = this.onEventsCommitted(onWake);
    const stop = (): void => {
      stopListening();
      signal.removeEventListener('abort', onWake);
    };
    signal.addEventListener('abort', onWake);
    signal.addEventListener('abort', stop, { once: true });
    let after: string;
    try {
      after = options.since ?? (await this.eventLog.lastEventId()) ?? '';
    } catch (err) {
      stop();
      throw err;
    }
    const read = (from: string) => this.eventLog.read({ organizationId, kind, after: from, limit: TAIL_PAGE });
    return (async function* follow(): AsyncGenerator<DomainEvent, void, void> {
      try {
        while (!signal.aborted) {
          woken = false;
          for (let more = true; more && !signal.aborted;) {
            const page = await read(after);
            for (const event of page.items) {
              if (signal.aborted) return;
              yield event;
              after = event.id;
            }
            more = page.nextCursor !== null;
          }
          if (woken || signal.aborted) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, TAIL_POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      } finally {
        stop();
      }
    })();
  }
}
