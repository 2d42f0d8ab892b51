// Workflow schedules (contract 12, issue 16): a definition's cron expressions and the runs they
// submit. ScheduleService manages them; ScheduleTrigger fires them from a loop on every daemon, each
// fire once across all daemons. docs/workflows.md, "Schedules".

import { calculateDelay, type BackoffOptions } from '../../backoff.js';
import { describeError, isAppError, limitReached, notFound, validationFailed } from '../../errors.js';
import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { Page } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import { leasesTakenOver, type Storage, type Tx } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { EventLog } from '../events/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventKind } from '../events/types.js';
import { isOperator, operator, type Actor } from '../identity/caller.js';
import type { PermissionCheckService } from '../identity/checks.js';
import type { SettingsService } from '../settings/service.js';
import { settingsBounds } from '../settings/types.js';
import { nextFire } from './cron.js';
import { exactly } from '../schemas.js';
import { MAX_SCHEDULES, type CreateScheduleInput, type ScheduleBody, type ScheduleView, type SubmitRunInput } from './schemas.js';
import type { WorkflowService } from './service.js';
import {
  runIntakeLock,
  SCHEDULES_TOPIC,
  scheduleCountLock,
  scheduleLock,
  slotsLock,
  workflowNameLock,
  type ScheduleStore,
} from './store.js';
import { DEFAULT_PRIORITY, terminalRunStatuses, type WorkflowDefinition, type WorkflowSchedule } from './types.js';

export function viewOfSchedule(s: WorkflowSchedule): ScheduleView {
  const { lease_owner: _owner, lease_until: _until, fire_failures: _failures, deleted_at: _deleted, ...view } = s;
  return exactly<ScheduleView>()(view);
}

/** Creating, listing and deleting a definition's schedules (workflow.write to change, workflow.read to list). */
export class ScheduleService {
  constructor(
    private readonly storage: Storage,
    readonly store: ScheduleStore,
    private readonly workflows: WorkflowService,
    private readonly audit: AuditLog,
    private readonly settings: Pick<SettingsService, 'resolveSettings'>,
  ) {}

  /**
   * 422 when `adding` more schedules would take the organization past max_schedules (its live
   * schedules over every definition, counted under scheduleCountLock; `replacing` are about to go).
   */
  private async checkRoom(tx: Tx, organizationId: string, adding: number, replacing: number, field: string): Promise<void> {
    if (adding === 0) return;
    const max = (await this.settings.resolveSettings(organizationId, tx)).max_schedules;
    let live = 0;
    for (const id of await this.workflows.store.definitionIds(organizationId, settingsBounds.maxWorkflows, tx)) {
      live += (await this.store.ofWorkflow(id, MAX_SCHEDULES, tx)).length;
      if (live - replacing + adding > max) break;
    }
    if (live - replacing + adding > max)
      throw limitReached(
        'max_schedules',
        max,
        field,
        `the organization has ${live} schedules; at most ${max} (max_schedules)`,
        `the organization would have more than ${max} schedules (max_schedules)`,
      );
  }

  /** POST /v1/workflows/{name}/schedules (201). */
  async createSchedule(actor: Actor, name: string, body: CreateScheduleInput): Promise<ScheduleView> {
    const found = await this.workflows.readWorkflow(actor, body.organization_id, name, 'workflow.write');
    const locks = [workflowNameLock(found.organization_id, name), scheduleCountLock(found.organization_id)];
    return this.storage.transaction({ locks }, async (tx) => {
      const definition = await tx.get(this.workflows.store.definitions, found.id);
      if (definition === undefined || definition.deleted_at !== null) throw notFound('workflow');
      const live = await this.store.ofWorkflow(definition.id, MAX_SCHEDULES, tx);
      if (live.length >= MAX_SCHEDULES)
        throw validationFailed({ schedules: `workflow ${name} has ${MAX_SCHEDULES} schedules, the most it may have` });
      await this.checkRoom(tx, definition.organization_id, 1, 0, 'cron');
      return viewOfSchedule(this.createIn(tx, actor, definition, body, '', new Date()));
    });
  }

