import { setMaxListeners } from 'node:events';
import { describeError, isAppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics.js';
import { Loop } from '../../loops/loop.js';
import { nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { ExecuteBody } from '../providers/schemas.js';
import { EXECUTE_BODY_LIMIT, executeBody } from '../providers/schemas.js';
import type { ExecuteResult, ProviderService } from '../providers/service.js';
import type { SettingsService } from '../settings/service.js';
import { setLeaseEnds, takeOverEnded } from '../leases.js';
import { renderInput, TemplateError } from './definition.js';
import type { WorkflowService } from './service.js';
import { RUNS_TOPIC, runLock, slotsLock, type WorkflowStore } from './store.js';
import type { RunError, WorkflowNode, WorkflowRun } from './types.js';

export interface ExecutorSettings {
  instanceId: string;
  /** A running run's lease: renewed while its daemon lives, taken over by another once it ends. */
  leaseMs: number;
  /** Nodes of one run in flight at once. */
  maxParallelNodes: number;
  /** Progress events of one node at most this often. */
  progressEveryMs: number;
}

/** What a node call ended with. */
type Outcome = { ok: true; result: ExecuteResult } | { ok: false; error: RunError };

/** Keeps what a provider answered (images become assets once the assets area is composed). */
export type OutputKeeper = (
  tx: Tx,
  run: WorkflowRun,
  node: WorkflowNode,
  result: ExecuteResult,
) => Promise<Record<string, unknown>>;

/**
 * A node's input, its templates filled in, at most this many characters (an audio node's: the execute
 * body limit): rendering stops there, so a definition that repeats a large value fails its node.
 */
const MAX_RENDERED_INPUT = 1024 * 1024;

/** How many organizations with queued runs one pass looks at. */
const ORGANIZATIONS_PER_PASS = 100;
/** How many expired leases one pass takes over. */
const TAKEOVERS_PER_PASS = 50;

/**
 * Moves runs along on this daemon: starts queued runs while their organization is under its bound
 * (counted under the organization's lock, so daemons sharing PostgreSQL never exceed it), runs the
 * nodes whose needs are done (up to a bound at once) through the provider layer, records each
 * outcome with its events in one transaction, renews the leases of its runs, and takes over runs
 * whose daemon's lease ended (their nodes in flight start again: a run resumes from its last
 * completed node).
 */
export class RunExecutor {
  /** Runs this daemon holds (running, leased to it). */
  private readonly mine = new Set<string>();
  /** Node calls in flight here, by run, then node. */
  private readonly inFlight = new Map<string, Map<string, AbortController>>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private organizationsAfter: string | undefined;
  private renewedAt = 0;

  constructor(
    private readonly storage: Storage,
    private readonly store: WorkflowStore,
    private readonly runs: WorkflowService,
    private readonly providers: ProviderService,
    private readonly settings: SettingsService,
    private readonly keep: OutputKeeper,
    private readonly options: ExecutorSettings,
    private readonly log: Logger,
    private readonly metrics: Pick<Metrics, 'runQueueWait' | 'nodeDuration'>,
  ) {
    setMaxListeners(0, this.stopping.signal);
  }

  /** Node calls in flight on this daemon. */
  get busy(): number {
    let n = 0;
    for (const nodes of this.inFlight.values()) n += nodes.size;
    return n;
  }

  /** One pass: leases renewed, dead daemons' runs taken over, queued runs started, held runs moved on. */
  async tick(): Promise<number> {
    await this.providers.probedOnce();
    const now = Date.now();
    if (now - this.renewedAt >= this.options.leaseMs / 3) {
      await this.renewLeases();
      this.renewedAt = now;
    }
    await this.takeOver(now);
    await this.startQueued();
    for (const id of [...this.mine]) {
      // A run with nodes in flight moves on when they finish; it is looked at only if it changed.
      const run = await this.store.runs.get(id);
      const busy = (this.inFlight.get(id)?.size ?? 0) > 0;
      if (busy && run?.status === 'running' && run.instance_id === this.options.instanceId) continue;
      await this.step(id);
    }
    return now + this.options.leaseMs / 3;
  }

  /** Shutdown: node calls stop unrecorded, and this daemon's leases end now so another takes its runs at once. */
  async drain(): Promise<void> {
    this.stopping.abort();
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
    await setLeaseEnds(this.storage, this.store.runs, this.mine, runLock, this.options.instanceId, nowIso()).catch(
      (err: unknown) => this.log.warn({ err }, 'run leases could not be released'),
    );
    this.mine.clear();
  }

  private async renewLeases(): Promise<void> {
    await setLeaseEnds(this.storage, this.store.runs, this.mine, runLock, this.options.instanceId, this.leaseEnd());
  }

  private leaseEnd(): string {
    return new Date(Date.now() + this.options.leaseMs).toISOString();
  }

  /** Runs whose daemon stopped renewing their lease (on exclusive storage: every run not held here). */
  private async takeOver(now: number): Promise<void> {
    const taken = await takeOverEnded(
      this.storage,
      this.store.runs,
      (upTo, limit) => this.store.leasesEndedBy(upTo, limit),
      { held: this.mine, limit: TAKEOVERS_PER_PASS, lockOf: runLock, now },
      (run) => {
        this.log.info({ run_id: run.id, previous_instance: run.instance_id }, 'taking over a run whose daemon stopped');
        this.hold(run);
      },
    );
    for (const run of taken) this.mine.add(run.id);
  }

  /** Leases a run to this daemon; its nodes that were in flight elsewhere start again. */
  private hold(run: WorkflowRun): void {
    const here = this.inFlight.get(run.id);
    for (const [key, state] of Object.entries(run.node_states))
      if (state.status === 'running' && here?.has(key) !== true) {
        state.status = 'pending';
        state.started_at = null;
      }
    run.instance_id = this.options.instanceId;
    run.lease_until = this.leaseEnd();
    run.updated_at = nowIso();
  }

  /** Starts queued runs, organization by organization, while each is under its bound. */
  private async startQueued(): Promise<void> {
    const organizations = await this.store.organizationsWithQueue(this.organizationsAfter, ORGANIZATIONS_PER_PASS);
    this.organizationsAfter = organizations.length === ORGANIZATIONS_PER_PASS ? organizations.at(-1) : undefined;
    for (const organizationId of organizations) {
      let bound: number;
      try {
        bound = (await this.settings.resolveSettings(organizationId)).max_concurrent_runs;
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found') continue; // the organization is gone
        throw err;
      }
      const room = bound - (await this.store.runningCount(organizationId));
      if (room <= 0) continue;
      const ids = await this.store.queued(organizationId, room);
      if (ids.length === 0) continue;
      const started = await this.storage.transaction({ locks: [slotsLock(organizationId), ...ids.map(runLock)] }, async (tx) => {
        let running = await this.store.runningCount(organizationId, tx);
        const taken: string[] = [];
        const launches: { runId: string; node: WorkflowNode; body: ExecuteBody }[] = [];
        // The queue as it is now (a run promoted since it was read goes first): its head, in order,
        // as far as the runs locked here reach.
        const locked = new Set(ids);
        for (const id of await this.store.queued(organizationId, ids.length, tx)) {
          if (!locked.has(id) || running >= bound) break;
          const run = await this.store.editable(tx, id);
          if (run?.status !== 'queued') continue;
          this.runs.move(run, 'running');
          const waited = (Date.now() - Date.parse(run.queued_at ?? run.created_at)) / 1000;
          tx.afterCommit(() => this.metrics.runQueueWait(waited));
          run.started_at ??= nowIso();
          this.hold(run);
          this.runs.emit(tx, run, 'workflow.run.started', { instance_id: this.options.instanceId });
          // Its first nodes start in the same transaction (one commit fewer per run).
          for (const launch of await this.advance(tx, run)) launches.push({ runId: id, ...launch });
          await tx.put(this.store.runs, run);
          taken.push(id);
          running++;
        }
        return { taken, launches };
      });
      for (const id of started.taken) this.mine.add(id);
      for (const { runId, node, body } of started.launches) this.launch(runId, node, body);
    }
  }

  /**
   * One step of a run held here, in one transaction under its lock: a finished node's outcome
   * recorded, then the nodes that became ready started (or the run ended, or left to wait).
   */
  private async step(runId: string, finished?: { node: WorkflowNode; outcome: Outcome }): Promise<void> {
    const launches = await this.storage.transaction({ locks: [runLock(runId)] }, async (tx) => {
      const run = await this.store.editable(tx, runId);
      if (run === undefined) {
        this.release(runId);
        return [];
      }
      const before = JSON.stringify(run);
      const ours = run.instance_id === this.options.instanceId;
      if (finished !== undefined && ours) await this.record(tx, run, finished.node, finished.outcome);
      const launches = ours && run.status === 'running' ? await this.advance(tx, run) : [];
      if (run.status !== 'running' || !ours) {
        // Cancelled or failed: what is still in flight here stops. Paused: it finishes and is kept.
        if (run.status === 'cancelled' || run.status === 'failed' || !ours) this.abortAll(runId);
        if ((this.inFlight.get(runId)?.size ?? 0) === 0) this.release(runId);
      }
      if (JSON.stringify(run) !== before) {
        run.updated_at = nowIso();
        await tx.put(this.store.runs, run);
      }
      return launches;
    });
    for (const launch of launches) this.launch(runId, launch.node, launch.body);
  }

  /** A node's outcome, with its event; a failure fails the run. */
  private async record(tx: Tx, run: WorkflowRun, node: WorkflowNode, outcome: Outcome): Promise<void> {
    const state = run.node_states[node.key];
    if (state.status !== 'running') return; // cancelled meanwhile, or restarted elsewhere
    state.finished_at = nowIso();
    const seconds = (Date.parse(state.finished_at) - Date.parse(state.started_at ?? state.finished_at)) / 1000;
    tx.afterCommit(() => this.metrics.nodeDuration(node.modality ?? 'none', outcome.ok ? 'completed' : 'failed', seconds));
    if (outcome.ok) {
      const output = await this.keep(tx, run, node, outcome.result);
      state.status = 'completed';
      state.provider = outcome.result.provider;
      state.output = output;
      run.output = { ...run.output, [node.key]: output };
      this.runs.emit(
        tx,
        run,
        'workflow.node.completed',
        { provider: outcome.result.provider, model: outcome.result.model, usage: outcome.result.usage, output },
        node.key,
      );
      return;
    }
    state.status = 'failed';
    state.error = outcome.error;
    this.runs.emit(tx, run, 'workflow.node.failed', { error: outcome.error }, node.key);
    if (run.status === 'running' || run.status === 'paused') this.fail(tx, run, node, outcome.error);
  }

  private fail(tx: Tx, run: WorkflowRun, node: WorkflowNode, error: RunError): void {
    for (const [key, other] of Object.entries(run.node_states))
      if (key !== node.key && (other.status === 'running' || other.status === 'pending' || other.status === 'waiting')) {
        other.status = 'cancelled';
        other.finished_at = nowIso();
      }
    this.runs.finish(tx, run, 'failed', { code: error.code, message: `node ${node.key}: ${error.message}` });
  }

  /**
   * The nodes whose needs are done: wait nodes start waiting, provider nodes start (up to the bound
   * with those in flight). A run with every node done completes; one with only waiting nodes left
   * waits outside the bound until its input comes.
   */
  private async advance(tx: Tx, run: WorkflowRun): Promise<{ node: WorkflowNode; body: ExecuteBody }[]> {
    const launches: { node: WorkflowNode; body: ExecuteBody }[] = [];
    let room = this.options.maxParallelNodes - (this.inFlight.get(run.id)?.size ?? 0);
    const done = (key: string) => run.node_states[key].status === 'completed';
    for (const node of run.nodes) {
      const state = run.node_states[node.key];
      if (state.status !== 'pending' || !node.needs.every(done)) continue;
      if (node.kind === 'wait') {
        state.status = 'waiting';
        state.started_at = nowIso();
        this.runs.emit(tx, run, 'workflow.run.waiting', { node_key: node.key });
        continue;
      }
      if (room <= 0) continue;
      let body: ExecuteBody;
      try {
        body = this.bodyOf(run, node);
      } catch (err) {
        const error = { code: 'validation_failed', message: (err as Error).message };
        state.status = 'failed';
        state.error = error;
        state.finished_at = nowIso();
        this.runs.emit(tx, run, 'workflow.node.failed', { error }, node.key);
        this.fail(tx, run, node, error);
        return [];
      }
      state.status = 'running';
      state.started_at = nowIso();
      state.error = null;
      this.runs.emit(tx, run, 'workflow.node.started', { modality: body.modality }, node.key);
      launches.push({ node, body });
      room--;
    }
    const states = Object.values(run.node_states);
    if (states.every((s) => s.status === 'completed')) this.runs.finish(tx, run, 'completed');
    else if (launches.length === 0 && !states.some((s) => s.status === 'running')) {
      if (states.some((s) => s.status === 'waiting')) await this.runs.beginWaiting(tx, run);
    }
    if (run.status !== 'running') tx.wake(RUNS_TOPIC); // a slot is free
    return launches;
  }

  /** The provider request of a node: its templates filled in, checked as /v1/providers/execute checks a body. */
  private bodyOf(run: WorkflowRun, node: WorkflowNode): ExecuteBody {
    let input: unknown;
    try {
      input = renderInput(
        node.input,
        { input: run.input, outputs: run.output },
        node.modality === 'audio' ? EXECUTE_BODY_LIMIT : MAX_RENDERED_INPUT,
      );
    } catch (err) {
      if (err instanceof TemplateError) throw new Error(`input: ${err.message}`, { cause: err });
      throw err;
    }
    const parsed = executeBody.safeParse({
      modality: node.modality,
      ...(node.tier === null ? {} : { tier: node.tier }),
      ...(node.model === null ? {} : { model: node.model }),
      input,
      params: node.params,
    });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new Error(`${first.path.join('.') || 'input'}: ${first.message}`);
    }
    return parsed.data;
  }

  private launch(runId: string, node: WorkflowNode, body: ExecuteBody): void {
    const controller = new AbortController();
    const onStop = () => controller.abort();
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    let nodes = this.inFlight.get(runId);
    if (nodes === undefined) this.inFlight.set(runId, (nodes = new Map<string, AbortController>()));
    nodes.set(node.key, controller);
    const task = this.call(runId, node, body, controller.signal)
      .then(async (outcome) => {
        this.inFlight.get(runId)?.delete(node.key);
        if (this.inFlight.get(runId)?.size === 0) this.inFlight.delete(runId);
        // Stopped (cancelled here, or shutdown): nothing to record; the run's record says why.
        if (outcome !== undefined && !this.stopping.signal.aborted) await this.step(runId, { node, outcome });
      })
      .catch((err: unknown) => this.log.error({ err, run_id: runId, node_key: node.key }, 'workflow node could not be recorded'))
      .finally(() => {
        this.stopping.signal.removeEventListener('abort', onStop);
        this.tasks.delete(task);
      });
    this.tasks.add(task);
  }

  /** The provider call of a node, for the run's submitter; undefined when it was stopped. */
  private async call(runId: string, node: WorkflowNode, body: ExecuteBody, signal: AbortSignal): Promise<Outcome | undefined> {
    const run = await this.store.runs.get(runId);
    if (run === undefined) return undefined;
    const payer = {
      organizationId: run.organization_id,
      principalId: run.submitted_by.principal_id,
      apiKeyId: run.submitted_by.api_key_id,
    };
    let characters = 0;
    let reportedAt = Date.now();
    const onText = (piece: string) => {
      characters += piece.length;
      if (Date.now() - reportedAt < this.options.progressEveryMs) return;
      reportedAt = Date.now();
      const at = characters;
      void this.storage
        .transaction({}, (tx) => Promise.resolve(this.runs.emit(tx, run, 'workflow.node.progress', { characters: at }, node.key)))
        .catch((err: unknown) => this.log.warn({ err, run_id: runId }, 'node progress event not written'));
    };
    try {
      return { ok: true, result: await this.providers.executeFor(payer, body, signal, onText) };
    } catch (err) {
      if (signal.aborted) return undefined;
      const { code, message } = describeError(err);
      if (!isAppError(err)) this.log.error({ err, run_id: runId, node_key: node.key }, 'workflow node failed unexpectedly');
      return { ok: false, error: { code, message } };
    }
  }

  private abortAll(runId: string): void {
    for (const controller of this.inFlight.get(runId)?.values() ?? []) controller.abort();
  }

  private release(runId: string): void {
    this.mine.delete(runId);
  }
}

/** The executor's loop: woken by every run change on any daemon, and at least every `pollMs`. */
export function createExecutorLoop(executor: RunExecutor, storage: Storage, pollMs: number, log: Logger): Loop {
  const loop = new Loop({ name: 'workflow-runs', intervalMs: pollMs, immediate: true, tick: () => executor.tick(), log });
  storage.onWake(RUNS_TOPIC, () => loop.wake());
  return loop;
}
