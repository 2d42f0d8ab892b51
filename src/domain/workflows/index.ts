import { randomUUID } from 'node:crypto';
import type { Area, AreaBase } from '../area.js';
import type { AssetServices } from '../assets/index.js';
import type { IdentityServices } from '../identity/index.js';
import type { ProviderServices } from '../providers/index.js';
import type { SettingsServices } from '../settings/index.js';
import { createExecutorLoop, RunExecutor, type OutputKeeper } from './executor.js';
import { createScheduleLoop, ScheduleService, ScheduleTrigger } from './schedules.js';
import { WorkflowService } from './service.js';
import { RunStreams } from './streams.js';
import { ScheduleStore, WorkflowStore } from './store.js';
import { createWaitExpiryLoop } from './wait-expiry-loop.js';

export interface WorkflowServices {
  workflows: WorkflowService;
  runExecutor: RunExecutor;
  schedules: ScheduleService;
}

/** Nodes of one run in flight at once (docs/workflows.md). */
const MAX_PARALLEL_NODES = 4;
/** Progress events of one node at most once a second (issue: "at most once a second per node"). */
const PROGRESS_EVERY_MS = 1_000;

/** Workflows (contract 12): definitions, runs, their queue and executor. */
export function createWorkflows({
  storage,
  config,
  log,
  eventLog,
  audit,
  publicUrl,
  permissions,
  permissionChecks,
  providers,
  settings,
  assets,
  metrics,
}: AreaBase &
  Pick<IdentityServices, 'permissions' | 'permissionChecks'> &
  Pick<ProviderServices, 'providers'> &
  Pick<SettingsServices, 'settings'> &
  Pick<AssetServices, 'assets'>): Area<WorkflowServices> {
  const workflowLog = log.child({ module: 'workflows' });
  const instanceId = randomUUID();
  const store = new WorkflowStore(storage);
  const streams = new RunStreams(
    storage,
    eventLog,
    {
      perPrincipal: config.runStreamsPerPrincipal,
      perOrganization: config.runStreamsPerOrg,
      pollMs: config.runStreamPollMs,
      recheckMs: config.runStreamRecheckMs,
    },
    metrics,
  );
  const workflows = new WorkflowService(
    storage,
    store,
    permissions,
    eventLog,
    audit,
    assets,
    publicUrl,
    instanceId,
    metrics,
    streams,
    settings,
  );
  // Images a node makes become assets of the run, kept with the node's outcome; the output names them.
  const keep: OutputKeeper = async (tx, run, node, result) =>
    (
      await assets.keepOutput(
        tx,
        { organization_id: run.organization_id, run_id: run.id, node_key: node.key },
        result.output,
        node.key,
      )
    ).output;
  // The executor and the schedule trigger are the loops' work: the background lane's connections.
  const executor = new RunExecutor(
    storage.background,
    store,
    workflows,
    providers,
    settings,
    keep,
    {
      instanceId,
      leaseMs: config.workflowLeaseMs,
      maxParallelNodes: MAX_PARALLEL_NODES,
      progressEveryMs: PROGRESS_EVERY_MS,
    },
    workflowLog,
    metrics,
  );
  const scheduleStore = new ScheduleStore(storage);
  const schedules = new ScheduleService(storage, scheduleStore, workflows, audit, settings);
  workflows.writeSchedules = schedules.replaceIn;
  const trigger = new ScheduleTrigger(
    storage.background,
    scheduleStore,
    workflows,
    settings,
    permissionChecks,
    eventLog,
    { instanceId, leaseMs: config.workflowLeaseMs },
    workflowLog,
  );
  return {
    services: { workflows, runExecutor: executor, schedules },
    loops: [
      createExecutorLoop(executor, storage.background, config.workflowPollMs, workflowLog),
      createScheduleLoop(trigger, storage.background, config.workflowScheduleTickMs, workflowLog),
      createWaitExpiryLoop(workflows, { timeoutMs: config.runWaitTimeoutMs, sweepMs: config.runWaitSweepMs }, workflowLog),
    ],
    resources: { workflow_run: (id) => workflows.locateRun(id) },
    count: async () => ({
      workflow_definitions: await store.definitions.count(),
      workflow_runs: await store.runs.count(),
      workflow_schedules: await scheduleStore.schedules.count(),
    }),
    close: () => executor.drain(),
  };
}
