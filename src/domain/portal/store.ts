import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { PortalSessionRecord } from './types.js';

/** Portal sessions by id (tokens carry the id, so a lookup is a point read); by organization, newest last. */
export function createPortalStore(storage: Storage): Collection<PortalSessionRecord> {
  return new Collection<PortalSessionRecord>(storage, 'portal_sessions', (s) => s.id, [
    { name: 'organization', value: (s) => s.organization_id, sort: (s) => s.created_at },
  ]);
}
