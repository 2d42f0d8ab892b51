import { AppError, limitReached, notFound, validationFailed } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { AssetService } from '../assets/service.js';
import type { Artifact } from '../assets/types.js';
import type { AuditLog } from '../audit/service.js';
import type { EventLog } from '../events/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { DomainEvent, EventKind } from '../events/types.js';
import { isOperator, organizationOf, type Actor } from '../identity/caller.js';
import { atOrganization, type Action, type PermissionEngine, type ResourceLocation } from '../identity/permissions.js';
import { resolveNodes } from './definition.js';
import type { SettingsService } from '../settings/service.js';
import type { RunStreams } from './streams.js';
import { exactly } from '../schemas.js';
import type {
  CreateWorkflowInput,
  RunInputBody,
  RunListQuery,
  RunView,
  ScheduleBody,
  SubmitRunInput,
  WorkflowView,
} from './schemas.js';
import {
  RUNS_TOPIC,
  runIntakeLock,
  runLock,
  scheduleCountLock,
  slotsLock,
  workflowCountLock,
  workflowNameLock,
  type WorkflowStore,
} from './store.js';
import {
  terminalRunStatuses,
  type NodeState,
  type RunError,
  type RunStatus,
  type Submitter,
  type WorkflowDefinition,
  type WorkflowRun,
} from './types.js';

/** Overdue waiting runs ended per expiry batch, each in its own transaction. */
const EXPIRY_BATCH = 100;

function viewOfWorkflow(d: WorkflowDefinition): WorkflowView {
  const { deleted_at: _deleted, ...view } = d;
  return exactly<WorkflowView>()(view);
}

export function viewOfRun(run: WorkflowRun): RunView {
  const { lease_until: _lease, ...view } = run;
  return exactly<RunView>()({ ...view, wait_expires_at: run.wait_expires_at ?? null });
}

const pendingNode = (): NodeState => ({
  status: 'pending',
  provider: null,
  output: null,
  error: null,
  started_at: null,
  finished_at: null,
});

/** Spec 2.10's run output object. */
export interface RunOutput {
  run_id: string;
  status: RunStatus;
  output: Record<string, unknown>;
  artifacts: Artifact[];
}

/** Options of a run the daemon submits itself (a schedule's). */
export interface SubmitOptions {
  scheduleId?: string;
  /** Whom the run is for, when not the actor (a schedule's runs: its creator). */
  submitter?: Submitter;
}

/** Writes the schedules a registration carries, in its transaction (schedules.ts). */
export type RegistrationSchedules = (
  tx: Tx,
  actor: Actor,
  definition: WorkflowDefinition,
  schedules: ScheduleBody[],
) => Promise<void>;

/**
 * Workflow definitions and runs (contract 12): registration, submission, the run actions, and the
 * events of every stage, each written in the transaction that makes the change. The executor
 * (executor.ts) moves runs along; this class is what callers ask for.
 */
export class WorkflowService {
  constructor(
    private readonly storage: Storage,
    readonly store: WorkflowStore,
    private readonly permissions: PermissionEngine,
    private readonly eventLog: EventLog,
    private readonly audit: AuditLog,
    private readonly assets: AssetService,
    private readonly publicUrl: () => string,
    /** This daemon's instance (named by terminal events of runs it ends while not running them). */
    private readonly instanceId: string,
    private readonly metrics: Pick<Metrics, 'workEnded'>,
    /** Live run event streams: their caps and wake-ups. */
    readonly streams: RunStreams,
    /** The organization's workflow caps (max_workflows, max_queued_runs, max_waiting_runs) and wait timeout. */
    private readonly settings: Pick<SettingsService, 'resolveSettings' | 'runWaitTimeoutMs'>,
  ) {}

