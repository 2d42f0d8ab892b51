import { Collection, type IndexEntry } from '../../storage/collection.js';
import { compositeKey } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { MAX_PRIORITY, type WorkflowDefinition, type WorkflowRun, type WorkflowSchedule } from './types.js';

/** The storage wake-up topic of run changes: every daemon's executor looks again. */
export const RUNS_TOPIC = 'workflow-runs';

/** The lock of one run's read-modify-writes. */
export const runLock = (id: string) => `run:${id}`;
/** The lock of a definition name's changes: registration, deletion, and its schedules' creation. */
export const workflowNameLock = (organizationId: string, name: string) => `workflow-name:${organizationId}:${name}`;
/** The lock of an organization's definition names (new names are counted under it: max_workflows). */
export const workflowCountLock = (organizationId: string) => `workflow-count:${organizationId}`;
/** The lock of an organization's schedule creations (counted under it: max_schedules). */
export const scheduleCountLock = (organizationId: string) => `schedule-count:${organizationId}`;
/** The lock of an organization's run submissions (queued and waiting runs are counted under it). */
export const runIntakeLock = (organizationId: string) => `run-intake:${organizationId}`;
/** The lock under which runs of an organization start (the concurrency bound is counted under it). */
export const slotsLock = (organizationId: string) => `run-slots:${organizationId}`;

/**
 * A queued run's place: promoted runs first (in promotion order), then higher priority, then the
 * time it entered the queue.
 */
export function queuePlace(run: WorkflowRun): string {
  if (run.promoted_at !== null) return `0${run.promoted_at}`;
  return `1${String(MAX_PRIORITY - run.priority).padStart(3, '0')}${run.queued_at ?? run.created_at}`;
}

/** Workflow definitions and runs, with the named queries of the queue and the executor. */
export class WorkflowStore {
  readonly definitions: Collection<WorkflowDefinition>;
  readonly runs: Collection<WorkflowRun>;

  constructor(storage: Storage) {
    const live = (d: WorkflowDefinition) => d.deleted_at === null;
    this.definitions = new Collection<WorkflowDefinition>(storage, 'workflow_definitions', (d) => d.id, [
      { name: 'organization', value: (d) => (live(d) ? d.organization_id : undefined), sort: (d) => d.name },
      { name: 'name', value: (d) => (live(d) ? compositeKey(d.organization_id, d.name) : undefined), unique: true },
    ]);
    this.runs = new Collection<WorkflowRun>(storage, 'workflow_runs', (r) => r.id, [
      { name: 'organization', value: (r) => r.organization_id, sort: (r) => r.created_at },
      { name: 'workflow', value: (r) => r.workflow_id, sort: (r) => r.created_at },
      { name: 'organization_status', value: (r) => [r.organization_id, r.status], sort: (r) => r.created_at },
      // The queue: by organization in queue order, and the organizations that have one.
      { name: 'queue', value: (r) => (r.status === 'queued' ? r.organization_id : undefined), sort: queuePlace },
      { name: 'queued_orgs', value: (r) => (r.status === 'queued' ? 'queued' : undefined), sort: (r) => r.organization_id },
      // Runs in progress: counted per organization (the bound), and by lease end (takeover).
      { name: 'running', value: (r) => (r.status === 'running' ? r.organization_id : undefined) },
      { name: 'leases', value: (r) => (r.status === 'running' ? 'running' : undefined), sort: (r) => r.lease_until ?? '' },
      // Runs waiting for input, by their own deadline (so "overdue" is a prefix whatever each
      // organization's timeout): expiry. LevelDB migration 13 and PostgreSQL 23 keyed older runs so.
      {
        name: 'waiting',
        value: (r) => (r.status === 'waiting' ? 'waiting' : undefined),
        sort: (r) => r.wait_expires_at ?? r.updated_at,
      },
    ]);
  }

  /**
   * A run to change in `tx`: a copy, so that the transaction still holds the version it read (whose
   * index keys the write replaces).
   */
  async editable(tx: Tx, id: string): Promise<WorkflowRun | undefined> {
    const run = await tx.get(this.runs, id);
    return run === undefined ? undefined : structuredClone(run);
  }

  async findDefinition(organizationId: string, name: string, tx?: Tx): Promise<WorkflowDefinition | undefined> {
    return this.definitions.in(tx).findUnique('name', compositeKey(organizationId, name));
  }

