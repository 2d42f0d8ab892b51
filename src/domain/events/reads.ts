import type { Page } from '../../storage/collection.js';
import type { Actor } from '../identity/caller.js';
import { organizationRef, type PermissionEngine } from '../identity/permissions.js';
import type { EventLog, ReadEventsOptions } from './service.js';
import type { DomainEvent } from './types.js';

/** Reading an organization's event log over the API (event.read: admin). */
export class EventReadService {
  constructor(
    private readonly eventLog: EventLog,
    private readonly permissions: PermissionEngine,
  ) {}

  async listEvents(
    actor: Actor,
    organizationId: string,
    options: Omit<ReadEventsOptions, 'organizationId'> = {},
  ): Promise<Page<DomainEvent>> {
    await this.permissions.authorize(actor, 'event.read', organizationRef(organizationId));
    return this.eventLog.read({ ...options, organizationId });
  }
}
