import { AppError, notFound } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { EventLog } from '../events/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventKind } from '../events/types.js';
import { isOperator, organizationOf, type Actor } from '../identity/caller.js';
import { atOrganization, type PermissionEngine, type ResourceLocation } from '../identity/permissions.js';
import type { RunError } from '../workflows/types.js';
import type { CreateJobInput, JobListQuery } from './schemas.js';
import type { SettingsService } from '../settings/service.js';
import { jobIntakeLock, jobLock, JOBS_TOPIC, type JobStore } from './store.js';
import { exactly } from '../schemas.js';
import type { JobListItem, JobView } from './schemas.js';
import { terminalJobStatuses, type Job, type JobOutput } from './types.js';
import { assetLock, type AssetService } from '../assets/service.js';

/** The asset calls jobs make: an audio input kept as an asset, artifacts with signed links, a purge. */
export type JobAssets = Pick<AssetService, 'listFor' | 'artifact' | 'expiresIn' | 'save' | 'readBytes' | 'idsOfJob' | 'removeIn'>;

/**
 * A job's input kept in its record at most (as JSON): text, embedding and image inputs. An audio input
 * (up to 25 MiB decoded) is kept as an asset of the job instead, under asset retention, and the record
 * holds a reference: 200 records of 24 MiB each made `GET /v1/jobs` answer 500.
 */
export const MAX_JOB_INPUT_BYTES = 1024 * 1024;

/** Ended jobs removed per purge batch, in one transaction. */
const PURGE_BATCH = 100;

/** Seconds a submission refused at `max_active_jobs` is told to wait (as a full run queue's). */
const ACTIVE_JOBS_RETRY_AFTER_S = 10;

/** The stored input of an audio job: its bytes are the asset's. */
interface AudioInputRef {
  format: string;
  audio_asset_id: string;
  audio_bytes: number;
}

function audioRefOf(job: Pick<Job, 'modality' | 'input'>): AudioInputRef | undefined {
  const input = job.input as Partial<AudioInputRef>;
  return job.modality === 'audio' && typeof input.audio_asset_id === 'string' ? (input as AudioInputRef) : undefined;
}

/**
 * Jobs (contract 12): one provider call without a definition. Submitted here (202), run by the job
 * runner (runner.ts); each stage is an event with `job_id` set, in the transaction of its change.
 */
export class JobService {
  constructor(
    private readonly storage: Storage,
    readonly store: JobStore,
    private readonly permissions: PermissionEngine,
    private readonly eventLog: EventLog,
    private readonly instanceId: string,
    private readonly metrics: Pick<Metrics, 'workEnded'>,
    private readonly assets: JobAssets,
    /** The organization's `max_active_jobs`. */
    private readonly settings: Pick<SettingsService, 'resolveSettings'>,
  ) {}

  /** The job as shown; a completed one with its artifacts, links valid `seconds` (default: an hour). */
  async viewOfJob(job: Job, seconds = this.assets.expiresIn(undefined)): Promise<JobView> {
    const { lease_until: _lease, ...view } = job;
    const input = audioRefOf(job)?.audio_asset_id;
    const artifacts =
      job.status === 'completed'
        ? (await this.assets.listFor({ job_id: job.id }))
            .filter((a) => a.id !== input)
            .map((a) => this.assets.artifact(a, seconds))
        : [];
    return exactly<JobView>()({ ...view, artifacts });
  }

  /** The input to send the provider: an audio job's bytes read back from its asset. */
  async providerInput(job: Job): Promise<Record<string, unknown>> {
    const ref = audioRefOf(job);
    if (ref === undefined) return job.input;
    const bytes = await this.assets.readBytes(ref.audio_asset_id);
    if (bytes === undefined)
      throw new AppError('validation_failed', "the job's audio input is gone (asset retention, SERVICE_ASSET_RETENTION_MS)");
    return { audio_base64: bytes.toString('base64'), format: ref.format };
  }

  /** Contract 13: a job's output and its artifacts with fresh signed links valid `expiresIn` seconds (default an hour). */
  async jobOutput(actor: Actor, id: string, expiresIn?: number): Promise<JobOutput> {
    const seconds = this.assets.expiresIn(expiresIn);
    const { id: jobId, status, output, artifacts } = await this.viewOfJob(await this.readJob(actor, id), seconds);
    return { job_id: jobId, status, output, artifacts };
  }

