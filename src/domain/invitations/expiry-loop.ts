import type { Logger } from '../../log.js';
import { Loop, sweepBatches } from '../../loops/loop.js';
import type { InvitationService } from './service.js';

/** The expiry job (spec 3.1): every SERVICE_INVITE_EXPIRY_SWEEP_MS, overdue pending invitations become expired. */
export function createInvitationExpiryLoop(invitations: InvitationService, intervalMs: number, log: Logger): Loop {
  return new Loop({
    name: 'invitation-expiry',
    intervalMs,
    log,
    tick: async () => {
      await sweepBatches(() => invitations.expireOverdueInvitations());
    },
  });
}
