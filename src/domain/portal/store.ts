import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { PortalSessionRecord } from './types.js';

/** The `expiry` index's one value: every session, used or not, ends. */
export const EVERY_SESSION = 'all';

/**
 * Portal sessions by id (tokens carry the id, so a lookup is a point read); by organization, newest
 * last; every session by its end (`expiry`: the sweep's range read).
 */
export function createPortalStore(storage: Storage): Collection<PortalSessionRecord> {
  return new Collection<PortalSessionRecord>(storage, 'portal_sessions', (s) => s.id, [
    { name: 'organization', value: (s) => s.organization_id, sort: (s) => s.created_at },
    { name: 'expiry', value: () => EVERY_SESSION, sort: (s) => s.expires_at },
  ]);
}