  /** A definition's schedules, in creation order. */
  async listSchedules(
    actor: Actor,
    given: string | undefined,
    name: string,
    page: { limit?: number; cursor?: string },
  ): Promise<Page<ScheduleView>> {
    const definition = await this.workflows.readWorkflow(actor, given, name, 'workflow.read');
    const found = await this.store.schedules.listBy('workflow', definition.id, page);
    return { items: found.items.map(viewOfSchedule), nextCursor: found.nextCursor };
  }

  /** DELETE /v1/workflows/{name}/schedules/{id}: it fires no more (404 for another definition's). */
  async deleteSchedule(actor: Actor, given: string | undefined, name: string, id: string): Promise<ScheduleView> {
    const definition = await this.workflows.readWorkflow(actor, given, name, 'workflow.write');
    return this.storage.transaction(
      { locks: [workflowNameLock(definition.organization_id, name), scheduleLock(id)] },
      async (tx) => {
        const before = await tx.get(this.store.schedules, id);
        if (before === undefined || before.deleted_at !== null || before.workflow_id !== definition.id)
          throw notFound('schedule');
        return viewOfSchedule(await this.deleteIn(tx, actor, before));
      },
    );
  }

  /**
   * A registration's schedules (service.ts createWorkflow, under the name's lock): the definition's
   * schedules become these, so registering the same body again does not add copies.
   */
  readonly replaceIn = async (tx: Tx, actor: Actor, definition: WorkflowDefinition, bodies: ScheduleBody[]): Promise<void> => {
    const current = await this.store.ofWorkflow(definition.id, MAX_SCHEDULES, tx);
    await this.checkRoom(tx, definition.organization_id, bodies.length, current.length, 'schedules');
    for (const id of current) {
      const before = await tx.get(this.store.schedules, id);
      if (before !== undefined && before.deleted_at === null) await this.deleteIn(tx, actor, before);
    }
    // A millisecond apart, so that they list in the order the registration gave them.
    const now = Date.now();
    bodies.forEach((body, n) => this.createIn(tx, actor, definition, body, `schedules.${n}.`, new Date(now + n)));
  };

  /** A new schedule in `tx`; 422 naming `<field>cron` when the expression never fires again. */
  private createIn(
    tx: Tx,
    actor: Actor,
    definition: WorkflowDefinition,
    body: ScheduleBody,
    field: string,
    now: Date,
  ): WorkflowSchedule {
    const next = nextFire(body.cron, body.timezone, now);
    if (next === null)
      throw validationFailed({ [`${field}cron`]: `never fires after ${now.toISOString()} (in ${body.timezone})` });
    const schedule: WorkflowSchedule = {
      id: newId(),
      organization_id: definition.organization_id,
      workflow_id: definition.id,
      workflow_name: definition.name,
      cron: body.cron,
      timezone: body.timezone,
      input: body.input,
      state: body.state ?? null,
      overlap: body.overlap,
      created_by: isOperator(actor)
        ? { principal_id: null, api_key_id: null }
        : { principal_id: actor.principalId, api_key_id: actor.apiKey?.id ?? null },
      next_run_at: next.toISOString(),
      last_run_id: null,
      last_triggered_at: null,
      lease_owner: null,
      lease_until: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      deleted_at: null,
    };
    tx.insert(this.store.schedules, schedule);
    this.audit.recordChange(tx, actor, 'workflow.schedule.create', 'workflow_schedule', undefined, schedule);
    tx.wake(SCHEDULES_TOPIC);
    return schedule;
  }

  private async deleteIn(tx: Tx, actor: Actor, before: WorkflowSchedule): Promise<WorkflowSchedule> {
    const now = nowIso();
    const next = { ...before, deleted_at: now, updated_at: now, lease_owner: null, lease_until: null };
    this.audit.recordChange(tx, actor, 'workflow.schedule.delete', 'workflow_schedule', before, undefined);
    return tx.put(this.store.schedules, next);
  }
}

