import type { Tx } from '../../storage/port.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventLog } from '../events/service.js';
import type { IdentityStore } from './store.js';
import type { Membership } from './types.js';

// Every membership write goes through here, so that no path can change a membership without its
// event (contract 13), in the change's own transaction.

/** The member.* payload: `role` is the role the membership has (had, for member.removed). */
function memberPayload(m: Membership): EventPayload<'member.added'> {
  return { membership_id: m.id, principal_id: m.principal_id, role: m.role, team_id: m.team_id };
}

/**
 * Writes a membership, new (`before` undefined: member.added) or changed (member.role_changed when its
 * role differs from `before`'s; no event when it does not).
 */
export function putMembership(
  store: IdentityStore,
  eventLog: EventLog,
  tx: Tx,
  next: Membership,
  before?: Membership,
): Promise<Membership> {
  if (before === undefined)
    eventLog.append(tx, { kind: 'member.added', organization_id: next.organization_id, payload: memberPayload(next) });
  else if (before.role !== next.role)
    eventLog.append(tx, {
      kind: 'member.role_changed',
      organization_id: next.organization_id,
      payload: { ...memberPayload(next), previous_role: before.role },
    });
  return tx.put(store.memberships, next);
}

/** Deletes a membership, with member.removed. */
export async function deleteMembership(store: IdentityStore, eventLog: EventLog, tx: Tx, membership: Membership): Promise<void> {
  await tx.delete(store.memberships, membership.id);
  eventLog.append(tx, {
    kind: 'member.removed',
    organization_id: membership.organization_id,
    payload: memberPayload(membership),
  });
}
