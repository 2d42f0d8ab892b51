import type { SettingsServices } from '../settings/index.js';
import type { Area, AreaBase } from '../area.js';
import { SecretSealer } from '../secret-sealer.js';
import type { IdentityServices } from '../identity/index.js';
import { deriveKey, openSecretKey } from '../secrets.js';
import { createFanoutLoop, WebhookFanout } from './fanout.js';
import { createSenderLoop, WebhookSender } from './sender.js';
import { WebhookService } from './service.js';
import type { Transport } from './attempt.js';

export interface WebhookServices {
  webhooks: WebhookService;
  webhookSender: WebhookSender;
  webhookFanout: WebhookFanout;
}

/** The key webhook secrets are sealed with at rest (generated once, kept in the meta store). */
const WEBHOOK_SEAL_KEY = 'webhook_seal_key';
/**
 * Attempts in flight at once, all webhooks together and to one webhook (a quarter of them, so one
 * slow receiver cannot take every slot; one that answers quickly may borrow idle ones), and keep-alive
 * connections per origin: one per attempt that may be in flight, so an attempt never waits in the
 * client for a connection while its timeout runs (several webhooks may share an origin, and one may
 * borrow up to MAX_IN_FLIGHT - MAX_PER_WEBHOOK). Why these figures: docs/webhooks.md.
 */
export const MAX_IN_FLIGHT = 256;
export const MAX_PER_WEBHOOK = 64;
/**
 * Attempts in flight at once for one organization, all its webhooks together: half the slots, so one
 * tenant whose receivers never answer leaves the other half to the others (issue 33); one that answers
 * quickly borrows idle slots as a webhook does.
 */
export const MAX_PER_ORGANIZATION = MAX_IN_FLIGHT / 2;
const CONNECTIONS_PER_ORIGIN = MAX_IN_FLIGHT;
/** Loops also run this often without being woken (a lost wake-up costs at most this much). */
const POLL_MS = 1_000;

/** Webhooks (spec 2.7-2.8, 3.3-3.4, 4.5, 6; contract 7): subscriptions, fan-out, signed delivery. */
export async function createWebhooks({
  storage,
  config,
  log,
  eventLog,
  audit,
  permissions,
  metrics,
  settings: organizationSettings,
}: AreaBase & Pick<IdentityServices, 'permissions'> & Pick<SettingsServices, 'settings'>): Promise<Area<WebhookServices>> {
  const webhookLog = log.child({ module: 'webhooks' });
  const sealer = new SecretSealer(
    deriveKey(await openSecretKey(storage, WEBHOOK_SEAL_KEY, undefined), 'switchyard/webhook-secret-seal/v1'),
  );
  const settings = {
    production: config.env === 'production',
    allowPrivate: config.webhookAllowPrivate,
    maxPerOrganization: config.webhookMaxPerOrganization,
  };
  const webhooks = new WebhookService(storage, permissions, sealer, settings, audit, eventLog, webhookLog, organizationSettings);
  // undici loads with the first attempt: a daemon without webhooks never holds it.
  let transport: Promise<Transport> | undefined;
  const openTransport = (): Promise<Transport> =>
    (transport ??= import('./dispatcher.js').then(({ createGuardedDispatcher, post }) => ({
      post,
      dispatcher: createGuardedDispatcher({
        allowPrivate: config.webhookAllowPrivate,
        connectTimeoutMs: config.webhookTimeoutMs,
        connectionsPerOrigin: CONNECTIONS_PER_ORIGIN,
      }),
    })));
  // The sender and the fan-out are the loops' work: their transactions take the background lane's connections.
  const sender = new WebhookSender(
    storage.background,
    webhooks,
    eventLog,
    openTransport,
    {
      timeoutMs: config.webhookTimeoutMs,
      retryBaseMs: config.webhookRetryBaseMs,
      maxInFlight: MAX_IN_FLIGHT,
      maxPerWebhook: MAX_PER_WEBHOOK,
      maxPerOrganization: MAX_PER_ORGANIZATION,
    },
    webhookLog,
    metrics,
  );
  const fanout = new WebhookFanout(storage.background, eventLog, webhooks.store, webhookLog, sender);
  sender.onSlotsFree(() => fanout.noteSlotsFree());
  await fanout.init();
  const senderLoop = createSenderLoop(sender, storage.background, POLL_MS, webhookLog);
  return {
    services: { webhooks, webhookSender: sender, webhookFanout: fanout },
    loops: [createFanoutLoop(fanout, storage.background, POLL_MS, webhookLog), senderLoop],
    resources: { webhook: (id) => webhooks.locateWebhook(id) },
    count: () => webhooks.countWebhooks(),
    close: async () => {
      await sender.drain();
      if (transport !== undefined) await (await transport).dispatcher.close();
    },
  };
}
