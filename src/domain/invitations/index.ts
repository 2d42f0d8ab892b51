import type { Area, AreaBase } from '../area.js';
import type { EmailServices } from '../email/index.js';
import type { IdentityServices } from '../identity/index.js';
import { INVITE_TOKEN_KEY, openSecretKey } from '../secrets.js';
import type { SettingsServices } from '../settings/index.js';
import { createInvitationExpiryLoop } from './expiry-loop.js';
import { InvitationService } from './service.js';
import { InvitationTokens } from './tokens.js';

export interface InvitationServices {
  invitations: InvitationService;
}

type Needs = AreaBase & Pick<IdentityServices, 'permissions' | 'principals' | 'memberships'> & SettingsServices & EmailServices;

/** Invitations (spec 3.1): create, mail through the outbox, accept by link, revoke, resend, expire. */
export async function createInvitations(deps: Needs): Promise<Area<InvitationServices>> {
  const { storage, config, log, eventLog } = deps;
  const tokens = new InvitationTokens(await openSecretKey(storage, INVITE_TOKEN_KEY, config.inviteTokenKey));
  const invitationLog = log.child({ module: 'invitations' });
  const invitations = new InvitationService(
    storage,
    deps.permissions,
    deps.principals,
    deps.memberships,
    deps.settings,
    deps.outbox,
    tokens,
    eventLog,
    deps.audit,
    { ttlMs: config.inviteTtlMs, perRecipientPerHour: config.invitePerRecipientPerHour },
    invitationLog,
  );
  return {
    services: { invitations },
    loops: [createInvitationExpiryLoop(invitations, config.inviteExpirySweepMs, invitationLog)],
    resources: { invitation: (id) => invitations.locateInvitation(id) },
    count: async () => ({ invitations: await invitations.countInvitations() }),
  };
}
