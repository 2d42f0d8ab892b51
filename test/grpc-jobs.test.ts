// The admin API's jobs and schedules, in-process, as a gRPC client meets them: every rpc of
// JobService and WorkflowService's schedule rpcs against a real daemon (echo jobs, a model no
// provider serves, a hanging upstream to cancel a job in flight), the answers as the CLI's client
// decodes them equal to the HTTP API's `data`, and the error codes: another organization's job
// NOT_FOUND, a bad cron INVALID_ARGUMENT naming `cron`, cancelling an ended job FAILED_PRECONDITION.
import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import t, { type Test } from 'tap';
import { AdminClient } from '../src/cli/client.js';
import type { JobServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/JobService.js';
import type { OrganizationServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/OrganizationService.js';
import type { WorkflowServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/WorkflowService.js';
import { toStruct, toValue } from '../src/grpc/json-value.js';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, request, startTestDaemon, waitFor } from './helpers.js';
import { failingCalls } from './support/grpc-failure.js';

const jobCalls = (client: AdminClient) => client.service<JobServiceDefinition>('JobService');
const workflowCalls = (client: AdminClient) => client.service<WorkflowServiceDefinition>('WorkflowService');

async function world(t: Test) {
  const openai = await FakeOpenAI.start(t);
  const daemon = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
    SERVICE_WORKFLOW_POLL_MS: '200',
  });
  const client = new AdminClient({ kind: 'unix', socketPath: daemon.grpc.socketPath });
  t.teardown(() => client.close());
  const orgs = client.service<OrganizationServiceDefinition>('OrganizationService');
  const ownerId = randomUUID();
  const created = await orgs.CreateOrganization({ slug: 'acme', owner_principal_id: ownerId });
  await orgs.CreateOrganization({ slug: 'other' });
  const org = { id: created.organization!.id, owner: asPrincipal(ownerId) };
  const jobs = jobCalls(client);
  const http = async (path: string, method: 'GET' | 'DELETE' = 'GET') => {
    const res = await request(daemon.url, method, path, { headers: org.owner });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  /** The job as GetJob answers it once it has ended. */
  const ended = async (id: string) => {
    let job: any;
    await waitFor(
      async () => {
        job = await jobs.GetJob({ id });
        return ['completed', 'failed', 'cancelled'].includes(job.status);
      },
      { what: `job ${id} to end` },
    );
    return job;
  };
  return {
    openai,
    jobs,
    wf: workflowCalls(client),
    failJob: failingCalls(t, daemon, 'JobService'),
    failWorkflow: failingCalls(t, daemon, 'WorkflowService'),
    org,
    http,
    ended,
  };
}

t.test('jobs: create, get, list, a failing one, cancel; the HTTP API’s job; another organization’s NOT_FOUND', async (t) => {
  const { openai, jobs, failJob, org, http, ended } = await world(t);
  const created = await jobs.CreateJob({
    organization: 'acme',
    modality: 'text',
    model: 'echo',
    input: toStruct({ prompt: 'one job' }),
    state: toValue({ ref: 7 }),
  });
  t.match(created, {
    status: 'queued',
    modality: 'text',
    model: 'echo',
    tier: null,
    input: { prompt: 'one job' },
    params: {},
    state: { ref: 7 },
    organization_id: org.id,
    submitted_by: { principal_id: null, api_key_id: null },
    output: null,
    error: null,
  });
  const done = await ended(created.id);
  t.match(done, { status: 'completed', provider: 'echo', output: { text: 'one job' }, error: null, instance_id: String });
  t.same(done, await http(`/v1/jobs/${created.id}`), 'the HTTP API’s job, field for field');
  t.same(await jobs.GetJob({ id: created.id, organization: 'acme' }), done, 'scoped to its organization');

  const failing = await jobs.CreateJob({
    organization: org.id,
    modality: 'text',
    model: 'no-such-model',
    input: toStruct({ prompt: 'x' }),
    params: toStruct({ max_tokens: 5 }),
  });
  const failed = await ended(failing.id);
  t.match(failed, {
    status: 'failed',
    error: { code: 'no_provider', message: /no provider can serve/ },
    output: null,
    state: null,
  });
  t.same(failed.params, { max_tokens: 5 });
  t.same(failed, await http(`/v1/jobs/${failing.id}`));

  const listed = await jobs.ListJobs({ organization: 'acme', limit: 0, cursor: '' });
  t.ok(
    listed.jobs.every((j: any) => j.input === null),
    'lists carry no inputs',
  );
  t.ok(
    listed.jobs.some((j: any) => j.status === 'completed') && listed.jobs.every((j: any) => j.output === null),
    'lists carry no outputs, a completed job’s neither',
  );
  t.same(
    listed.jobs.map(({ input: _input, output: _output, ...j }: any) => j),
    await http(`/v1/jobs?organization_id=${org.id}`),
    'the HTTP API’s list',
  );
  t.equal(listed.next_cursor, '');
  t.same(
    (await jobs.ListJobs({ organization: 'acme', status: 'failed', limit: 0, cursor: '' })).jobs.map((j) => j.id),
    [failing.id],
    'by status',
  );
  const page = await jobs.ListJobs({ organization: 'acme', limit: 1, cursor: '' });
  t.same(
    page.jobs.map((j) => j.id),
    [created.id],
  );
  t.same(
    (await jobs.ListJobs({ organization: 'acme', limit: 1, cursor: page.next_cursor })).jobs.map((j) => j.id),
    [failing.id],
    'paged, oldest first',
  );
  t.same((await jobs.ListJobs({ organization: 'other', limit: 0, cursor: '' })).jobs, [], 'another organization has none');
  t.match(await failJob('ListJobs', { organization: 'acme', status: 'lost' }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { status: String } },
  });

  t.match(await failJob('GetJob', { id: created.id, organization: 'other' }), { code: status.NOT_FOUND, errorCode: 'not_found' });
  t.match(await failJob('CancelJob', { id: created.id, organization: 'other' }), { code: status.NOT_FOUND });
  const finished = await failJob('CancelJob', { id: created.id });
  t.same([finished.code, finished.errorCode], [status.FAILED_PRECONDITION, 'invalid_state'], 'cancelling an ended job');
  t.match(finished.message, /cannot cancel a job that is completed/);
  t.match(await failJob('GetJob', { id: randomUUID() }), { code: status.NOT_FOUND, errorCode: 'not_found' });
  t.match(await failJob('GetJob', { id: 'nope' }), { code: status.INVALID_ARGUMENT, details: { fields: { id: String } } });
  t.match(await failJob('CreateJob', { organization: 'nowhere', modality: 'text', input: toStruct({ prompt: 'x' }) }), {
    code: status.NOT_FOUND,
  });
  t.match(await failJob('CreateJob', { organization: 'acme', modality: 'text', input: toStruct({ prompt: '' }) }), {
    code: status.INVALID_ARGUMENT,
    errorCode: 'validation_failed',
    details: { fields: { 'input.prompt': String } },
  });
  t.match(await failJob('CreateJob', { organization: 'acme', modality: 'video' }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { modality: String } },
  });

  openai.enqueue({ kind: 'hang' });
  const slow = await jobs.CreateJob({
    organization: 'acme',
    modality: 'text',
    model: 'gpt-4o-mini',
    input: toStruct({ prompt: 'wait' }),
  });
  await waitFor(() => openai.calls('/v1/chat/completions').length === 1, { what: 'the call upstream' });
  t.equal((await jobs.CancelJob({ id: slow.id, organization: 'acme' })).status, 'cancelled', 'a job in flight cancelled');
  await waitFor(() => openai.calls('/v1/chat/completions')[0].aborted, { what: 'the upstream call aborted' });
  t.equal((await ended(slow.id)).status, 'cancelled', 'it stays cancelled');
});

