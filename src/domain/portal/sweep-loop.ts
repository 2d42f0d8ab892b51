import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { PortalService } from './service.js';

/** Full batches in a row per tick before yielding to the next interval. */
const MAX_BATCHES_PER_TICK = 20;

/**
 * The portal session sweep (docs/portal.md): every SERVICE_PORTAL_SWEEP_MS, the records of sessions
 * and links that ended SERVICE_PORTAL_KEEP_ENDED_MS ago or longer are removed.
 */
export function createPortalSweepLoop(
  portal: PortalService,
  options: { keepEndedMs: number; sweepMs: number },
  log: Logger,
): Loop {
  return new Loop({
    name: 'portal-session-sweep',
    intervalMs: options.sweepMs,
    log,
    tick: async () => {
      for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) {
        const { removed, more } = await portal.sweepEnded(options.keepEndedMs);
        if (removed > 0) log.info({ removed }, 'ended portal sessions removed');
        if (!more) return;
      }
    },
  });
}
