import { randomUUID } from 'node:crypto';
import type { Area, AreaBase } from '../area.js';
import type { AssetServices } from '../assets/index.js';
import type { IdentityServices } from '../identity/index.js';
import type { ProviderServices } from '../providers/index.js';
import type { SettingsServices } from '../settings/index.js';
import { createJobLoop, JobRunner, type JobOutputKeeper } from './runner.js';
import { createJobPurgeLoop } from './purge-loop.js';
import { JobService } from './service.js';
import { JobStore } from './store.js';

export interface JobServices {
  jobs: JobService;
  jobRunner: JobRunner;
}

/** Jobs running at once on one daemon (docs/workflows.md). */
const MAX_JOBS_IN_FLIGHT = 16;

/** Jobs (contract 12): single provider calls in the background, with their events. */
export function createJobs({
  storage,
  config,
  log,
  eventLog,
  permissions,
  providers,
  assets,
  metrics,
  settings,
}: AreaBase &
  Pick<SettingsServices, 'settings'> &
  Pick<IdentityServices, 'permissions'> &
  Pick<ProviderServices, 'providers'> &
  Pick<AssetServices, 'assets'>): Area<JobServices> {
  const jobLog = log.child({ module: 'jobs' });
  const instanceId = randomUUID();
  const store = new JobStore(storage);
  const jobs = new JobService(storage, store, permissions, eventLog, instanceId, metrics, assets, settings);
  // Images a job makes become its assets, kept with its outcome; the output names them.
  const keep: JobOutputKeeper = async (tx, job, result) =>
    (await assets.keepOutput(tx, { organization_id: job.organization_id, job_id: job.id }, result.output, 'output')).output;
  // The runner is the job loop's work: its transactions take the background lane's connections.
  const runner = new JobRunner(
    storage.background,
    store,
    jobs,
    providers,
    keep,
    { instanceId, leaseMs: config.workflowLeaseMs, maxInFlight: MAX_JOBS_IN_FLIGHT },
    jobLog,
  );
  return {
    services: { jobs, jobRunner: runner },
    loops: [
      createJobLoop(runner, storage.background, config.workflowPollMs, jobLog),
      createJobPurgeLoop(jobs, { retentionMs: config.jobRetentionMs, sweepMs: config.jobSweepMs }, jobLog),
    ],
    resources: { job: (id) => jobs.locateJob(id) },
    count: async () => ({ jobs: await store.jobs.count() }),
    close: () => runner.drain(),
  };
}
