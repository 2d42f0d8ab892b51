import type { Logger } from '../../log.js';
import { Loop, sweepBatches } from '../../loops/loop.js';
import type { JobService } from './service.js';

/**
 * The ended-job purge (docs/workflows.md "Jobs"): every SERVICE_JOB_SWEEP_MS, jobs that ended
 * SERVICE_JOB_RETENTION_MS ago or longer are removed with their input, output and assets.
 */
export function createJobPurgeLoop(jobs: JobService, options: { retentionMs: number; sweepMs: number }, log: Logger): Loop {
  return new Loop({
    name: 'job-purge',
    intervalMs: options.sweepMs,
    log,
    tick: async () => {
      await sweepBatches(async () => {
        const purged = await jobs.purgeEnded(options.retentionMs);
        if (purged.removed > 0) log.info({ removed: purged.removed }, 'ended jobs removed');
        return purged;
      });
    },
  });
}