export interface TriggerSettings {
  instanceId: string;
  /** A claimed fire's lease: another daemon fires the schedule once it ends unrecorded (its daemon died). */
  leaseMs: number;
}

/** Schedules one pass claims and fires at most; more due ones are fired by the next pass, at once. */
const FIRES_PER_PASS = 50;

/**
 * The backoff of a fire that failed unexpectedly (rolled back, so nothing recorded): the same fire
 * is retried after 1 s, 2 s, 4 s ... up to 5 min, up to a fifth sooner at random so that schedules
 * failing together spread out (src/backoff.ts). docs/workflows.md, "Firing".
 */
export const FIRE_RETRY: Readonly<BackoffOptions> = { baseMs: 1000, maxMs: 5 * 60_000, jitter: 0.2 };

/** The wait before retrying a fire after its `failures`th failure in a row. */
export function fireRetryDelayMs(failures: number, random: () => number = Math.random): number {
  return calculateDelay(failures, { ...FIRE_RETRY, random });
}

/** What every schedule event's payload starts with. */
type ScheduleFire = { schedule_id: string; scheduled_for: string; instance_id: string };

/** What one fire decided. */
type Outcome =
  | { kind: 'workflow.schedule.triggered'; runId: string }
  | { kind: 'workflow.schedule.skipped'; payload: Omit<EventPayload<'workflow.schedule.skipped'>, keyof ScheduleFire> }
  | { kind: 'workflow.schedule.failed'; error: { code: string; message: string } };

/**
 * Fires due schedules: claims them with a lease (daemons sharing PostgreSQL skip those another
 * holds), then fires each in one transaction under its lock, which re-reads it and moves its next
 * fire time on from now (missed fires collapse into this one), so each fire time is fired once.
 * A fire submits a run (`workflow.schedule.triggered`), or skips (`skipped`: the previous run is
 * still going under overlap `skip`, or the organization is at `max_concurrent_runs`), or fails
 * (`failed`: the definition was deleted, which removes the schedule, or the organization is gone).
 */
export class ScheduleTrigger {
  constructor(
    private readonly storage: Storage,
    private readonly store: ScheduleStore,
    private readonly workflows: WorkflowService,
    private readonly settings: SettingsService,
    private readonly checks: PermissionCheckService,
    private readonly eventLog: EventLog,
    private readonly options: TriggerSettings,
    private readonly log: Logger,
  ) {}

  /** One pass: due schedules fired; answers when the next falls due (epoch ms), for the loop. */
  async tick(): Promise<number | undefined> {
    const now = Date.now();
    const claimed = await this.claim(now);
    for (const schedule of claimed) await this.fire(schedule).catch((err: unknown) => this.backOff(schedule, err));
    if (claimed.length === FIRES_PER_PASS) return Date.now();
    const next = await this.store.nextDueAt();
    // A time already past is a fire another daemon holds: only a later one needs a timer.
    return next !== undefined && Date.parse(next) > now ? Date.parse(next) : undefined;
  }

  /**
   * A fire that threw (rolled back): the schedule backs off, keeping its fire time, so that one
   * that keeps failing (say, a time zone this daemon's ICU data no longer knows) is retried at
   * FIRE_RETRY's pace by every daemon rather than every pass. Written in its own transaction;
   * when that fails too, the claim's lease ends and the fire is retried then, as before.
   */
  private async backOff(claimed: WorkflowSchedule, err: unknown): Promise<void> {
    let failures: number | undefined;
    let retryInMs: number | undefined;
    try {
      await this.storage.transaction({ locks: [scheduleLock(claimed.id)] }, async (tx) => {
        const schedule = await this.store.editable(tx, claimed.id);
        if (schedule === undefined || schedule.deleted_at !== null || schedule.lease_owner !== this.options.instanceId) return;
        failures = (schedule.fire_failures ?? 0) + 1;
        retryInMs = fireRetryDelayMs(failures);
        schedule.fire_failures = failures;
        schedule.lease_owner = null;
        schedule.lease_until = new Date(Date.now() + retryInMs).toISOString();
        schedule.updated_at = nowIso();
        await tx.put(this.store.schedules, schedule);
      });
    } catch (recordErr) {
      this.log.error({ err: recordErr, schedule_id: claimed.id }, "workflow schedule's failed fire could not be recorded");
    }
    this.log.error(
      { err, schedule_id: claimed.id, fire_failures: failures, retry_in_ms: retryInMs },
      'workflow schedule could not be fired',
    );
  }

