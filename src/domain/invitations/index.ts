import type { Logger } from '../../log.js';
import type { Loop } from '../../loops/loop.js';
import type { Storage } from '../../storage/db.js';
import { parseMailbox } from '../email/address.js';
import { OutboxService } from '../email/outbox.js';
import { createOutboxLoop } from '../email/outbox-loop.js';
import { SecretSealer } from '../email/seal.js';
import { selectTransport, type TransportSettings } from '../email/transports.js';
import type { EventLog } from '../events/service.js';
import type { Identity } from '../identity/index.js';
import { SettingsService } from '../settings/service.js';
import { createInvitationExpiryLoop } from './expiry-loop.js';
import { InvitationService } from './service.js';
import { InvitationTokens } from './tokens.js';

export interface InvitationAreaConfig extends TransportSettings {
  emailFrom: string;
  inviteTokenKey?: string;
  inviteTtlMs: number;
  inviteExpirySweepMs: number;
  outboxPollMs: number;
  outboxRetryDelaysMs: number[];
}

export interface InvitationArea {
  invitations: InvitationService;
  settings: SettingsService;
  outbox: OutboxService;
  loops: Loop[];
}

/**
 * One send attempt may take this long: the shortest retry delay (an attempt should end before its
 * retry would be due), at least 1 s and at most 10 s (the spec's webhook attempt bound). The lease
 * is three of them; a crashed daemon's lease is re-claimed at once by the next one (docs/invitations.md).
 */
export function sendTimeoutMs(retryDelaysMs: number[]): number {
  return Math.min(10_000, Math.max(1_000, Math.min(...retryDelaysMs)));
}

/** Invitations, organization settings and the email outbox, with their two loops. */
export async function createInvitationArea(
  storage: Storage,
  events: EventLog,
  identity: Identity,
  config: InvitationAreaConfig,
  publicUrl: () => string,
  log: Logger,
): Promise<InvitationArea> {
  const tokens = await InvitationTokens.open(storage, config.inviteTokenKey);
  const timeoutMs = sendTimeoutMs(config.outboxRetryDelaysMs);
  const transport = selectTransport(config, timeoutMs);
  const outboxLog = log.child({ module: 'email-outbox' });
  const outbox = new OutboxService(
    storage,
    identity.permissions,
    new SecretSealer(tokens.sealingKey()),
    transport,
    { retryDelaysMs: config.outboxRetryDelaysMs, leaseMs: timeoutMs * 3, from: parseMailbox(config.emailFrom), publicUrl },
    outboxLog,
  );
  if (transport === undefined)
    outboxLog.warn('no email transport configured: invitation mail is held (see the outbox for accept links)');
  const settings = new SettingsService(storage, identity.store, identity.permissions);
  const invitationLog = log.child({ module: 'invitations' });
  const invitations = new InvitationService(
    storage,
    identity.permissions,
    identity.organizations,
    settings,
    outbox,
    tokens,
    events,
    { ttlMs: config.inviteTtlMs },
    invitationLog,
  );
  const loops = [
    createInvitationExpiryLoop(invitations, config.inviteExpirySweepMs, invitationLog),
    createOutboxLoop(outbox, config.outboxPollMs, outboxLog),
  ];
  return { invitations, settings, outbox, loops };
}
