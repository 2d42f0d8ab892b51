import { Collection } from '../../storage/collection.js';
import type { Storage, Tx } from '../../storage/port.js';
import { terminalJobStatuses, type Job } from './types.js';

/** The storage wake-up topic of job changes: every daemon's job runner looks again. */
export const JOBS_TOPIC = 'jobs';
export const jobLock = (id: string) => `job:${id}`;
/** The lock of an organization's job submissions (its active jobs are counted under it). */
export const jobIntakeLock = (organizationId: string) => `job-intake:${organizationId}`;

/** The `finished` index's one value: every job that has ended. */
const FINISHED = 'finished';

/** Jobs, with the named queries of their queue, their runner and their purge. */
export class JobStore {
  readonly jobs: Collection<Job>;

  constructor(storage: Storage) {
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
   * An organization's jobs queued or running, counted up to `max`. The two reads are not one
   * snapshot: a job that starts between them is in both, and counted once by its id (counts added
   * would count it twice, and refuse a submission under the cap; read the other way round they
   * would miss it).
   */
  async activeCount(organizationId: string, max: number, tx?: Tx): Promise<number> {
    const jobs = this.jobs.in(tx);
    const ids = new Set<string>();
    for (const status of ['queued', 'running'] as const)
      for (const { id } of await jobs.range('organization_status', [organizationId, status], { limit: max })) ids.add(id);
    return Math.min(ids.size, max);
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