  /** Due schedules, failed fires due for a retry, and claims whose lease ended unrecorded, leased to this daemon. */
  private async claim(now: number): Promise<WorkflowSchedule[]> {
    const nowText = new Date(now).toISOString();
    const due = await this.store.dueBy(nowText, FIRES_PER_PASS);
    const retries = await this.store.retriesDueBy(nowText, FIRES_PER_PASS);
    const stale = await this.store.leasesEndedBy(leasesTakenOver(this.storage, now), FIRES_PER_PASS);
    const ids = [...new Set([...stale, ...retries, ...due])].slice(0, FIRES_PER_PASS);
    if (ids.length === 0) return [];
    const leaseUntil = new Date(now + this.options.leaseMs).toISOString();
    return this.storage.claim(this.store.schedules, {
      candidates: { ids },
      limit: ids.length,
      lockOf: scheduleLock,
      take: (s) => {
        if (s.deleted_at !== null || s.next_run_at === null || Date.parse(s.next_run_at) > now) return undefined;
        // Backing off after a failed fire, on every engine, until its retry time.
        if (s.lease_owner === null && s.lease_until !== null && Date.parse(s.lease_until) > now) return undefined;
        // Fires are recorded within the pass that claims them: a lease still running is another daemon's.
        if (s.lease_until !== null && !this.storage.exclusive && Date.parse(s.lease_until) > now) return undefined;
        return { ...s, lease_owner: this.options.instanceId, lease_until: leaseUntil, updated_at: nowIso() };
      },
    });
  }

  /**
   * One fire, in one transaction: under the schedule's lock, its name's (a registration or delete
   * that changes it waits) and its organization's start lock (the running count is exact).
   */
  private async fire(claimed: WorkflowSchedule): Promise<void> {
    const locks = [
      scheduleLock(claimed.id),
      workflowNameLock(claimed.organization_id, claimed.workflow_name),
      slotsLock(claimed.organization_id),
      runIntakeLock(claimed.organization_id),
    ];
    await this.storage.transaction({ locks }, async (tx) => {
      const schedule = await this.store.editable(tx, claimed.id);
      if (schedule === undefined || schedule.deleted_at !== null || schedule.next_run_at === null) return;
      if (schedule.lease_owner !== this.options.instanceId) return; // taken over: this daemon was too slow
      const scheduledFor = schedule.next_run_at;
      const from = new Date(Math.max(Date.now(), Date.parse(scheduledFor)));
      schedule.next_run_at = nextFire(schedule.cron, schedule.timezone, from)?.toISOString() ?? null;
      schedule.lease_owner = null;
      schedule.lease_until = null;
      delete schedule.fire_failures;
      schedule.updated_at = nowIso();
      const outcome = await this.decide(tx, schedule);
      const base: ScheduleFire = { schedule_id: schedule.id, scheduled_for: scheduledFor, instance_id: this.options.instanceId };
      if (outcome.kind === 'workflow.schedule.triggered')
        this.emit(tx, schedule, outcome.kind, { ...base, run_id: outcome.runId }, outcome.runId);
      else if (outcome.kind === 'workflow.schedule.skipped')
        this.emit(tx, schedule, outcome.kind, { ...base, ...outcome.payload });
      else this.emit(tx, schedule, outcome.kind, { ...base, error: outcome.error });
      await tx.put(this.store.schedules, schedule);
    });
  }

