import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { AuditActor, AuditRecord } from './types.js';

/** The id an actor is filtered by: the key's id, the principal's id, the portal session's id, or `operator`. */
export function actorId(actor: AuditActor): string {
  if (actor.type === 'api_key') return actor.api_key_id;
  if (actor.type === 'principal') return actor.principal_id;
  if (actor.type === 'portal_session') return actor.portal_session_id;
  return 'operator';
}

// Records outside any organization (provider settings) are filed under this value.
export const NO_ORGANIZATION = '-';

/**
 * Keyed by a time-sortable id; every filter the audit-log list takes (actor, action, both) is a
 * range read of its own index, sorted by that id, so a time window is a range inside it.
 */
export function createAuditStore(storage: Storage): Collection<AuditRecord> {
  const org = (r: AuditRecord) => r.organization_id ?? NO_ORGANIZATION;
  return new Collection<AuditRecord>(storage, 'audit_log', (r) => r.id, [
    { name: 'organization', value: org, sort: (r) => r.id },
    { name: 'organization_actor', value: (r) => [org(r), actorId(r.actor)], sort: (r) => r.id },
    { name: 'organization_action', value: (r) => [org(r), r.action], sort: (r) => r.id },
    { name: 'organization_actor_action', value: (r) => [org(r), actorId(r.actor), r.action], sort: (r) => r.id },
  ]);
}
