import { z } from 'zod';
import {
  createScheduleBody,
  createWorkflowBody,
  orgPageQuery,
  orgQuery,
  runInputBody,
  runListQuery,
  runOutputSchema,
  runQuery,
  runSchema,
  scheduleSchema,
  submitRunBody,
  workflowName,
  workflowSchema,
} from '../../domain/workflows/schemas.js';
import { expiresInQuery } from '../../domain/assets/index.js';
import type { Services } from '../../areas.js';
import { idSchema } from '../../domain/schemas.js';
import { AppError } from '../../errors.js';
import { writeEventStream } from '../event-stream.js';
import { rawHeader } from '../headers.js';
import { defineRoute, idParams, Reply } from '../route.js';

const nameParams = z.object({ name: workflowName });
const scheduleParams = z.object({ name: workflowName, id: idSchema });

/** Contract 12: definitions by name, runs and their actions. Run routes come first (a name is never `runs`). */
export function workflowRoutes({ workflows, schedules, authentication }: Services) {
  const action = (verb: 'cancel' | 'pause' | 'resume' | 'promote', summary: string) =>
    defineRoute({
      method: 'POST',
      path: `/v1/workflows/runs/:id/${verb}`,
      summary,
      tag: 'workflows',
      scope: 'workflows:write',
      params: idParams('id'),
      response: runSchema,
      handler: async (ctx) => {
        const act = {
          cancel: () => workflows.cancelRun(ctx.caller, ctx.params.id),
          pause: () => workflows.pauseRun(ctx.caller, ctx.params.id),
          resume: () => workflows.resumeRun(ctx.caller, ctx.params.id),
          promote: () => workflows.promoteRun(ctx.caller, ctx.params.id),
        }[verb];
        return act();
      },
    });
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/workflows/run',
      summary: 'Submit a run of the latest version of a workflow (?name=): 202 with the run, queued',
      tag: 'workflows',
      scope: 'workflows:write',
      query: runQuery,
      body: submitRunBody,
      response: runSchema,
      status: 202,
      handler: async (ctx) => workflows.submitRun(ctx.caller, ctx.query.name, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows/runs',
      summary: "The organization's runs, oldest first; ?workflow=<name> or ?status=",
      tag: 'workflows',
      scope: 'workflows:read',
      query: runListQuery,
      response: z.array(runSchema),
      handler: async (ctx) => Reply.page(await workflows.listRuns(ctx.caller, ctx.query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows/runs/:id',
      summary: 'One run, with its state, node states and output',
      tag: 'workflows',
      scope: 'workflows:read',
      params: idParams('id'),
      response: runSchema,
      handler: async (ctx) => workflows.getRun(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows/runs/:id/output',
      summary:
        'The run output (spec 2.10): output, and artifacts with signed download links valid ?expires_in= seconds (API key)',
      tag: 'workflows',
      scope: 'workflows:read',
      params: idParams('id'),
      query: expiresInQuery,
      response: runOutputSchema,
      handler: async (ctx) => {
        if (ctx.caller.apiKey === undefined)
          throw new AppError('unauthenticated', 'run output is read with an API key', { reason: 'api_key_required' });
        return workflows.runOutput(ctx.caller, ctx.params.id, ctx.query.expires_in);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows/runs/:id/events',
      summary:
        "A run's events as server-sent events (id: event id, event: kind, data: the event): those so far, then live, until its terminal event; Last-Event-ID resumes",
      tag: 'workflows',
      scope: 'workflows:read',
      params: idParams('id'),
      handler: async (ctx) => {
        const gone = new AbortController();
        ctx.res.once('close', () => gone.abort());
        const after = rawHeader(ctx.req, 'last-event-id', 'first');
        // The stream's credentials, presented again as it goes: it ends once they are refused.
        const credentials = {
          authorization: rawHeader(ctx.req, 'authorization', 'first'),
          principalId: rawHeader(ctx.req, 'x-principal-id', 'join'),
        };
        const reauthenticate = async () => {
          const caller = await authentication.authenticate(credentials);
          if (caller === null) throw new AppError('unauthenticated', 'credentials are required');
          return caller;
        };
        const events = await workflows.followRun(
          ctx.caller,
          ctx.params.id,
          after === undefined || after === '' ? undefined : after,
          gone.signal,
          reauthenticate,
        );
        await writeEventStream(ctx.res, ctx.requestId, events);
        return Reply.handled();
      },
    }),
    action('cancel', 'Cancel a run that has not ended: nodes in flight stop'),
    action('pause', 'Pause a queued, waiting or running run: no node starts until it is resumed'),
    action('resume', 'Resume a paused run: it goes back into the queue'),
    action('promote', 'Move a queued run ahead of every run not promoted'),
    defineRoute({
      method: 'POST',
      path: '/v1/workflows/runs/:id/input',
      summary: 'Answer a waiting `wait` node: {node_key, input}; the input is the node output',
      tag: 'workflows',
      scope: 'workflows:write',
      params: idParams('id'),
      body: runInputBody,
      response: runSchema,
      handler: async (ctx) => workflows.answerInput(ctx.caller, ctx.params.id, ctx.body),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/workflows',
      summary: 'Register a workflow (member); an existing name gets a new version, which new runs use',
      tag: 'workflows',
      scope: 'workflows:write',
      body: createWorkflowBody,
      response: workflowSchema,
      status: 201,
      handler: async (ctx) => workflows.createWorkflow(ctx.caller, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows',
      summary: "The organization's workflows, by name",
      tag: 'workflows',
      scope: 'workflows:read',
      query: orgPageQuery,
      response: z.array(workflowSchema),
      handler: async (ctx) => {
        const { organization_id, ...page } = ctx.query;
        return Reply.page(await workflows.listWorkflows(ctx.caller, organization_id, page));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows/:name',
      summary: 'One workflow, its latest version',
      tag: 'workflows',
      scope: 'workflows:read',
      params: nameParams,
      query: orgQuery,
      response: workflowSchema,
      handler: async (ctx) => workflows.getWorkflow(ctx.caller, ctx.query.organization_id, ctx.params.name),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/workflows/:name',
      summary: 'Delete a workflow (soft): its name is free again; runs already submitted go on',
      tag: 'workflows',
      scope: 'workflows:write',
      params: nameParams,
      query: orgQuery,
      response: workflowSchema,
      handler: async (ctx) => workflows.deleteWorkflow(ctx.caller, ctx.query.organization_id, ctx.params.name),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/workflows/:name/schedules',
      summary: 'Schedule runs of a workflow: {cron (5 fields, or 6 with seconds first), timezone?, input?, state?, overlap?}',
      tag: 'workflows',
      scope: 'workflows:write',
      params: nameParams,
      body: createScheduleBody,
      response: scheduleSchema,
      status: 201,
      handler: async (ctx) => schedules.createSchedule(ctx.caller, ctx.params.name, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/workflows/:name/schedules',
      summary: "A workflow's schedules, in creation order",
      tag: 'workflows',
      scope: 'workflows:read',
      params: nameParams,
      query: orgPageQuery,
      response: z.array(scheduleSchema),
      handler: async (ctx) => {
        const { organization_id, ...page } = ctx.query;
        return Reply.page(await schedules.listSchedules(ctx.caller, organization_id, ctx.params.name, page));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/workflows/:name/schedules/:id',
      summary: 'Delete a schedule: it fires no more (runs it submitted go on)',
      tag: 'workflows',
      scope: 'workflows:write',
      params: scheduleParams,
      query: orgQuery,
      response: scheduleSchema,
      handler: async (ctx) => schedules.deleteSchedule(ctx.caller, ctx.query.organization_id, ctx.params.name, ctx.params.id),
    }),
  ];
}