t.test('schedules: create, list, delete; a bad cron names `cron`; another workflow’s or organization’s NOT_FOUND', async (t) => {
  const { wf, failWorkflow, org, http } = await world(t);
  const nodes = [{ key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: '{{input.topic}}' } }];
  await wf.CreateWorkflow({ organization: 'acme', name: 'report', nodes: nodes.map((n) => toStruct(n)) });
  await wf.CreateWorkflow({ organization: 'acme', name: 'other', nodes: nodes.map((n) => toStruct(n)) });

  const yearly = await wf.CreateSchedule({
    organization: 'acme',
    workflow: 'report',
    cron: '0 9 1 1 *',
    timezone: 'Europe/Paris',
    input: toStruct({ topic: 'the year' }),
    state: toValue({ ticket: 1 }),
    overlap: 'allow',
  });
  t.match(yearly, {
    organization_id: org.id,
    workflow_name: 'report',
    cron: '0 9 1 1 *',
    timezone: 'Europe/Paris',
    input: { topic: 'the year' },
    state: { ticket: 1 },
    overlap: 'allow',
    created_by: { principal_id: null, api_key_id: null },
    next_run_at: String,
    last_run_id: null,
    last_triggered_at: null,
  });
  const plain = await wf.CreateSchedule({ organization: org.id, workflow: 'report', cron: '0 0 1 1 *' });
  t.match(plain, { timezone: 'UTC', input: {}, state: null, overlap: 'skip' }, 'the defaults');

  const listed = await wf.ListSchedules({ organization: 'acme', workflow: 'report', limit: 0, cursor: '' });
  t.same(
    listed.schedules.map((s) => s.id),
    [yearly.id, plain.id],
    'in creation order',
  );
  t.same(listed.schedules, await http(`/v1/workflows/report/schedules?organization_id=${org.id}`), 'the HTTP API’s schedules');
  t.same(listed.schedules[0], yearly);
  const first = await wf.ListSchedules({ organization: 'acme', workflow: 'report', limit: 1, cursor: '' });
  t.same(
    first.schedules.map((s) => s.id),
    [yearly.id],
  );
  t.not(first.next_cursor, '', 'paged');

  const badCron = await failWorkflow('CreateSchedule', { organization: 'acme', workflow: 'report', cron: 'every day' });
  t.same([badCron.code, badCron.errorCode], [status.INVALID_ARGUMENT, 'validation_failed']);
  t.match(badCron.details, { fields: { cron: /not a cron expression/ } }, 'the cron field named');
  t.match(
    await failWorkflow('CreateSchedule', {
      organization: 'acme',
      workflow: 'report',
      cron: '* * * * *',
      timezone: 'Mars/Olympus',
    }),
    {
      code: status.INVALID_ARGUMENT,
      details: { fields: { timezone: /not a time zone/ } },
    },
  );
  t.match(
    await failWorkflow('CreateSchedule', { organization: 'acme', workflow: 'report', cron: '* * * * *', overlap: 'queue' }),
    {
      code: status.INVALID_ARGUMENT,
      details: { fields: { overlap: String } },
    },
  );
  t.match(await failWorkflow('CreateSchedule', { organization: 'acme', workflow: 'absent', cron: '* * * * *' }), {
    code: status.NOT_FOUND,
  });
  t.match(await failWorkflow('ListSchedules', { organization: 'other', workflow: 'report' }), { code: status.NOT_FOUND });

  t.match(await failWorkflow('DeleteSchedule', { organization: 'acme', workflow: 'other', id: yearly.id }), {
    code: status.NOT_FOUND,
    errorCode: 'not_found',
  });
  t.match(await failWorkflow('DeleteSchedule', { organization: 'other', workflow: 'report', id: yearly.id }), {
    code: status.NOT_FOUND,
  });
  t.match(await failWorkflow('DeleteSchedule', { organization: 'acme', workflow: 'report', id: 'nope' }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { id: String } },
  });
  const deleted = await wf.DeleteSchedule({ organization: 'acme', workflow: 'report', id: yearly.id });
  t.match(deleted, { ...yearly, updated_at: String }, 'the schedule deleted');
  t.same(
    (await http(`/v1/workflows/report/schedules?organization_id=${org.id}`)).map((s: any) => s.id),
    [plain.id],
  );
  const [left] = (await wf.ListSchedules({ organization: 'acme', workflow: 'report', limit: 0, cursor: '' })).schedules;
  const { updated_at: _updated, ...unchanged } = left;
  t.match(
    await http(`/v1/workflows/report/schedules/${plain.id}?organization_id=${org.id}`, 'DELETE'),
    unchanged,
    'DELETE over HTTP answers the same shape',
  );
  t.match(await failWorkflow('DeleteSchedule', { organization: 'acme', workflow: 'report', id: yearly.id }), {
    code: status.NOT_FOUND,
  });
});