  private async readJob(actor: Actor, id: string): Promise<Job> {
    const job = await this.store.jobs.get(id);
    await this.permissions.authorizeAt(actor, 'job.read', { type: 'job', id }, job && atOrganization(job.organization_id));
    return job!;
  }

  /** Jobs queued and running, counted up to 100,000 each (metrics). */
  async queueFigures(): Promise<{ jobsQueued: number; jobsRunning: number }> {
    return {
      jobsQueued: await this.store.jobs.countRange('queue', 'queued', { limit: 100_000 }),
      jobsRunning: await this.store.jobs.countRange('leases', 'running', { limit: 100_000 }),
    };
  }

  async locateJob(id: string): Promise<ResourceLocation | undefined> {
    const job = await this.store.jobs.get(id);
    return job === undefined ? undefined : atOrganization(job.organization_id);
  }

  async createJob(actor: Actor, body: CreateJobInput): Promise<JobView> {
    const organizationId = organizationOf(actor, body.organization_id);
    await this.permissions.authorize(actor, 'job.write', { type: 'organization', id: organizationId });
    if (body.modality !== 'audio' && Buffer.byteLength(JSON.stringify(body.input)) > MAX_JOB_INPUT_BYTES)
      throw new AppError('payload_too_large', `a ${body.modality} job's input is at most ${MAX_JOB_INPUT_BYTES} bytes as JSON`, {
        details: {
          fields: { input: `at most ${MAX_JOB_INPUT_BYTES} bytes as JSON` },
          limit: 'job_input_bytes',
          max: MAX_JOB_INPUT_BYTES,
        },
      });
    const now = nowIso();
    const job: Job = {
      id: newId(),
      organization_id: organizationId,
      status: 'queued',
      modality: body.modality,
      tier: body.tier ?? null,
      model: body.model ?? null,
      input: body.input,
      params: body.params ?? {},
      state: body.state ?? null,
      provider: null,
      output: null,
      error: null,
      submitted_by: isOperator(actor)
        ? { principal_id: null, api_key_id: null }
        : { principal_id: actor.principalId, api_key_id: actor.apiKey?.id ?? null },
      created_at: now,
      started_at: null,
      finished_at: null,
      updated_at: now,
      instance_id: null,
      lease_until: null,
    };
    await this.storage.transaction({ locks: [jobIntakeLock(organizationId)] }, async (tx) => {
      const max = (await this.settings.resolveSettings(organizationId, tx)).max_active_jobs;
      if ((await this.store.activeCount(organizationId, tx)) >= max)
        throw new AppError(
          'rate_limited',
          `the organization has ${max} jobs queued or running, the most it may have (max_active_jobs); try again as they end`,
          { retryAfterSeconds: ACTIVE_JOBS_RETRY_AFTER_S, details: { limit: 'max_active_jobs', max } },
        );
      if (job.modality === 'audio') {
        const { audio_base64, format } = job.input as { audio_base64: string; format: string };
        const bytes = Buffer.from(audio_base64, 'base64');
        const asset = await this.assets.save(
          tx,
          { organization_id: organizationId, job_id: job.id },
          { filename: `input.${format}`, content_type: `audio/${format}`, bytes },
        );
        job.input = { format, audio_asset_id: asset.id, audio_bytes: bytes.length } satisfies AudioInputRef;
      }
      await this.store.putJob(tx, job, undefined);
      this.emit(tx, job, 'job.created', { modality: job.modality });
      tx.wake(JOBS_TOPIC);
    });
    return this.viewOfJob(job);
  }

  async getJob(actor: Actor, id: string): Promise<JobView> {
    return this.viewOfJob(await this.readJob(actor, id));
  }

