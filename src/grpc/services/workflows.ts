import { z } from 'zod';
import { eventIdSchema } from '../../domain/events/schemas.js';
import { operator } from '../../domain/identity/caller.js';
import { idSchema } from '../../domain/schemas.js';
import {
  createScheduleBody,
  createWorkflowBody,
  runInputBody,
  runListQuery,
  submitRunBody,
  workflowName,
} from '../../domain/workflows/schemas.js';
import type { RunView, ScheduleView, WorkflowView } from '../../domain/workflows/schemas.js';
import type { NodeState, WorkflowNode as WorkflowNodeRecord } from '../../domain/workflows/types.js';
import { AppError } from '../../errors.js';
import type { Workflow } from '../generated/switchyard/admin/v1/Workflow.js';
import type { WorkflowNode } from '../generated/switchyard/admin/v1/WorkflowNode.js';
import type { WorkflowNodeState } from '../generated/switchyard/admin/v1/WorkflowNodeState.js';
import type { WorkflowRun } from '../generated/switchyard/admin/v1/WorkflowRun.js';
import type { WorkflowSchedule } from '../generated/switchyard/admin/v1/WorkflowSchedule.js';
import type { WorkflowServiceHandlers } from '../generated/switchyard/admin/v1/WorkflowService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import { fromStruct, fromValue, toStruct, toValue } from '../json-value.js';
import { eventMessage } from './events.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const runRef = z.object({ id: idSchema });
const nameRef = z.object({ name: workflowName });
const scheduleRef = z.object({ workflow: workflowName, id: idSchema });
const outputRequest = z.object({
  expires_in_seconds: z.number().int('must be a whole number of seconds').min(1, 'must be at least 1').optional(),
});
const runEventsRequest = z.object({
  after: eventIdSchema.optional(),
  limit: z.number().int().min(0, 'must be 0 (default) to 200').max(200, 'must be 0 (default) to 200'),
});
/** Run events a page, when the request names no limit. */
const DEFAULT_RUN_EVENTS = 50;

function nodeMessage(node: WorkflowNodeRecord): WorkflowNode {
  return { ...toMessage(node), input: toStruct(node.input), params: toStruct(node.params) };
}

function workflowMessage(workflow: WorkflowView): Workflow {
  return { ...workflow, nodes: workflow.nodes.map(nodeMessage) };
}

function nodeStateMessage(state: NodeState): WorkflowNodeState {
  return { ...toMessage(state), output: state.output === null ? undefined : toStruct(state.output) };
}

/** A run as a message: null fields unset, free-form JSON as Struct and Value. */
function runMessage(run: RunView): WorkflowRun {
  return {
    ...toMessage(run),
    input: toStruct(run.input),
    state: run.state === null || run.state === undefined ? undefined : toValue(run.state),
    nodes: run.nodes.map(nodeMessage),
    node_states: Object.fromEntries(Object.entries(run.node_states).map(([key, state]) => [key, nodeStateMessage(state)])),
    output: toStruct(run.output),
    submitted_by: toMessage(run.submitted_by),
  };
}

function scheduleMessage(schedule: ScheduleView): WorkflowSchedule {
  return {
    ...toMessage(schedule),
    input: toStruct(schedule.input),
    state: schedule.state === null || schedule.state === undefined ? undefined : toValue(schedule.state),
    created_by: toMessage(schedule.created_by),
  };
}

