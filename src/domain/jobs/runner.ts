import { setMaxListeners } from 'node:events';
import { describeError, isAppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import { nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { ExecuteBody } from '../providers/schemas.js';
import type { ExecuteResult, ProviderService } from '../providers/service.js';
import { setLeaseEnds, takeOverEnded } from '../leases.js';
import type { JobService } from './service.js';
import { jobIntakeLock, jobLock, JOBS_TOPIC, type JobStore } from './store.js';
import type { Job } from './types.js';

export interface JobRunnerSettings {
  instanceId: string;
  /** A running job's lease: renewed while its daemon lives, taken over by another once it ends. */
  leaseMs: number;
  /** Jobs in flight on one daemon at once. */
  maxInFlight: number;
}

/** Keeps what a provider answered (images become assets of the job). */
export type JobOutputKeeper = (tx: Tx, job: Job, result: ExecuteResult) => Promise<Record<string, unknown>>;

/**
 * Runs queued jobs on this daemon, up to a bound at once: each is leased here with `job.started`,
 * called through the provider layer for its submitter, and ended with `job.completed` or
 * `job.failed` in one transaction. Leases are renewed while the call goes on; a job whose daemon
 * died is started again elsewhere once its lease ends; a cancelled job's call stops.
 */
export class JobRunner {
  private readonly inFlight = new Map<string, AbortController>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private renewedAt = 0;

  constructor(
    private readonly storage: Storage,
    private readonly store: JobStore,
    private readonly jobs: JobService,
    private readonly providers: ProviderService,
    private readonly keep: JobOutputKeeper,
    private readonly settings: JobRunnerSettings,
    private readonly log: Logger,
  ) {
    setMaxListeners(0, this.stopping.signal);
  }

  get busy(): number {
    return this.inFlight.size;
  }

  async tick(): Promise<number> {
    await this.providers.probedOnce();
    const now = Date.now();
    await this.stopCancelled();
    if (now - this.renewedAt >= this.settings.leaseMs / 3) {
      await this.renewLeases();
      this.renewedAt = now;
    }
    await this.takeOver(now);
    await this.startQueued();
    return now + this.settings.leaseMs / 3;
  }

  /** Shutdown: calls stop unrecorded; their leases end now, so another daemon starts them again at once. */
  async drain(): Promise<void> {
    this.stopping.abort();
    const held = [...this.inFlight.keys()];
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
    await setLeaseEnds(this.storage, this.store.jobs, held, jobLock, this.settings.instanceId, nowIso()).catch((err: unknown) =>
      this.log.warn({ err }, 'job leases could not be released'),
    );
  }

  private async stopCancelled(): Promise<void> {
    if (this.inFlight.size === 0) return;
    const ids = [...this.inFlight.keys()];
    const jobs = await this.store.jobs.getMany(ids);
    ids.forEach((id, i) => {
      const job = jobs[i];
      if (job?.status !== 'running' || job.instance_id !== this.settings.instanceId) this.inFlight.get(id)?.abort();
    });
  }

  private async renewLeases(): Promise<void> {
    await setLeaseEnds(this.storage, this.store.jobs, this.inFlight.keys(), jobLock, this.settings.instanceId, this.leaseEnd());
  }

  private leaseEnd(): string {
    return new Date(Date.now() + this.settings.leaseMs).toISOString();
  }

  private room(): number {
    return this.settings.maxInFlight - this.inFlight.size;
  }

  /** Jobs whose daemon stopped renewing their lease start again here (the call is made again). */
  private async takeOver(now: number): Promise<void> {
    const taken = await takeOverEnded(
      this.storage,
      this.store.jobs,
      (upTo, limit) => this.store.leasesEndedBy(upTo, limit),
      { held: this.inFlight, limit: this.room(), lockOf: jobLock, now },
      (job) => {
        this.log.info({ job_id: job.id, previous_instance: job.instance_id }, 'taking over a job whose daemon stopped');
        job.instance_id = this.settings.instanceId;
        job.lease_until = this.leaseEnd();
        job.updated_at = nowIso();
      },
    );
    for (const job of taken) this.launch(job);
  }

  private async startQueued(): Promise<void> {
    if (this.room() <= 0) return;
    for (const id of await this.store.queued(this.room())) {
      const job = await this.storage.transaction({ locks: [jobLock(id)] }, async (tx) => {
        const job = await this.store.editable(tx, id);
        if (job?.status !== 'queued') return undefined;
        job.status = 'running';
        job.started_at = nowIso();
        job.updated_at = job.started_at;
        job.instance_id = this.settings.instanceId;
        job.lease_until = this.leaseEnd();
        this.jobs.emit(tx, job, 'job.started', { instance_id: job.instance_id });
        // Still active: its organization's count does not change (no intake lock needed).
        await this.store.putJob(tx, job, 'queued');
        return job;
      });
      if (job !== undefined) this.launch(job);
    }
  }

  private launch(job: Job): void {
    const controller = new AbortController();
    const onStop = () => controller.abort();
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    this.inFlight.set(job.id, controller);
    const task = this.call(job, controller.signal)
      .then(async (outcome) => {
        if (outcome !== undefined && !this.stopping.signal.aborted) await this.record(job, outcome);
      })
      .catch((err: unknown) => this.log.error({ err, job_id: job.id }, 'job outcome could not be recorded'))
      .finally(() => {
        this.stopping.signal.removeEventListener('abort', onStop);
        this.inFlight.delete(job.id);
        this.tasks.delete(task);
      });
    this.tasks.add(task);
  }

  private async call(
    job: Job,
    signal: AbortSignal,
  ): Promise<{ ok: true; result: ExecuteResult } | { ok: false; error: { code: string; message: string } } | undefined> {
    const payer = {
      organizationId: job.organization_id,
      principalId: job.submitted_by.principal_id,
      apiKeyId: job.submitted_by.api_key_id,
    };
    try {
      const body: ExecuteBody = {
        modality: job.modality,
        ...(job.tier === null ? {} : { tier: job.tier }),
        ...(job.model === null ? {} : { model: job.model }),
        input: await this.jobs.providerInput(job),
        params: job.params,
      };
      return { ok: true, result: await this.providers.executeFor(payer, body, signal) };
    } catch (err) {
      if (signal.aborted) return undefined;
      if (!isAppError(err)) this.log.error({ err, job_id: job.id }, 'job failed unexpectedly');
      const { code, message } = describeError(err);
      return { ok: false, error: { code, message } };
    }
  }

  private async record(
    { id, organization_id }: Job,
    outcome: { ok: true; result: ExecuteResult } | { ok: false; error: { code: string; message: string } },
  ): Promise<void> {
    // The organization's intake lock too: the job leaves its count of jobs queued or running.
    await this.storage.transaction({ locks: [jobLock(id), jobIntakeLock(organization_id)] }, async (tx) => {
      const job = await this.store.editable(tx, id);
      // Cancelled meanwhile, or started again elsewhere: the record already says what happened.
      if (job?.status !== 'running' || job.instance_id !== this.settings.instanceId) return;
      if (outcome.ok) {
        job.provider = outcome.result.provider;
        job.output = await this.keep(tx, job, outcome.result);
        this.jobs.end(tx, job, 'completed');
      } else this.jobs.end(tx, job, 'failed', outcome.error);
      await this.store.putJob(tx, job, 'running');
      tx.wake(JOBS_TOPIC);
    });
  }
}

/** The job runner's loop: woken by every job change on any daemon, and at least every `pollMs`. */
export function createJobLoop(runner: JobRunner, storage: Storage, pollMs: number, log: Logger): Loop {
  const loop = new Loop({ name: 'jobs', intervalMs: pollMs, immediate: true, tick: () => runner.tick(), log });
  storage.onWake(JOBS_TOPIC, () => loop.wake());
  return loop;
}
