import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { DomainEvent } from './types.js';

/** Append-only: events are keyed by their time-sortable id, so key order is append order. */
export function createEventStore(storage: Storage): Collection<DomainEvent> {
  return new Collection<DomainEvent>(storage, 'events', (e) => e.id, [
    { name: 'organization', value: (e) => e.organization_id, sort: (e) => e.id },
    { name: 'kind', value: (e) => e.kind, sort: (e) => e.id },
    { name: 'organization_kind', value: (e) => [e.organization_id, e.kind], sort: (e) => e.id },
    // A run's events (its live stream's history). Added with workflow runs: no earlier event has a run.
    { name: 'run', value: (e) => e.run_id ?? undefined, sort: (e) => e.id },
  ]);
}