  /** Submits the schedule's run, or says why not (changing `schedule` to match). */
  private async decide(tx: Tx, schedule: WorkflowSchedule): Promise<Outcome> {
    const store = this.workflows.store;
    const definition = await tx.get(store.definitions, schedule.workflow_id);
    if (definition === undefined || definition.deleted_at !== null) {
      schedule.deleted_at = nowIso();
      const message = `workflow ${schedule.workflow_name} was deleted: its schedule is removed`;
      return { kind: 'workflow.schedule.failed', error: { code: 'not_found', message } };
    }
    const refusal = await this.creatorRefusal(schedule);
    if (refusal !== undefined) {
      const message = `the schedule's creator may no longer run workflow ${schedule.workflow_name}: ${refusal}`;
      return { kind: 'workflow.schedule.failed', error: { code: 'forbidden', message } };
    }
    if (schedule.overlap === 'skip' && schedule.last_run_id !== null) {
      const previous = await tx.get(store.runs, schedule.last_run_id);
      if (previous !== undefined && !terminalRunStatuses.includes(previous.status))
        return {
          kind: 'workflow.schedule.skipped',
          payload: { reason: 'previous_run_active', previous_run_id: previous.id },
        };
    }
    let bound: number;
    try {
      bound = (await this.settings.resolveSettings(schedule.organization_id, tx)).max_concurrent_runs;
    } catch (err) {
      if (!isAppError(err)) throw err;
      const { code, message } = describeError(err);
      return { kind: 'workflow.schedule.failed', error: { code, message } };
    }
    const running = await store.runningCount(schedule.organization_id, tx);
    if (running >= bound)
      return {
        kind: 'workflow.schedule.skipped',
        payload: { reason: 'concurrency_limit', running, max_concurrent_runs: bound },
      };
    const full = await this.workflows.intakeRefusal(tx, schedule.organization_id);
    if (full !== undefined)
      return {
        kind: 'workflow.schedule.skipped',
        payload: { reason: full.limit === 'max_queued_runs' ? 'queue_full' : 'waiting_full', [full.limit]: full.max },
      };
    const body: SubmitRunInput = {
      input: schedule.input as SubmitRunInput['input'],
      state: schedule.state as SubmitRunInput['state'],
      priority: DEFAULT_PRIORITY,
    };
    const run = this.workflows.submitIn(tx, operator, definition, body, {
      scheduleId: schedule.id,
      submitter: schedule.created_by,
    });
    schedule.last_run_id = run.id;
    schedule.last_triggered_at = run.created_at;
    return { kind: 'workflow.schedule.triggered', runId: run.id };
  }

  /**
   * Why the schedule's creator could not submit its run now (undefined: they can). A run fires with
   * its creator's authority, so a creator who left the organization, lost the role, or whose API key
   * was revoked, expired or lost its scope stops it firing, as their own request would be refused.
   * The operator's schedules always fire.
   */
  private async creatorRefusal(schedule: WorkflowSchedule): Promise<string | undefined> {
    const { principal_id: principal, api_key_id: apiKeyId } = schedule.created_by;
    if (principal === null) return undefined;
    const org = schedule.organization_id;
    try {
      const answer = await this.checks.checkPermissionFor(
        operator,
        org,
        apiKeyId === null ? { principal } : { api_key_id: apiKeyId },
        { action: 'workflow.write', resource_type: 'organization', resource_id: org },
      );
      return answer.allowed ? undefined : answer.reason;
    } catch (err) {
      if (!isAppError(err)) throw err;
      return describeError(err).message;
    }
  }

  private emit<K extends EventKind>(tx: Tx, schedule: WorkflowSchedule, kind: K, payload: EventPayload<K>, runId?: string): void {
    this.eventLog.append(tx, {
      kind,
      organization_id: schedule.organization_id,
      workflow_id: schedule.workflow_id,
      run_id: runId ?? null,
      payload,
    });
  }
}

/** The schedule loop: every `tickMs`, sooner when a schedule falls due, and woken by schedule changes on any daemon. */
export function createScheduleLoop(trigger: ScheduleTrigger, storage: Storage, tickMs: number, log: Logger): Loop {
  const loop = new Loop({ name: 'workflow-schedules', intervalMs: tickMs, immediate: true, tick: () => trigger.tick(), log });
  storage.onWake(SCHEDULES_TOPIC, () => loop.wakeSoon());
  return loop;
}
