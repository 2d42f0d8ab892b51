import type { Logger } from '../../log.js';
import { noMetrics, type Metrics } from '../../metrics.js';
import type { Collection, Page } from '../../storage/collection.js';
import { nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { createEventStore } from './store.js';
import { isEventKind, type DomainEvent, type EventDraft, type EventKind } from './types.js';

export type EventSubscriber = (event: DomainEvent) => void | Promise<void>;

export interface ReadEventsOptions {
  organizationId?: string;
  /** Return events strictly after this event id. */
  after?: string;
  kind?: EventKind;
  limit?: number;
  cursor?: string | null;
}

const CURSOR_PREFIX = 'cursor:';

/** The meta key of a durable consumer's position (a transaction that reads it may name it in `meta`). */
export function cursorKey(consumer: string): string {
  return CURSOR_PREFIX + consumer;
}
const EVENT_ID_PREFIX = 'evt_';

/**
 * The domain event log: the only way events are written. An event goes into the same transaction
 * as the change it describes (transactional outbox); subscribers hear of it only after the commit.
 * Subscribers are a latency hint; durable consumers keep their own cursor (saveCursor/readCursor)
 * and catch up from the log after a restart.
 */
/** The storage wake-up topic of every event commit (storage.onWake), on whichever daemon it committed. */
export const EVENTS_TOPIC = 'events';

/**
 * The wake-up topic of one run's events: a live run stream listens to its run's topic alone, so a
 * commit elsewhere (another run, another organization) never makes it read the log.
 */
export function runEventsTopic(runId: string): string {
  return `run-events:${runId}`;
}

export class EventLog {
  private readonly store: Collection<DomainEvent>;
  private readonly subscribers = new Set<EventSubscriber>();

  constructor(
    private readonly storage: Storage,
    private readonly log: Logger,
    private readonly metrics: Pick<Metrics, 'eventAppended'> = noMetrics,
  ) {
    this.store = createEventStore(storage);
  }

  /**
   * Adds the event to `tx`. Its id is taken as the transaction commits, in commit order, so a reader
   * that resumes after the last id it read never passes over an event committed later. The answer
   * gives the event once `tx` has committed (undefined before).
   */
  append(tx: Tx, draft: EventDraft): () => DomainEvent | undefined {
    if (!isEventKind(draft.kind)) throw new TypeError(`unknown event kind ${String(draft.kind)}`);
    let appended: DomainEvent | undefined;
    tx.append(this.store, EVENT_ID_PREFIX, (id) => {
      appended = {
        id,
        kind: draft.kind,
        organization_id: draft.organization_id,
        workflow_id: draft.workflow_id ?? null,
        run_id: draft.run_id ?? null,
        node_key: draft.node_key ?? null,
        job_id: draft.job_id ?? null,
        payload: draft.payload ?? {},
        timestamp: nowIso(),
      };
      return appended;
    });
    // Consumers of the log on every daemon sharing the storage (the webhook fan-out) hear of it.
    tx.wake(EVENTS_TOPIC);
    if (draft.run_id !== undefined && draft.run_id !== null) tx.wake(runEventsTopic(draft.run_id));
    tx.afterCommit(() => {
      if (appended === undefined) return;
      this.metrics.eventAppended(appended.kind);
      this.notify(appended);
    });
    return () => appended;
  }

  subscribe(fn: EventSubscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  async countEvents(tx?: Tx): Promise<number> {
    return this.store.in(tx).count();
  }

  async get(id: string, tx?: Tx): Promise<DomainEvent | undefined> {
    return this.store.in(tx).get(id);
  }

  /** Events by id, in the order asked (undefined: not stored), in one read. */
  async getMany(ids: readonly string[], tx?: Tx): Promise<(DomainEvent | undefined)[]> {
    return this.store.in(tx).getMany(ids);
  }

  /** The id of the last event committed, if any. */
  async lastEventId(tx?: Tx): Promise<string | undefined> {
    return (await this.store.in(tx).list({ reverse: true, limit: 1 })).items[0]?.id;
  }

  /**
   * Events in append order, one page at a time; `after` (an event id) and `cursor` both resume a
   * read. Each filter (organization, kind, both) is a range read of its own index, whose sort is the
   * event id, so a page is full unless it is the last.
   */
  async read(options: ReadEventsOptions = {}, tx?: Tx): Promise<Page<DomainEvent>> {
    const { organizationId, kind } = options;
    const page = { cursor: options.cursor ?? null, limit: options.limit, after: options.after };
    const store = this.store.in(tx);
    if (kind === undefined)
      return organizationId === undefined ? store.list(page) : store.listBy('organization', organizationId, page);
    return organizationId === undefined
      ? store.listBy('kind', kind, page)
      : store.listBy('organization_kind', [organizationId, kind], page);
  }

  /** One run's events in append order, past `after` (an event id): its live stream's history. */
  async readRun(runId: string, options: { after?: string; limit?: number } = {}): Promise<DomainEvent[]> {
    return (await this.store.listBy('run', runId, { after: options.after, limit: options.limit })).items;
  }

  /** How many events a durable consumer has yet to read, counted up to `max` (metrics). */
  async lagOf(consumer: string, max: number): Promise<number> {
    return this.store.countAfter((await this.readCursor(consumer)) ?? '', max);
  }

  /** A durable consumer's position in the log. */
  async readCursor(consumer: string, tx?: Tx): Promise<string | undefined> {
    const key = cursorKey(consumer);
    return (await (tx === undefined ? this.storage.readMeta(key) : tx.readMeta(key))) as string | undefined;
  }

  /** Moves a consumer's position in `tx`, with the work it did up to that event. */
  saveCursor(tx: Tx, consumer: string, eventId: string): void {
    tx.putMeta(cursorKey(consumer), eventId);
  }

  private notify(event: DomainEvent): void {
    for (const fn of this.subscribers) {
      // Isolated: one failing subscriber neither blocks the others nor the writer.
      Promise.resolve()
        .then(() => fn(event))
        .catch((err: unknown) => this.log.error({ err, event_id: event.id }, 'event subscriber failed'));
    }
  }
}