  /** Runs queued and running, counted up to 100,000 each (metrics). */
  async queueFigures(): Promise<{ runsQueued: number; runsRunning: number }> {
    return {
      runsQueued: await this.store.runs.countRange('queued_orgs', 'queued', { limit: 100_000 }),
      runsRunning: await this.store.runs.countRange('leases', 'running', { limit: 100_000 }),
    };
  }
  /** Set where the area is composed (index.ts): schedules.ts writes a registration's schedules. */
  writeSchedules: RegistrationSchedules = () => Promise.reject(new TypeError('workflow schedules are not composed'));

  async locateRun(id: string): Promise<ResourceLocation | undefined> {
    const run = await this.store.runs.get(id);
    return run === undefined ? undefined : atOrganization(run.organization_id);
  }

  // Definitions.

  async createWorkflow(actor: Actor, input: CreateWorkflowInput): Promise<WorkflowView> {
    const organizationId = organizationOf(actor, input.organization_id);
    await this.permissions.authorize(actor, 'workflow.write', { type: 'organization', id: organizationId });
    const nodes = resolveNodes(input.nodes);
    const locks = [workflowNameLock(organizationId, input.name), workflowCountLock(organizationId)];
    if (input.schedules !== undefined) locks.push(scheduleCountLock(organizationId));
    const saved = await this.storage.transaction({ locks }, async (tx) => {
      const before = await this.store.findDefinition(organizationId, input.name, tx);
      if (before === undefined) {
        const max = (await this.settings.resolveSettings(organizationId, tx)).max_workflows;
        if ((await this.store.definitionCount(organizationId, max, tx)) >= max)
          throw limitReached(
            'max_workflows',
            max,
            'name',
            `a new workflow would pass max_workflows (${max}); delete one or register a new version`,
            `the organization has ${max} workflows, the most it may have (max_workflows)`,
          );
      }
      const now = nowIso();
      const next: WorkflowDefinition =
        before === undefined
          ? {
              id: newId(),
              organization_id: organizationId,
              name: input.name,
              version: 1,
              nodes,
              created_at: now,
              updated_at: now,
              deleted_at: null,
            }
          : { ...before, version: before.version + 1, nodes, updated_at: now };
      this.audit.recordChange(tx, actor, before === undefined ? 'workflow.create' : 'workflow.update', 'workflow', before, next);
      const saved = await tx.put(this.store.definitions, next);
      if (input.schedules !== undefined) await this.writeSchedules(tx, actor, saved, input.schedules);
      return saved;
    });
    return viewOfWorkflow(saved);
  }

  async listWorkflows(
    actor: Actor,
    given: string | undefined,
    page: { limit?: number; cursor?: string },
  ): Promise<Page<WorkflowView>> {
    const organizationId = organizationOf(actor, given);
    await this.permissions.authorize(actor, 'workflow.read', { type: 'organization', id: organizationId });
    const found = await this.store.definitions.listBy('organization', organizationId, page);
    return { items: found.items.map(viewOfWorkflow), nextCursor: found.nextCursor };
  }

  async getWorkflow(actor: Actor, given: string | undefined, name: string): Promise<WorkflowView> {
    return viewOfWorkflow(await this.readWorkflow(actor, given, name, 'workflow.read'));
  }

  /** Soft delete: the name is free again; runs already submitted go on with their own copy of the nodes. */
  async deleteWorkflow(actor: Actor, given: string | undefined, name: string): Promise<WorkflowView> {
    const found = await this.readWorkflow(actor, given, name, 'workflow.write');
    const deleted = await this.storage.transaction({ locks: [workflowNameLock(found.organization_id, name)] }, async (tx) => {
      const before = await tx.get(this.store.definitions, found.id);
      if (before === undefined || before.deleted_at !== null) throw notFound('workflow');
      const next = { ...before, deleted_at: nowIso(), updated_at: nowIso() };
      this.audit.recordChange(tx, actor, 'workflow.delete', 'workflow', before, undefined);
      return tx.put(this.store.definitions, next);
    });
    return viewOfWorkflow(deleted);
  }

