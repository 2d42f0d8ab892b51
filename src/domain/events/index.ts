import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { EventReadService } from './reads.js';

export interface EventServices {
  events: EventReadService;
}

/** The event log's read side. The log itself (EventLog) is part of the base: every area appends to it. */
export function createEvents({ eventLog, permissions }: AreaBase & Pick<IdentityServices, 'permissions'>): Area<EventServices> {
  return {
    services: { events: new EventReadService(eventLog, permissions) },
    count: async () => ({ events: await eventLog.countEvents() }),
  };
}
