import { Collection } from '../../storage/collection.js';
import { Counters } from '../../storage/counters.js';
import type { Storage, Tx } from '../../storage/port.js';
import { terminalJobStatuses, type Job, type JobStatus } from './types.js';

/** The storage wake-up topic of job changes: every daemon's job runner looks again. */
export const JOBS_TOPIC = 'jobs';
export const jobLock = (id: string) => `job:${id}`;
/** The lock of an organization's job submissions and endings (its active-job count is kept under it). */
export const jobIntakeLock = (organizationId: string) => `job-intake:${organizationId}`;

/** The `finished` index's one value: every job that has ended. */
const FINISHED = 'finished';

/** Whether a job in this status counts against `max_active_jobs`. */
function isActive(status: JobStatus | undefined): boolean {
  return status === 'queued' || status === 'running';
}

/** Jobs, with the named queries of their queue, their runner and their purge. */
export class JobStore {
  readonly jobs: Collection<Job>;
  /** Each organization's jobs queued or running, kept by putJob: the quota check reads one record. */
  private readonly activeCounts: Counters;

  constructor(storage: Storage) {
    this.activeCounts = new Counters(storage, 'active_jobs');
    this.jobs = new Collection<Job>(storage, 'jobs', (j) => j.id, [
      { name: 'organization', value: (j) => j.organization_id, sort: (j) => j.created_at },
      { name: 'organization_status', value: (j) => [j.organization_id, j.status], sort: (j) => j.created_at },
      // The queue, oldest first; and running jobs by lease end (takeover).
      { name: 'queue', value: (j) => (j.status === 'queued' ? 'queued' : undefined), sort: (j) => j.created_at },
      { name: 'leases', value: (j) => (j.status === 'running' ? 'running' : undefined), sort: (j) => j.lease_until ?? '' },
      // Ended jobs by when they ended (the purge's range read).
      {
        name: 'finished',
        value: (j) => (terminalJobStatuses.includes(j.status) ? FINISHED : undefined),
        sort: (j) => j.finished_at ?? '',
      },
    ]);
  }

  /** A job to change in `tx`: a copy (the transaction keeps the version it read). */
  async editable(tx: Tx, id: string): Promise<Job | undefined> {
    const job = await tx.get(this.jobs, id);
    return job === undefined ? undefined : structuredClone(job);
  }

  /**
   * Queues the job in `tx` with its organization's count of jobs queued or running. `previous` is its
   * status as read in `tx` (undefined: a new job); a change into or out of those two statuses must be
   * made under jobIntakeLock (the count is read, then written).
   */
  async putJob(tx: Tx, job: Job, previous: JobStatus | undefined): Promise<void> {
    const delta = Number(isActive(job.status)) - Number(isActive(previous));
    await this.activeCounts.add(tx, job.organization_id, delta, () => this.recountActive(job.organization_id, tx));
    if (previous === undefined) tx.insert(this.jobs, job);
    else await tx.put(this.jobs, job);
  }

  /**
   * An organization's jobs queued or running, as `tx` sees them under jobIntakeLock: one record,
   * whatever the count (the quota check costs the same at 0 and at the cap).
   */
  async activeCount(organizationId: string, tx: Tx): Promise<number> {
    return this.activeCounts.read(tx, organizationId, () => this.recountActive(organizationId, tx));
  }

  /**
   * Data from before the count was kept: the organization's jobs queued or running, read once. Under
   * jobIntakeLock no job ends or arrives meanwhile, but one may start: it is in both reads, and
   * counted once by its id (counts added would count it twice; read the other way round, not at all).
   */
  private async recountActive(organizationId: string, tx: Tx): Promise<number> {
    const jobs = this.jobs.in(tx);
    const ids = new Set<string>();
    for (const status of ['queued', 'running'] as const)
      for (const id of await jobs.idsBy('organization_status', [organizationId, status])) ids.add(id);
    return ids.size;
  }

  async queued(limit: number): Promise<string[]> {
    return (await this.jobs.range('queue', 'queued', { limit })).map((e) => e.id);
  }

  /** Running jobs whose lease ended by `upTo` (every one when undefined). */
  async leasesEndedBy(upTo: string | undefined, limit: number): Promise<string[]> {
    return (await this.jobs.range('leases', 'running', { upTo, limit })).map((e) => e.id);
  }

  /** Ids of the jobs that ended before `beforeIso`, longest ended first. */
  async finishedBefore(beforeIso: string, limit: number): Promise<string[]> {
    return (await this.jobs.range('finished', FINISHED, { before: beforeIso, limit })).map((e) => e.id);
  }
}
