import type { Logger } from '../../log.js';
import { Loop, sweepBatches } from '../../loops/loop.js';
import type { WorkflowService } from './service.js';

/**
 * Waiting runs expire (issue 33: 13,453 runs were left waiting forever): a run still waiting for input
 * at its deadline (its organization's run_wait_timeout_seconds, at most SERVICE_RUN_WAIT_TIMEOUT_MS,
 * `timeoutMs`) fails with error `expired`. The loop looks every sweep period and when the next waiting
 * run it knows of falls due (a run that begins to wait later is seen by the next sweep).
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
      let nextDueAt: number | undefined;
      const left = await sweepBatches(async () => {
        const swept = await workflows.expireWaitingRuns(options.timeoutMs);
        if (swept.expired > 0) log.info({ expired: swept.expired }, 'waiting runs expired');
        nextDueAt = swept.nextDueAt;
        return swept;
      });
      // Work left over: the next tick at once; else when the next waiting run falls due.
      return left ? Date.now() : nextDueAt;
    },
  });
}
