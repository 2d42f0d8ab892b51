import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { deriveKey, INVITE_TOKEN_KEY, openSecretKey } from '../secrets.js';
import { parseMailbox } from './address.js';
import { createOutboxLoop } from './outbox-loop.js';
import { OutboxService } from './outbox.js';
import { SecretSealer } from '../secret-sealer.js';
import { selectTransport } from './transports.js';

export interface EmailServices {
  outbox: OutboxService;
}

/**
 * One send attempt may take this long: the shortest retry delay (an attempt should end before its
 * retry would be due), at least 1 s and at most 10 s (the spec's webhook attempt bound). The lease
 * is three of them. A crashed daemon's lease is re-claimed at once by the next run on LevelDB (one
 * daemon per data dir), once it has expired on shared storage (docs/invitations.md).
 */
function sendTimeoutMs(retryDelaysMs: number[]): number {
  return Math.min(10_000, Math.max(1_000, Math.min(...retryDelaysMs)));
}

/** The email outbox: mail queued in the same transaction as its change, sent with leases and retries. */
export async function createEmail({
  storage,
  config,
  log,
  publicUrl,
  permissions,
}: AreaBase & Pick<IdentityServices, 'permissions'>): Promise<Area<EmailServices>> {
  const timeoutMs = sendTimeoutMs(config.outboxRetryDelaysMs);
  const transport = selectTransport(config, timeoutMs);
  const outboxLog = log.child({ module: 'email-outbox' });
  // Queued mail keeps its accept token sealed with a key derived from the invitation token key.
  const sealingKey = deriveKey(
    await openSecretKey(storage, INVITE_TOKEN_KEY, config.inviteTokenKey),
    'switchyard/outbox-token-seal/v1',
  );
  const outbox = new OutboxService(
    storage,
    permissions,
    new SecretSealer(sealingKey),
    transport,
    { retryDelaysMs: config.outboxRetryDelaysMs, leaseMs: timeoutMs * 3, from: parseMailbox(config.emailFrom), publicUrl },
    outboxLog,
  );
  if (transport === undefined)
    outboxLog.warn('no email transport configured: invitation mail is held (see the outbox for accept links)');
  return {
    services: { outbox },
    loops: [createOutboxLoop(outbox, config.outboxPollMs, outboxLog)],
    count: async () => ({ email_outbox: await outbox.countOutboxEntries() }),
    close: () => outbox.close(),
  };
}