  /** A live definition by name, once the actor may act on its organization (404 for another's). */
  async readWorkflow(actor: Actor, given: string | undefined, name: string, action: Action): Promise<WorkflowDefinition> {
    const organizationId = organizationOf(actor, given);
    await this.permissions.authorize(actor, action, { type: 'organization', id: organizationId });
    const found = await this.store.findDefinition(organizationId, name);
    if (found === undefined) throw notFound('workflow');
    return found;
  }

  // Runs.

  /** POST /v1/workflows/run?name=: a run of the latest version, queued (202). */
  async submitRun(actor: Actor, name: string, body: SubmitRunInput, options: SubmitOptions = {}): Promise<RunView> {
    const definition = await this.readWorkflow(actor, body.organization_id, name, 'workflow.write');
    const organizationId = definition.organization_id;
    return this.storage.transaction({ locks: [runIntakeLock(organizationId)] }, async (tx) => {
      const refusal = await this.intakeRefusal(tx, organizationId);
      if (refusal !== undefined)
        throw new AppError(
          'rate_limited',
          refusal.limit === 'max_queued_runs'
            ? `the organization has ${refusal.max} runs queued, the most it may have (max_queued_runs); try again as they start`
            : `the organization has ${refusal.max} runs waiting for input, the most it may have (max_waiting_runs); answer or cancel one`,
          { retryAfterSeconds: refusal.retryAfterSeconds, details: { limit: refusal.limit, max: refusal.max } },
        );
      return viewOfRun(this.submitIn(tx, actor, definition, body, options));
    });
  }

  /**
   * Why the organization may not take another run now: its queued runs, or its runs waiting for
   * input, are at their cap (organization settings). Read in `tx`, under runIntakeLock.
   */
  async intakeRefusal(
    tx: Tx,
    organizationId: string,
  ): Promise<{ limit: 'max_queued_runs' | 'max_waiting_runs'; max: number; retryAfterSeconds: number } | undefined> {
    const settings = await this.settings.resolveSettings(organizationId, tx);
    const max = { queued: settings.max_queued_runs, waiting: settings.max_waiting_runs };
    const counts = await this.store.intakeCounts(organizationId, max, tx);
    if (counts.queued >= max.queued) return { limit: 'max_queued_runs', max: max.queued, retryAfterSeconds: 10 };
    if (counts.waiting >= max.waiting) return { limit: 'max_waiting_runs', max: max.waiting, retryAfterSeconds: 60 };
    return undefined;
  }

  /** A new run in `tx`: the record and its `created` and `queued` events commit together. */
  submitIn(tx: Tx, actor: Actor, definition: WorkflowDefinition, body: SubmitRunInput, options: SubmitOptions = {}): WorkflowRun {
    const now = nowIso();
    const run: WorkflowRun = {
      id: newId(),
      organization_id: definition.organization_id,
      workflow_id: definition.id,
      workflow_name: definition.name,
      version: definition.version,
      status: 'queued',
      input: body.input,
      state: body.state ?? null,
      priority: body.priority,
      nodes: definition.nodes,
      node_states: Object.fromEntries(definition.nodes.map((n) => [n.key, pendingNode()])),
      output: {},
      error: null,
      submitted_by:
        options.submitter ??
        (isOperator(actor)
          ? { principal_id: null, api_key_id: null }
          : { principal_id: actor.principalId, api_key_id: actor.apiKey?.id ?? null }),
      schedule_id: options.scheduleId ?? null,
      created_at: now,
      queued_at: now,
      promoted_at: null,
      started_at: null,
      finished_at: null,
      updated_at: now,
      wait_expires_at: null,
      instance_id: null,
      lease_until: null,
    };
    tx.insert(this.store.runs, run);
    this.emit(tx, run, 'workflow.run.created', { priority: run.priority, version: run.version });
    this.emit(tx, run, 'workflow.run.queued', { priority: run.priority });
    tx.wake(RUNS_TOPIC);
    return run;
  }

  async getRun(actor: Actor, id: string): Promise<RunView> {
    return viewOfRun(await this.readRun(actor, id, 'workflow.read'));
  }

