import type { Logger } from '../../log.js';
import { Loop, sweepBatches } from '../../loops/loop.js';
import type { PortalService } from './service.js';

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
      await sweepBatches(async () => {
        const swept = await portal.sweepEnded(options.keepEndedMs);
        if (swept.removed > 0) log.info({ removed: swept.removed }, 'ended portal sessions removed');
        return swept;
      });
    },
  });
}
