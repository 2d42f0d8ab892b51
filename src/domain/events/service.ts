import type { Logger } from '../../log.js';
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
const KIND_SCAN_BATCH = 200;
const KIND_SCAN_MAX = 10_000;

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
    uow.afterCommit(() => this.notify(event));
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

  /** Events in append order, one page at a time; `after` and `cursor` both resume a read. */
  async read(options: ReadEventsOptions = {}): Promise<Page<DomainEvent>> {
    const limit = Math.max(1, Math.min(200, options.limit ?? 50));
    let cursor = options.cursor ?? null;
    if (cursor === null && options.after !== undefined) {
      cursor = encodeCursor(
        options.organizationId === undefined ? options.after : compositeKey(options.organizationId, options.after, options.after),
      );
    }
    const readPage = (c: string | null, n: number) =>
      options.organizationId === undefined
        ? this.store.list({ cursor: c, limit: n })
        : this.store.listBy('organization', options.organizationId, { cursor: c, limit: n });
    if (options.kind === undefined) return readPage(cursor, limit);

    // A kind filter scans forward in batches (bounded). Finding one match past a full page tells
    // that a next page exists, so next_cursor is null at the end as for an unfiltered read.
    const items: DomainEvent[] = [];
    let scanned = 0;
    for (;;) {
      const page = await readPage(cursor, KIND_SCAN_BATCH);
      for (const e of page.items) {
        scanned++;
        if (e.kind !== options.kind) continue;
        if (items.length === limit) {
          const last = items[limit - 1].id;
          return {
            items,
            nextCursor: encodeCursor(
              options.organizationId === undefined ? last : compositeKey(options.organizationId, last, last),
            ),
          };
        }
        items.push(e);
      }
      cursor = page.nextCursor;
      // At the scan bound the cursor resumes after the last event scanned; the caller reads on.
      if (cursor === null || scanned >= KIND_SCAN_MAX) return { items, nextCursor: cursor };
    }
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
