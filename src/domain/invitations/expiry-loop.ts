import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { InvitationService } from './service.js';

/** Full batches in a row per tick before yielding to the next interval. */
const MAX_BATCHES_PER_TICK = 20;

/** The expiry job (spec 3.1): every SERVICE_INVITE_EXPIRY_SWEEP_MS, overdue pending invitations become expired. */
export function createInvitationExpiryLoop(invitations: InvitationService, intervalMs: number, log: Logger): Loop {
  return new Loop({
    name: 'invitation-expiry',
    intervalMs,
    log,
    tick: async () => {
      for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) {
        if (!(await invitations.expireOverdueInvitations()).more) return;
      }
    },
  });
}
