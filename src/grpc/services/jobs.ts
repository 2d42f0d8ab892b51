import { z } from 'zod';
import { operator } from '../../domain/identity/caller.js';
import { createJobBody, jobListQuery } from '../../domain/jobs/schemas.js';
import type { JobListItem, JobView } from '../../domain/jobs/schemas.js';
import { idSchema } from '../../domain/schemas.js';
import { AppError } from '../../errors.js';
import type { Job } from '../generated/switchyard/admin/v1/Job.js';
import type { JobServiceHandlers } from '../generated/switchyard/admin/v1/JobService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import { fromStruct, fromValue, toStruct, toValue } from '../json-value.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const jobRef = z.object({ id: idSchema });

/** A job as a message: null fields unset, free-form JSON as Struct and Value. */
function jobMessage(job: JobView | JobListItem): Job {
  return {
    ...toMessage(job),
    input: 'input' in job ? toStruct(job.input) : undefined,
    params: toStruct(job.params),
    state: job.state === null || job.state === undefined ? undefined : toValue(job.state),
    output: 'output' in job && job.output !== null ? toStruct(job.output) : undefined,
    submitted_by: toMessage(job.submitted_by),
    artifacts: job.artifacts,
  };
}

function implement({ services, log }: ServiceContext): JobServiceHandlers {
  const { jobs } = services;

  /**
   * The job id of a request. With `organization` set, the job must be that organization's:
   * another organization's is not_found, as over HTTP.
   */
  const jobOf = async (req: { id: string; organization?: string }): Promise<string> => {
    const { id } = parseRequest(jobRef, { id: req.id });
    if (req.organization === undefined) return id;
    const org = await resolveOrganization(services, req.organization);
    if ((await jobs.getJob(operator, id)).organization_id !== org.id) throw new AppError('not_found', 'job not found');
    return id;
  };

  return {
    CreateJob: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const body = parseRequest(createJobBody, {
        organization_id: org.id,
        modality: req.modality,
        ...(req.tier === undefined ? {} : { tier: req.tier }),
        ...(req.model === undefined ? {} : { model: req.model }),
        input: req.input === null ? {} : fromStruct(req.input),
        ...(req.params === null ? {} : { params: fromStruct(req.params) }),
        ...(req.state === null ? {} : { state: fromValue(req.state) }),
      });
      return jobMessage(await jobs.createJob(actor, body));
    }),
    GetJob: unary(log, async (req, { actor }) => jobMessage(await jobs.getJob(actor, await jobOf(req)))),
    ListJobs: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const query = parseRequest(jobListQuery, { organization_id: org.id, status: req.status, ...pageOptions(req) });
      const page = await jobs.listJobs(actor, query);
      return { jobs: page.items.map(jobMessage), next_cursor: page.nextCursor ?? '' };
    }),
    CancelJob: unary(log, async (req, { actor }) => jobMessage(await jobs.cancelJob(actor, await jobOf(req)))),
  };
}

export const jobService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/jobs.proto',
  serviceName: 'switchyard.admin.v1.JobService',
  implement,
};