  /** Runs of an organization, oldest first (newest first with `reverse`, as the portal lists them); by definition name or by status. */
  async listRuns(
    actor: Actor,
    query: RunListQuery,
    { reverse = false }: Pick<PageOptions, 'reverse'> = {},
  ): Promise<Page<RunView>> {
    const organizationId = organizationOf(actor, query.organization_id);
    await this.permissions.authorize(actor, 'workflow.read', { type: 'organization', id: organizationId });
    const page = { limit: query.limit, cursor: query.cursor, reverse };
    let found: Page<WorkflowRun>;
    if (query.workflow !== undefined && query.status !== undefined)
      throw validationFailed({ status: 'filter by workflow or by status, not both' });
    if (query.workflow !== undefined) {
      const definition = await this.store.findDefinition(organizationId, query.workflow);
      if (definition === undefined) throw notFound('workflow');
      found = await this.store.runs.listBy('workflow', definition.id, page);
    } else if (query.status !== undefined)
      found = await this.store.runs.listBy('organization_status', [organizationId, query.status], page);
    else found = await this.store.runs.listBy('organization', organizationId, page);
    return { items: found.items.map(viewOfRun), nextCursor: found.nextCursor };
  }

  /** Spec 2.10: the run's output and its artifacts, each with a signed link valid `expires_in` seconds (default 1 hour). */
  async runOutput(actor: Actor, id: string, expiresIn?: number): Promise<RunOutput> {
    const run = await this.readRun(actor, id, 'workflow.read');
    const seconds = this.assets.expiresIn(expiresIn);
    const artifacts = (await this.assets.listFor({ run_id: run.id })).map((asset) => this.assets.artifact(asset, seconds));
    return { run_id: run.id, status: run.status, output: run.output, artifacts };
  }

  /**
   * A run's events for its live stream: those after `after` (an event id), then each as it commits
   * on any daemon, until the run's terminal event has been written or `signal` aborts. The actor
   * is authorized before anything is written (a refusal is an ordinary error answer).
   */
  /**
   * A run's events, history then live (streams.ts). `reauthenticate` presents the stream's credentials
   * again: it is asked as the stream goes, and the stream ends once they, or the access they give, are refused.
   */
  async followRun(
    actor: Actor,
    id: string,
    after: string | undefined,
    signal: AbortSignal,
    reauthenticate: () => Promise<Actor>,
  ): Promise<AsyncIterable<DomainEvent>> {
    const run = await this.readRun(actor, id, 'workflow.read');
    const location = atOrganization(run.organization_id);
    const holder = isOperator(actor) ? 'operator' : actor.principalId;
    const release = this.streams.reserve(holder, run.organization_id);
    // The place is given back when the client goes, even if the stream was never read.
    signal.addEventListener('abort', release, { once: true });
    if (signal.aborted) release();
    const stillAllowed = async () => {
      const now = await reauthenticate();
      if (!isOperator(now) && !isOperator(actor) && now.principalId !== actor.principalId) return false;
      await this.permissions.authorizeAt(now, 'workflow.read', { type: 'workflow_run', id }, location);
      return true;
    };
    return this.streams.follow(id, after, signal, stillAllowed, release);
  }

  /** Cancel: a run not yet ended ends `cancelled`; nodes in flight are stopped by the daemon running them. */
  async cancelRun(actor: Actor, id: string): Promise<RunView> {
    return this.act(actor, id, (tx, run) => {
      if (terminalRunStatuses.includes(run.status)) throw notNow(run, 'cancel');
      for (const state of Object.values(run.node_states))
        if (state.status === 'pending' || state.status === 'running' || state.status === 'waiting') {
          state.status = 'cancelled';
          state.finished_at = nowIso();
        }
      this.finish(tx, run, 'cancelled');
    });
  }

