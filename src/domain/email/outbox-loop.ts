import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { OutboxService } from './outbox.js';

/**
 * The outbox poller: every SERVICE_OUTBOX_POLL_MS, and right away when woken (a mail was queued, by
 * this daemon or another sharing the storage) or when the next retry falls due before the next poll.
 * The first tick runs at start, so mail left by a stopped daemon goes out at once.
 */
export function createOutboxLoop(outbox: OutboxService, intervalMs: number, log: Logger): Loop {
  let dueTimer: NodeJS.Timeout | undefined;
  const loop: Loop = new Loop({
    name: 'email-outbox',
    intervalMs,
    immediate: true,
    log,
    tick: async () => {
      const nextDueAt = await outbox.sendDueMail();
      if (dueTimer !== undefined) clearTimeout(dueTimer);
      dueTimer = undefined;
      if (nextDueAt !== undefined && nextDueAt - Date.now() < intervalMs) {
        dueTimer = setTimeout(() => loop.wake(), Math.max(0, nextDueAt - Date.now()));
        dueTimer.unref();
      }
    },
  });
  // Deferred to a timer: a tick that has just ended has released the loop by then, and one still
  // running remembers the wake (Loop.wake) and runs again right after. Wakes that arrive together
  // (this daemon's own and the storage's, for one commit) make one.
  let wakePending = false;
  outbox.onWake(() => {
    if (wakePending) return;
    wakePending = true;
    setTimeout(() => {
      wakePending = false;
      loop.wake();
    }, 0).unref();
  });
  return loop;
}
