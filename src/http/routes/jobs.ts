import { z } from 'zod';
import { expiresInQuery } from '../../domain/assets/schemas.js';
import { createJobBody, jobListQuery, jobOutputSchema, jobSchema } from '../../domain/jobs/schemas.js';
import { EXECUTE_BODY_LIMIT } from '../../domain/providers/schemas.js';
import type { Services } from '../../areas.js';
import { defineRoute, idParams, Reply } from '../route.js';

/** Contract 12: jobs, one provider call each, in the background. */
export function jobRoutes({ jobs }: Services) {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/jobs',
      summary: 'Submit a job: one provider call (an execute body, and an optional state), run in the background; 202',
      tag: 'jobs',
      scope: 'jobs:write',
      body: createJobBody,
      bodyLimitBytes: EXECUTE_BODY_LIMIT,
      response: jobSchema,
      status: 202,
      handler: async (ctx) => jobs.createJob(ctx.caller, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/jobs',
      summary: "The organization's jobs, oldest first; ?status=",
      tag: 'jobs',
      scope: 'jobs:read',
      query: jobListQuery,
      response: z.array(jobSchema),
      handler: async (ctx) => Reply.page(await jobs.listJobs(ctx.caller, ctx.query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/jobs/:id',
      summary: 'One job: its status, and its output or error once it ended',
      tag: 'jobs',
      scope: 'jobs:read',
      params: idParams('id'),
      response: jobSchema,
      handler: async (ctx) => jobs.getJob(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/jobs/:id/output',
      summary: "A job's output and artifacts with fresh signed download links valid ?expires_in= seconds (default 3600)",
      tag: 'jobs',
      scope: 'jobs:read',
      params: idParams('id'),
      query: expiresInQuery,
      response: jobOutputSchema,
      handler: async (ctx) => jobs.jobOutput(ctx.caller, ctx.params.id, ctx.query.expires_in),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/jobs/:id/cancel',
      summary: 'Cancel a job that has not ended: a call in flight stops',
      tag: 'jobs',
      scope: 'jobs:write',
      params: idParams('id'),
      response: jobSchema,
      handler: async (ctx) => jobs.cancelJob(ctx.caller, ctx.params.id),
    }),
  ];
}