  /** Pause: a queued, waiting or running run stops starting nodes (those in flight finish and are kept). */
  async pauseRun(actor: Actor, id: string): Promise<RunView> {
    return this.act(actor, id, (tx, run) => {
      if (!['queued', 'running', 'waiting'].includes(run.status)) throw notNow(run, 'pause');
      this.move(run, 'paused');
      this.emit(tx, run, 'workflow.run.paused', {});
    });
  }

  /** Resume: a paused run goes back into the queue, behind the runs already there at its priority. */
  async resumeRun(actor: Actor, id: string): Promise<RunView> {
    return this.act(actor, id, (tx, run) => {
      if (run.status !== 'paused') throw notNow(run, 'resume');
      this.requeue(tx, run);
    });
  }

  /** Promote: a queued run moves ahead of every run not promoted. */
  async promoteRun(actor: Actor, id: string): Promise<RunView> {
    // Under the organization's start lock too: a start either sees the promotion or commits before it.
    return this.act(
      actor,
      id,
      (tx, run) => {
        if (run.status !== 'queued') throw notNow(run, 'promote');
        run.promoted_at = nowIso();
        this.emit(tx, run, 'workflow.run.promoted', {});
      },
      slotsLock,
    );
  }

  /** The input a `wait` node waits for: the node completes with it as its output. */
  async answerInput(actor: Actor, id: string, body: RunInputBody): Promise<RunView> {
    return this.act(actor, id, (tx, run) => {
      const node = run.nodes.find((n) => n.key === body.node_key);
      if (node === undefined) throw validationFailed({ node_key: `run ${run.id} has no node ${body.node_key}` });
      const state = run.node_states[node.key];
      if (node.kind !== 'wait' || state.status !== 'waiting')
        throw new AppError(
          'invalid_state',
          `node ${node.key} is ${node.kind === 'wait' ? state.status : 'not a wait node'}: it takes no input now`,
          {
            details: { node_key: node.key, status: state.status },
          },
        );
      state.status = 'completed';
      state.output = body.input;
      state.finished_at = nowIso();
      run.output = { ...run.output, [node.key]: body.input };
      this.emit(tx, run, 'workflow.node.completed', { output: body.input }, node.key);
      if (run.status === 'waiting') this.requeue(tx, run);
    });
  }

  /**
   * Ends runs whose wait deadline has passed: `failed` with error `expired`, their waiting nodes failed
   * with it, each in one transaction with its events. Answers how many ended, whether a full batch
   * was found, and when (epoch ms) the next waiting run falls due. `timeoutMs` (SERVICE_RUN_WAIT_TIMEOUT_MS)
   * dates only a waiting run stored without a deadline. The expiry loop's work: the background lane's.
   */
  async expireWaitingRuns(
    timeoutMs: number,
    limit = EXPIRY_BATCH,
  ): Promise<{ expired: number; more: boolean; nextDueAt: number | undefined }> {
    const overdue = await this.store.waitingDueBy(nowIso(), limit);
    const deadlineOf = (run: WorkflowRun) =>
      run.wait_expires_at ? Date.parse(run.wait_expires_at) : Date.parse(run.updated_at) + timeoutMs;
    let expired = 0;
    for (const { id } of overdue) {
      const ended = await this.storage.background.transaction({ locks: [runLock(id)] }, async (tx) => {
        const run = await this.store.editable(tx, id);
        if (run?.status !== 'waiting' || deadlineOf(run) > Date.now()) return false;
        const error = {
          code: 'expired',
          message: `no input came by ${new Date(deadlineOf(run)).toISOString()} (run_wait_timeout_seconds, at most SERVICE_RUN_WAIT_TIMEOUT_MS)`,
        };
        for (const [key, state] of Object.entries(run.node_states)) {
          if (state.status !== 'waiting') continue;
          state.status = 'failed';
          state.error = error;
          state.finished_at = nowIso();
          this.emit(tx, run, 'workflow.node.failed', { error }, key);
        }
        this.finish(tx, run, 'failed', error);
        run.updated_at = nowIso();
        await tx.put(this.store.runs, run);
        tx.wake(RUNS_TOPIC);
        return true;
      });
      if (ended) expired++;
    }
    const [next] = overdue.length === limit ? [] : await this.store.waitingDueBy(undefined, 1);
    return { expired, more: overdue.length === limit, nextDueAt: next === undefined ? undefined : Date.parse(next.sort) };
  }