  /** Organizations with queued runs, in id order, past `after`. */
  async organizationsWithQueue(after: string | undefined, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.runs.in(tx).listDistinct('queued_orgs', 'queued', { after, limit })).items;
  }

  /** The first `limit` queued runs of an organization, in queue order. */
  async queued(organizationId: string, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.runs.in(tx).range('queue', organizationId, { limit })).map((e) => e.id);
  }

  /** The queued runs of an organization ahead of `place` (its position in the queue, from 0). */
  async queuePosition(organizationId: string, place: string, tx?: Tx): Promise<number> {
    return this.runs.in(tx).countRange('queue', organizationId, { before: place });
  }

  /** Live definitions of an organization, counted up to `max`. */
  async definitionCount(organizationId: string, max: number, tx?: Tx): Promise<number> {
    return this.definitions.in(tx).countRange('organization', organizationId, { limit: max });
  }

  /** Live definitions of an organization, their ids (at most `max`). */
  async definitionIds(organizationId: string, max: number, tx?: Tx): Promise<string[]> {
    return (await this.definitions.in(tx).range('organization', organizationId, { limit: max })).map((e) => e.id);
  }

  /** Runs of an organization queued, and waiting for input, each counted up to its `max`. */
  async intakeCounts(
    organizationId: string,
    max: { queued: number; waiting: number },
    tx?: Tx,
  ): Promise<{ queued: number; waiting: number }> {
    const runs = this.runs.in(tx);
    return {
      queued: await runs.countRange('queue', organizationId, { limit: max.queued }),
      waiting: await runs.countRange('organization_status', [organizationId, 'waiting'], { limit: max.waiting }),
    };
  }

  async runningCount(organizationId: string, tx?: Tx): Promise<number> {
    return this.runs.in(tx).countBy('running', organizationId);
  }

  /** Waiting runs due by `upTo` (every one when undefined), soonest due first; `sort` is the deadline. */
  async waitingDueBy(upTo: string | undefined, limit: number, tx?: Tx): Promise<IndexEntry[]> {
    return this.runs.in(tx).range('waiting', 'waiting', { upTo, limit });
  }

  /** Running runs whose lease ended by `upTo` (every one when undefined), soonest first. */
  async leasesEndedBy(upTo: string | undefined, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.runs.in(tx).range('leases', 'running', { upTo, limit })).map((e) => e.id);
  }
}

/** The storage wake-up topic of schedule changes: every daemon's schedule loop looks again. */
export const SCHEDULES_TOPIC = 'workflow-schedules';

/** The lock of one schedule's read-modify-writes (its fire included). */
export const scheduleLock = (id: string) => `schedule:${id}`;

/**
 * Where a live schedule sits in the fire queue: waiting for its time, claimed by a daemon, or
 * backing off after a failed fire until its retry time (`lease_until` without an owner).
 */
function fireQueueOf(s: WorkflowSchedule): { value: string; sort: string } | undefined {
  if (s.deleted_at !== null || s.next_run_at === null) return undefined;
  if (s.lease_until !== null) return { value: s.lease_owner === null ? 'retry' : 'leased', sort: s.lease_until };
  return { value: 'due', sort: s.next_run_at };
}

/** Workflow schedules (docs/workflows.md, "Schedules"): by definition, and the fire queue. */
export class ScheduleStore {
  readonly schedules: Collection<WorkflowSchedule>;

  constructor(storage: Storage) {
    this.schedules = new Collection<WorkflowSchedule>(storage, 'workflow_schedules', (s) => s.id, [
      { name: 'workflow', value: (s) => (s.deleted_at === null ? s.workflow_id : undefined), sort: (s) => s.created_at },
      { name: 'due', value: (s) => fireQueueOf(s)?.value, sort: (s) => fireQueueOf(s)?.sort ?? '' },
    ]);
  }

  /** A schedule to change in `tx`: a copy (see WorkflowStore.editable). */
  async editable(tx: Tx, id: string): Promise<WorkflowSchedule | undefined> {
    const schedule = await tx.get(this.schedules, id);
    return schedule === undefined ? undefined : structuredClone(schedule);
  }

  /** A definition's live schedules, in creation order (at most MAX_SCHEDULES exist). */
  async ofWorkflow(workflowId: string, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.schedules.in(tx).range('workflow', workflowId, { limit })).map((e) => e.id);
  }

  /** Schedules due by `upTo` and not claimed, soonest first. */
  async dueBy(upTo: string, limit: number, tx?: Tx): Promise<string[]> {
    return (await this.schedules.in(tx).range('due', 'due', { upTo, limit })).map((e) => e.id);
  }

  /** Claimed schedules whose lease ended by `upTo` (every one when undefined). */
  async leasesEndedBy(upTo: string | undefined, limit: number): Promise<string[]> {
    return (await this.schedules.range('due', 'leased', { upTo, limit })).map((e) => e.id);
  }

  /** Schedules backing off after a failed fire whose retry time came by `upTo`, soonest first. */
  async retriesDueBy(upTo: string, limit: number): Promise<string[]> {
    return (await this.schedules.range('due', 'retry', { upTo, limit })).map((e) => e.id);
  }

  /** When the next unclaimed schedule is due (ISO), a failed fire's retry included, if any. */
  async nextDueAt(): Promise<string | undefined> {
    const [due] = await this.schedules.range('due', 'due', { limit: 1 });
    const [retry] = await this.schedules.range('due', 'retry', { limit: 1 });
    if (due === undefined || retry === undefined) return (due ?? retry)?.sort;
    return due.sort < retry.sort ? due.sort : retry.sort;
  }
}
