import type { Logger } from '../../log.js';
import { noMetrics, type Metrics } from '../../metrics.js';
import type { Collection, Page } from '../../storage/collection.js';
import type { Storage } from '../../storage/db.js';
import { compositeKey, encodeCursor, newSortableId, nowIso } from '../../storage/keys.js';
import type { UnitOfWork } from '../../storage/unit-of-work.js';
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

/**
 * The domain event log: the only way events are written. An event goes into the same unit of work
 * as the change it describes (transactional outbox); subscribers hear of it only after the commit.
 * Subscribers are a latency hint; durable consumers keep their own cursor (saveCursor/readCursor)
 * and catch up from the log after a restart.
 */
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

  /** Adds the event to `uow`; returns it as it will be stored. */
  async append(uow: UnitOfWork, draft: EventDraft): Promise<DomainEvent> {
    if (!isEventKind(draft.kind)) throw new TypeError(`unknown event kind ${String(draft.kind)}`);
    const event: DomainEvent = {
      id: newSortableId('evt_'),
      kind: draft.kind,
      organization_id: draft.organization_id,
      workflow_id: draft.workflow_id ?? null,
      run_id: draft.run_id ?? null,
      node_key: draft.node_key ?? null,
      job_id: draft.job_id ?? null,
      payload: draft.payload ?? {},
      timestamp: nowIso(),
    };
    await uow.put(this.store, event);
    uow.afterCommit(() => {
      this.metrics.eventAppended(event.kind);
      this.notify(event);
    });
    return event;
  }

  subscribe(fn: EventSubscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  async countEvents(): Promise<number> {
    return this.store.count();
  }

  async get(id: string): Promise<DomainEvent | undefined> {
    return this.store.get(id);
  }

  /**
   * Events in append order, one page at a time; `after` and `cursor` both resume a read. Each
   * filter (organization, kind, both) is a range read of its own index, so a page is full unless it
   * is the last.
   */
  async read(options: ReadEventsOptions = {}): Promise<Page<DomainEvent>> {
    const { organizationId, kind, limit } = options;
    const index =
      kind === undefined
        ? organizationId === undefined
          ? undefined
          : { name: 'organization', value: [organizationId] }
        : organizationId === undefined
          ? { name: 'kind', value: [kind] }
          : { name: 'organization_kind', value: [organizationId, kind] };
    let cursor = options.cursor ?? null;
    // Index keys are value, id (the sort), id: a key made of `after` positions just past that event,
    // whichever organization or kind it has.
    if (cursor === null && options.after !== undefined)
      cursor = encodeCursor(index === undefined ? options.after : compositeKey(...index.value, options.after, options.after));
    return index === undefined
      ? this.store.list({ cursor, limit })
      : this.store.listBy(index.name, index.value, { cursor, limit });
  }

  /** A durable consumer's position in the log. */
  async readCursor(consumer: string): Promise<string | undefined> {
    return (await this.storage.meta.get(CURSOR_PREFIX + consumer)) as string | undefined;
  }

  saveCursor(uow: UnitOfWork, consumer: string, eventId: string): void {
    uow.putRaw(this.storage.meta, CURSOR_PREFIX + consumer, eventId);
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
