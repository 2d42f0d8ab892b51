import type { Tx } from '../../storage/port.js';
import type { EventLog } from '../events/service.js';
import type { Role } from './roles.js';
import type { Membership } from './types.js';

export type MemberEventKind = 'member.added' | 'member.removed' | 'member.role_changed';

/**
 * A membership change's event, in the change's own transaction (contract 13): `role` is the role the
 * membership has now (the one it had, for member.removed); `previous_role` only on a role change.
 */
export function appendMemberEvent(
  eventLog: EventLog,
  tx: Tx,
  kind: MemberEventKind,
  membership: Membership,
  previousRole?: Role,
): void {
  eventLog.append(tx, {
    kind,
    organization_id: membership.organization_id,
    payload: {
      membership_id: membership.id,
      principal_id: membership.principal_id,
      role: membership.role,
      team_id: membership.team_id,
      ...(previousRole === undefined ? {} : { previous_role: previousRole }),
    },
  });
}