function implement({ services, log }: ServiceContext): WorkflowServiceHandlers {
  const { workflows, schedules } = services;

  /**
   * The run id of a request. With `organization` set, the run must be that organization's:
   * another organization's is not_found, as over HTTP.
   */
  const runOf = async (req: { id: string; organization?: string }): Promise<string> => {
    const { id } = parseRequest(runRef, { id: req.id });
    if (req.organization === undefined) return id;
    const org = await resolveOrganization(services, req.organization);
    if ((await workflows.getRun(operator, id)).organization_id !== org.id)
      throw new AppError('not_found', 'workflow run not found');
    return id;
  };
  /** The organization and definition name of a request that names one. */
  const definitionOf = async (req: { organization: string; name: string }) => {
    const org = await resolveOrganization(services, req.organization);
    return { organizationId: org.id, ...parseRequest(nameRef, { name: req.name }) };
  };

  return {
    CreateWorkflow: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const input = parseRequest(createWorkflowBody, {
        organization_id: org.id,
        name: req.name,
        nodes: req.nodes.map(fromStruct),
        // Passed on only when given: the definition body decides what a schedule is.
        ...(req.schedules.length === 0 ? {} : { schedules: req.schedules.map(fromStruct) }),
      });
      return workflowMessage(await workflows.createWorkflow(actor, input));
    }),
    ListWorkflows: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const { limit, cursor } = pageOptions(req);
      const page = await workflows.listWorkflows(actor, org.id, { limit, cursor: cursor ?? undefined });
      return { workflows: page.items.map(workflowMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetWorkflow: unary(log, async (req, { actor }) => {
      const { organizationId, name } = await definitionOf(req);
      return workflowMessage(await workflows.getWorkflow(actor, organizationId, name));
    }),
    DeleteWorkflow: unary(log, async (req, { actor }) => {
      const { organizationId, name } = await definitionOf(req);
      return workflowMessage(await workflows.deleteWorkflow(actor, organizationId, name));
    }),
    RunWorkflow: unary(log, async (req, { actor }) => {
      const { organizationId, name } = await definitionOf(req);
      const body = parseRequest(submitRunBody, {
        organization_id: organizationId,
        input: req.input === null ? {} : fromStruct(req.input),
        ...(req.state === null ? {} : { state: fromValue(req.state) }),
        ...(req.priority === undefined ? {} : { priority: req.priority }),
      });
      return runMessage(await workflows.submitRun(actor, name, body));
    }),
    GetRun: unary(log, async (req, { actor }) => runMessage(await workflows.getRun(actor, await runOf(req)))),
    ListRuns: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const query = parseRequest(runListQuery, {
        organization_id: org.id,
        workflow: req.workflow,
        status: req.status,
        ...pageOptions(req),
      });
      const page = await workflows.listRuns(actor, query);
      return { runs: page.items.map(runMessage), next_cursor: page.nextCursor ?? '' };
    }),
    CancelRun: unary(log, async (req, { actor }) => runMessage(await workflows.cancelRun(actor, await runOf(req)))),
    PauseRun: unary(log, async (req, { actor }) => runMessage(await workflows.pauseRun(actor, await runOf(req)))),
    ResumeRun: unary(log, async (req, { actor }) => runMessage(await workflows.resumeRun(actor, await runOf(req)))),
    PromoteRun: unary(log, async (req, { actor }) => runMessage(await workflows.promoteRun(actor, await runOf(req)))),
    AnswerInput: unary(log, async (req, { actor }) => {
      const id = await runOf(req);
      const body = parseRequest(runInputBody, {
        node_key: req.node_key,
        input: req.input === null ? {} : fromStruct(req.input),
      });
      return runMessage(await workflows.answerInput(actor, id, body));
    }),
    GetRunOutput: unary(log, async (req, { actor }) => {
      const id = await runOf(req);
      const { expires_in_seconds } = parseRequest(outputRequest, { expires_in_seconds: req.expires_in_seconds });
      const result = await workflows.runOutput(actor, id, expires_in_seconds);
      return { ...result, output: toStruct(result.output) };
    }),
    ListRunEvents: unary(log, async (req, { actor }) => {
      const id = await runOf(req);
      const { after, limit } = parseRequest(runEventsRequest, { after: req.after, limit: req.limit });
      const events = await services.events.listRunEvents(actor, id, { after, limit: limit === 0 ? DEFAULT_RUN_EVENTS : limit });
      return { events: events.map(eventMessage) };
    }),
    CreateSchedule: unary(log, async (req, { actor }) => {
      const { organizationId, name } = await definitionOf({ organization: req.organization, name: req.workflow });
      const body = parseRequest(createScheduleBody, {
        organization_id: organizationId,
        cron: req.cron,
        ...(req.timezone === undefined ? {} : { timezone: req.timezone }),
        ...(req.input === null ? {} : { input: fromStruct(req.input) }),
        ...(req.state === null ? {} : { state: fromValue(req.state) }),
        ...(req.overlap === undefined ? {} : { overlap: req.overlap }),
      });
      return scheduleMessage(await schedules.createSchedule(actor, name, body));
    }),
    ListSchedules: unary(log, async (req, { actor }) => {
      const { organizationId, name } = await definitionOf({ organization: req.organization, name: req.workflow });
      const { limit, cursor } = pageOptions(req);
      const page = await schedules.listSchedules(actor, organizationId, name, { limit, cursor: cursor ?? undefined });
      return { schedules: page.items.map(scheduleMessage), next_cursor: page.nextCursor ?? '' };
    }),
    DeleteSchedule: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const { workflow, id } = parseRequest(scheduleRef, { workflow: req.workflow, id: req.id });
      return scheduleMessage(await schedules.deleteSchedule(actor, org.id, workflow, id));
    }),
  };
}

export const workflowService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/workflows.proto',
  serviceName: 'switchyard.admin.v1.WorkflowService',
  implement,
};
