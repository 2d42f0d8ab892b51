import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { WorkflowService } from './service.js';

/** Full batches in a row per tick before yielding to the next interval. */
const MAX_BATCHES_PER_TICK = 20;

/**
 * Waiting runs expire (issue 33: 13,453 runs were left waiting forever): a run waiting for input
 * SERVICE_RUN_WAIT_TIMEOUT_MS fails with error `expired`. The loop looks every sweep period and when
 * the next waiting run it knows of falls due (a run that begins to wait later is seen by the next sweep).
 */
export function createWaitExpiryLoop(
  workflows: WorkflowService,
  options: { timeoutMs: number; sweepMs: number },
  log: Logger,
): Loop {
  return new Loop({
    name: 'workflow-wait-expiry',
    intervalMs: options.sweepMs,
    immediate: true,
    log,
    tick: async () => {
      for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) {
        const { expired, more, nextDueAt } = await workflows.expireWaitingRuns(options.timeoutMs);
        if (expired > 0) log.info({ expired }, 'waiting runs expired');
        if (!more) return nextDueAt;
      }
      return Date.now();
    },
  });
}