  /** Reads a run the actor may see, then changes it under its lock (404 for another organization's). */
  private async act(
    actor: Actor,
    id: string,
    change: (tx: Tx, run: WorkflowRun) => void,
    organizationLock?: (organizationId: string) => string,
  ): Promise<RunView> {
    const { organization_id } = await this.readRun(actor, id, 'workflow.write');
    const locks = organizationLock === undefined ? [runLock(id)] : [runLock(id), organizationLock(organization_id)];
    return this.storage.transaction({ locks }, async (tx) => {
      const run = await this.store.editable(tx, id);
      if (run === undefined) throw notFound('run');
      change(tx, run);
      run.updated_at = nowIso();
      await tx.put(this.store.runs, run);
      tx.wake(RUNS_TOPIC);
      return viewOfRun(run);
    });
  }

  private async readRun(actor: Actor, id: string, action: Action): Promise<WorkflowRun> {
    const run = await this.store.runs.get(id);
    await this.permissions.authorizeAt(actor, action, { type: 'workflow_run', id }, run && atOrganization(run.organization_id));
    return run!;
  }

  // Transitions the executor shares.

  /** Back into the queue (a resumed or answered run): behind the runs there at its priority. */
  requeue(tx: Tx, run: WorkflowRun): void {
    this.move(run, 'queued');
    run.queued_at = nowIso();
    this.emit(tx, run, 'workflow.run.queued', { priority: run.priority });
  }

  /** Out of `running` (or into it): the lease goes with it; out of `waiting`, the wait deadline. */
  move(run: WorkflowRun, status: RunStatus): void {
    run.status = status;
    if (status !== 'running') run.lease_until = null;
    if (status !== 'waiting') run.wait_expires_at = null;
  }

  /**
   * Into `waiting` with its deadline, fixed now: the organization's run_wait_timeout_seconds, at most
   * SERVICE_RUN_WAIT_TIMEOUT_MS. A resumed run that waits again gets a new one (the count restarts).
   */
  async beginWaiting(tx: Tx, run: WorkflowRun): Promise<void> {
    const timeoutMs = await this.settings.runWaitTimeoutMs(run.organization_id, tx);
    this.move(run, 'waiting');
    run.wait_expires_at = new Date(Date.now() + timeoutMs).toISOString();
  }

  /** Ends a run with its terminal event (spec 2.9, 6.3): state, output_url, instance and error. */
  finish(tx: Tx, run: WorkflowRun, status: 'completed' | 'failed' | 'cancelled', error?: RunError): void {
    this.move(run, status);
    run.finished_at = nowIso();
    run.error = error ?? null;
    run.instance_id ??= this.instanceId;
    tx.afterCommit(() => this.metrics.workEnded('run', status));
    this.emit(tx, run, `workflow.run.${status}`, {
      state: run.state,
      output_url: this.outputUrl(run.id),
      instance_id: run.instance_id,
      ...(error === undefined ? {} : { error }),
    });
  }

  outputUrl(runId: string): string {
    return `${this.publicUrl()}/v1/workflows/runs/${runId}/output`;
  }

  /** Appends the run's event; its payload is typed by the event catalog. */
  emit<K extends EventKind>(tx: Tx, run: WorkflowRun, kind: K, payload: EventPayload<K>, nodeKey?: string): void {
    this.eventLog.append(tx, {
      kind,
      organization_id: run.organization_id,
      workflow_id: run.workflow_id,
      run_id: run.id,
      node_key: nodeKey ?? null,
      payload,
    });
  }
}

function notNow(run: WorkflowRun, what: string): AppError {
  return new AppError('invalid_state', `cannot ${what} a run that is ${run.status}`, { details: { status: run.status } });
}