  /**
   * Jobs of an organization, oldest first (newest first with `reverse`, as the portal lists them); by
   * status. Lists never carry inputs or outputs (an output is up to the provider answer limit, 200 of
   * them a page): GET one job, or its output, for them.
   */
  async listJobs(
    actor: Actor,
    query: JobListQuery,
    { reverse = false }: Pick<PageOptions, 'reverse'> = {},
  ): Promise<Page<JobListItem>> {
    const organizationId = organizationOf(actor, query.organization_id);
    await this.permissions.authorize(actor, 'job.read', { type: 'organization', id: organizationId });
    const page = { limit: query.limit, cursor: query.cursor, reverse };
    const found =
      query.status === undefined
        ? await this.store.jobs.listBy('organization', organizationId, page)
        : await this.store.jobs.listBy('organization_status', [organizationId, query.status], page);
    const items = await Promise.all(
      found.items.map(async (job) => {
        const { input: _input, output: _output, ...listed } = await this.viewOfJob(job);
        return listed;
      }),
    );
    return { items, nextCursor: found.nextCursor };
  }

  /** Cancel: a job not yet ended ends `cancelled`; a call in flight is stopped by the daemon running it. */
  async cancelJob(actor: Actor, id: string): Promise<JobView> {
    const found = await this.store.jobs.get(id);
    await this.permissions.authorizeAt(actor, 'job.write', { type: 'job', id }, found && atOrganization(found.organization_id));
    if (found === undefined) throw notFound('job');
    // The organization's intake lock too: the job leaves its count of jobs queued or running.
    const locks = [jobLock(id), jobIntakeLock(found.organization_id)];
    const cancelled = await this.storage.transaction({ locks }, async (tx) => {
      const job = await this.store.editable(tx, id);
      if (job === undefined) throw notFound('job');
      const previous = job.status;
      if (terminalJobStatuses.includes(previous))
        throw new AppError('invalid_state', `cannot cancel a job that is ${previous}`, { details: { status: previous } });
      this.end(tx, job, 'cancelled');
      await this.store.putJob(tx, job, previous);
      tx.wake(JOBS_TOPIC);
      return job;
    });
    return this.viewOfJob(cancelled);
  }

  /**
   * Removes the jobs that ended (completed, failed, cancelled) `retentionMs` ago or longer, record
   * (input and output with it) and assets, up to `limit` of them in one transaction of the background
   * lane: the purge loop's work. Answers how many went and whether a full batch was found (more may wait).
   */
  async purgeEnded(retentionMs: number, limit = PURGE_BATCH): Promise<{ removed: number; more: boolean }> {
    const cutoff = new Date(Date.now() - retentionMs).toISOString();
    const ids = await this.store.finishedBefore(cutoff, limit);
    if (ids.length === 0) return { removed: 0, more: false };
    // An ended job makes no more assets, so the ids read now are all it will ever have.
    const assetIds = (await Promise.all(ids.map((id) => this.assets.idsOfJob(id)))).flat();
    const locks = [...ids.map(jobLock), ...assetIds.map(assetLock)];
    const removed = await this.storage.background.transaction({ locks }, async (tx) => {
      const gone = new Set<string>();
      for (const job of await tx.getMany(this.store.jobs, ids)) {
        if (job === undefined || !terminalJobStatuses.includes(job.status) || (job.finished_at ?? '') >= cutoff) continue;
        await tx.delete(this.store.jobs, job.id);
        gone.add(job.id);
      }
      await this.assets.removeIn(tx, assetIds, (asset) => asset.job_id !== null && gone.has(asset.job_id));
      return gone.size;
    });
    return { removed, more: ids.length === limit };
  }

  /** Ends a job; completed and failed have their event (the catalog has no job.cancelled). */
  end(tx: Tx, job: Job, status: 'completed' | 'failed' | 'cancelled', error?: RunError): void {
    job.status = status;
    job.finished_at = nowIso();
    job.updated_at = job.finished_at;
    job.lease_until = null;
    job.error = error ?? null;
    job.instance_id ??= this.instanceId;
    tx.afterCommit(() => this.metrics.workEnded('job', status));
    const ending = { state: job.state, instance_id: job.instance_id };
    if (status === 'completed') this.emit(tx, job, 'job.completed', { ...ending, provider: job.provider, output: job.output });
    if (status === 'failed') this.emit(tx, job, 'job.failed', { ...ending, error });
  }

  /** Appends the job's event; its payload is typed by the event catalog. */
  emit<K extends EventKind>(tx: Tx, job: Job, kind: K, payload: EventPayload<K>): void {
    this.eventLog.append(tx, { kind, organization_id: job.organization_id, job_id: job.id, payload });
  }
}
