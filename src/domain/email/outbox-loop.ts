import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { OutboxService } from './outbox.js';

/**
 * The outbox poller: every SERVICE_OUTBOX_POLL_MS, right away when woken (a mail was queued, by this
 * daemon or another sharing the storage), and when the next retry falls due before the next poll.
 * The first tick runs at start, so mail left by a stopped daemon goes out at once.
 */
export function createOutboxLoop(outbox: OutboxService, intervalMs: number, log: Logger): Loop {
  const loop = new Loop({ name: 'email-outbox', intervalMs, immediate: true, log, tick: () => outbox.sendDueMail() });
  outbox.onWake(() => loop.wakeSoon());
  return loop;
}
