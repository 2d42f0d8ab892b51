import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { EventReadService } from './reads.js';
import { EVENTS_TOPIC } from './service.js';

export interface EventServices {
  events: EventReadService;
}

/** The event log's read side. The log itself (EventLog) is part of the base: every area appends to it. */
export function createEvents({
  eventLog,
  storage,
  permissions,
}: AreaBase & Pick<IdentityServices, 'permissions'>): Area<EventServices> {
  // Every event commit wakes EVENTS_TOPIC on every daemon sharing the storage: what tails listen to.
  const onEventsCommitted = (fn: () => void) => storage.onWake(EVENTS_TOPIC, fn);
  return {
    services: { events: new EventReadService(eventLog, permissions, onEventsCommitted) },
    count: async () => ({ events: await eventLog.countEvents() }),
  };
}
