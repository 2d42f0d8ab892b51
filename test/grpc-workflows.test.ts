// The admin API's workflows, in-process, as a gRPC client meets them: every rpc of WorkflowService
// against a real daemon (echo runs, a wait node, a hanging upstream to hold a run queued), the answers
// as the CLI's client decodes them equal to the HTTP API's `data`, and the error codes: an unknown
// run NOT_FOUND, a bad definition INVALID_ARGUMENT naming its fields, cancelling an ended run
// FAILED_PRECONDITION (invalid_state).
import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import t, { type Test } from 'tap';
import { AdminClient } from '../src/cli/client.js';
import type { OrganizationServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/OrganizationService.js';
import type { SettingsServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/SettingsService.js';
import type { WorkflowServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/WorkflowService.js';
import { toStruct, toValue } from '../src/grpc/json-value.js';
import type { Daemon } from '../src/main.js';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, request, startTestDaemon, waitFor } from './helpers.js';
import { failingCalls } from './support/grpc-failure.js';

const workflowCalls = (client: AdminClient) => client.service<WorkflowServiceDefinition>('WorkflowService');

interface World {
  daemon: Daemon;
  openai: FakeOpenAI;
  client: AdminClient;
  /** WorkflowService through the CLI's client: answers as plain JSON, the HTTP API's shapes. */
  wf: ReturnType<typeof workflowCalls>;
  fail: ReturnType<typeof failingCalls>;
  org: { id: string; owner: Record<string, string> };
  /** GET over HTTP as the organization's owner: the `data`. */
  http: (path: string) => Promise<any>;
  /** The run as GetRun answers it once `predicate` holds. */
  runWhen: (id: string, predicate: (run: any) => boolean, what: string) => Promise<any>;
}

async function world(t: Test): Promise<World> {
  const openai = await FakeOpenAI.start(t);
  const daemon = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
    SERVICE_WORKFLOW_POLL_MS: '200',
    SERVICE_PUBLIC_URL: 'https://switchyard.example.test',
  });
  const client = new AdminClient({ kind: 'unix', socketPath: daemon.grpc.socketPath });
  t.teardown(() => client.close());
  const ownerId = randomUUID();
  const created = await client
    .service<OrganizationServiceDefinition>('OrganizationService')
    .CreateOrganization({ slug: 'acme', owner_principal_id: ownerId });
  const org = { id: created.organization!.id, owner: asPrincipal(ownerId) };
  const wf = workflowCalls(client);
  const http = async (path: string) => {
    const res = await request(daemon.url, 'GET', path, { headers: org.owner });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const runWhen = async (id: string, predicate: (run: any) => boolean, what: string) => {
    let run: any;
    await waitFor(
      async () => {
        run = await wf.GetRun({ id });
        return predicate(run);
      },
      { what: `run ${id} ${what}` },
    );
    return run;
  };
  return { daemon, openai, client, wf, fail: failingCalls(t, daemon, 'WorkflowService'), org, http, runWhen };
}

const draft = [{ key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'About {{input.topic}}' } }];
const ended = (run: any) => ['completed', 'failed', 'cancelled'].includes(run.status);

t.test('definitions: create (versions), list, get, delete; a bad one names its fields', async (t) => {
  const { wf, fail, org, http } = await world(t);
  const created = await wf.CreateWorkflow({ organization: 'acme', name: 'brief', nodes: draft.map((n) => toStruct(n)) });
  t.match(created, { name: 'brief', version: 1, organization_id: org.id, nodes: [{ key: 'draft', needs: [], params: {} }] });
  t.same(created, await http(`/v1/workflows/brief?organization_id=${org.id}`), 'the HTTP API’s workflow');
  const second = await wf.CreateWorkflow({
    organization: org.id,
    name: 'brief',
    nodes: [...draft, { key: 'wait', kind: 'wait' }].map((n) => toStruct(n)),
  });
  t.equal(second.version, 2, 'the same name: a new version');
  t.equal(second.id, created.id);
  t.same(second.nodes[1], {
    key: 'wait',
    kind: 'wait',
    modality: null,
    tier: null,
    model: null,
    input: {},
    params: {},
    needs: ['draft'],
  });
  t.same(await wf.GetWorkflow({ organization: 'acme', name: 'brief' }), second);
  const listed = await wf.ListWorkflows({ organization: 'acme', limit: 0, cursor: '' });
  t.same(listed.workflows, await http(`/v1/workflows?organization_id=${org.id}`));
  t.equal(listed.next_cursor, '');

  const bad = await fail('CreateWorkflow', {
    organization: 'acme',
    name: 'Bad Name',
    nodes: [
      { key: 'a', kind: 'provider' },
      { key: 'b', kind: 'teleport' },
    ].map((n) => toStruct(n)),
  });
  t.same([bad.code, bad.errorCode], [status.INVALID_ARGUMENT, 'validation_failed'], 'a malformed definition');
  t.match(bad.details, { fields: { name: String, 'nodes.1.kind': String } }, 'each field named');
  const graph = await fail('CreateWorkflow', {
    organization: 'acme',
    name: 'graph',
    nodes: [
      { key: 'a', kind: 'provider', input: { prompt: 'x' } },
      { key: 'b', kind: 'provider', modality: 'text', needs: ['nope'] },
    ].map((n) => toStruct(n)),
  });
  t.equal(graph.code, status.INVALID_ARGUMENT, 'a bad graph');
  t.match(graph.details, { fields: { 'nodes[0].modality': String, 'nodes[1].needs': String } });
  t.match(await fail('CreateWorkflow', { organization: 'nowhere', name: 'x', nodes: draft.map((n) => toStruct(n)) }), {
    code: status.NOT_FOUND,
    errorCode: 'not_found',
  });

  const deleted = await wf.DeleteWorkflow({ organization: 'acme', name: 'brief' });
  t.equal(deleted.name, 'brief');
  t.same((await wf.ListWorkflows({ organization: 'acme', limit: 0, cursor: '' })).workflows, []);
  t.match(await fail('GetWorkflow', { organization: 'acme', name: 'brief' }), { code: status.NOT_FOUND, errorCode: 'not_found' });
  t.match(await fail('GetWorkflow', { organization: 'acme', name: 'runs' }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { name: String } },
  });
});

t.test('runs: run, get, list, output, events (paged after an event), cancel of an ended run', async (t) => {
  const { wf, fail, org, http, runWhen } = await world(t);
  await wf.CreateWorkflow({ organization: 'acme', name: 'brief', nodes: draft.map((n) => toStruct(n)) });
  const run = await wf.RunWorkflow({
    organization: 'acme',
    name: 'brief',
    input: toStruct({ topic: 'otters' }),
    state: toValue({ ticket: 42 }),
    priority: 7,
  });
  t.match(run, {
    workflow_name: 'brief',
    version: 1,
    status: 'queued',
    input: { topic: 'otters' },
    state: { ticket: 42 },
    priority: 7,
  });
  t.same(run.node_states, {
    draft: { status: 'pending', provider: null, output: null, error: null, started_at: null, finished_at: null },
  });
  const done = await runWhen(run.id, ended, 'ended');
  t.equal(done.status, 'completed');
  t.same(done.output, { draft: { text: 'About otters' } });
  t.same(done, await http(`/v1/workflows/runs/${run.id}`), 'the HTTP API’s run, field for field');
  t.same(await wf.GetRun({ id: run.id, organization: 'acme' }), done, 'scoped to its organization');

  const plain = await wf.RunWorkflow({ organization: 'acme', name: 'brief', input: toStruct({ topic: 'seals' }) });
  t.match(plain, { state: null, priority: 0, submitted_by: { principal_id: null, api_key_id: null } }, 'defaults; the operator');
  await runWhen(plain.id, ended, 'ended');
  const runs = await wf.ListRuns({ organization: 'acme', limit: 0, cursor: '' });
  t.same(runs.runs, await http(`/v1/workflows/runs?organization_id=${org.id}`));
  t.same(
    (await wf.ListRuns({ organization: 'acme', workflow: 'brief', limit: 1, cursor: '' })).runs.map((r) => r.id),
    [run.id],
    'by workflow, paged',
  );
  t.equal((await wf.ListRuns({ organization: 'acme', status: 'completed', limit: 0, cursor: '' })).runs.length, 2, 'by status');
  t.match(await fail('ListRuns', { organization: 'acme', status: 'lost' }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { status: String } },
  });

  const output = await wf.GetRunOutput({ id: run.id, expires_in_seconds: 600 });
  t.same(output, { run_id: run.id, status: 'completed', output: { draft: { text: 'About otters' } }, artifacts: [] });

  const events = (await wf.ListRunEvents({ id: run.id, limit: 0 })).events;
  t.same(
    events.map((e) => e.kind),
    [
      'workflow.run.created',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.node.started',
      'workflow.node.completed',
      'workflow.run.completed',
    ],
    'every stage, in order',
  );
  t.ok(events.every((e) => e.run_id === run.id && e.organization_id === org.id));
  t.match(events.at(-1), {
    payload: { state: { ticket: 42 }, output_url: `https://switchyard.example.test/v1/workflows/runs/${run.id}/output` },
  });
  const organizationEvents = (await http(`/v1/organizations/${org.id}/events?limit=200`)).filter((e: any) => e.run_id === run.id);
  t.same(events, organizationEvents, 'the events as the HTTP API shows them');
  const page = await wf.ListRunEvents({ id: run.id, after: events[1].id, limit: 2 });
  t.same(
    page.events.map((e) => e.id),
    [events[2].id, events[3].id],
    'after an event, at most limit',
  );

  const finished = await fail('CancelRun', { id: run.id });
  t.same([finished.code, finished.errorCode], [status.FAILED_PRECONDITION, 'invalid_state'], 'cancelling an ended run');
  t.match(finished.message, /cannot cancel a run that is completed/);
  for (const [name, req] of [
    ['GetRun', { id: randomUUID() }],
    ['CancelRun', { id: randomUUID() }],
    ['GetRunOutput', { id: randomUUID() }],
    ['ListRunEvents', { id: randomUUID() }],
  ] as const)
    t.match(await fail(name, req), { code: status.NOT_FOUND, errorCode: 'not_found' }, `${name}: an unknown run`);
  t.match(await fail('GetRun', { id: 'nope' }), { code: status.INVALID_ARGUMENT, details: { fields: { id: String } } });
  t.match(await fail('ListRunEvents', { id: run.id, after: 'nope' }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { after: String } },
  });
  t.match(await fail('RunWorkflow', { organization: 'acme', name: 'brief', priority: 101 }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { priority: String } },
  });
  t.match(await fail('RunWorkflow', { organization: 'acme', name: 'absent' }), { code: status.NOT_FOUND });
});

t.test('pause, resume, answer a wait node, promote a queued run, cancel one in flight', async (t) => {
  const { openai, client, wf, fail, runWhen } = await world(t);
  await client.service<OrganizationServiceDefinition>('OrganizationService').CreateOrganization({ slug: 'other' });

  await wf.CreateWorkflow({
    organization: 'acme',
    name: 'approve',
    nodes: [...draft, { key: 'review', kind: 'wait' }].map((n) => toStruct(n)),
  });
  const run = await wf.RunWorkflow({ organization: 'acme', name: 'approve', input: toStruct({ topic: 'owls' }) });
  await runWhen(run.id, (r) => r.status === 'waiting', 'waiting');
  t.match(await fail('GetRun', { id: run.id, organization: 'other' }), { code: status.NOT_FOUND }, "another organization's run");
  t.match(await fail('PauseRun', { id: run.id, organization: 'other' }), { code: status.NOT_FOUND });
  t.equal((await wf.PauseRun({ id: run.id })).status, 'paused');
  t.match(await fail('PauseRun', { id: run.id }), { code: status.FAILED_PRECONDITION, errorCode: 'invalid_state' });
  t.match(await fail('PromoteRun', { id: run.id }), { code: status.FAILED_PRECONDITION }, 'only a queued run is promoted');
  t.match(await fail('AnswerInput', { id: run.id, node_key: 'draft', input: toStruct({}) }), {
    code: status.FAILED_PRECONDITION,
    errorCode: 'invalid_state',
  });
  t.match(await fail('AnswerInput', { id: run.id, node_key: 'nope', input: toStruct({}) }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { node_key: String } },
  });
  const answered = await wf.AnswerInput({ id: run.id, node_key: 'review', input: toStruct({ verdict: 'yes' }) });
  t.match(answered, { status: 'paused', node_states: { review: { status: 'completed', output: { verdict: 'yes' } } } });
  t.equal((await wf.ResumeRun({ id: run.id, organization: 'acme' })).status, 'queued');
  const done = await runWhen(run.id, ended, 'ended');
  t.same(done.output, { draft: { text: 'About owls' }, review: { verdict: 'yes' } });

  // One run at a time: a run held upstream keeps the next one queued, to be promoted.
  await client
    .service<SettingsServiceDefinition>('SettingsService')
    .UpdateSettings({ organization: 'acme', max_concurrent_runs: 1 });
  await wf.CreateWorkflow({
    organization: 'acme',
    name: 'slow',
    nodes: [toStruct({ key: 'ask', kind: 'provider', modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } })],
  });
  await wf.CreateWorkflow({ organization: 'acme', name: 'brief', nodes: draft.map((n) => toStruct(n)) });
  openai.enqueue({ kind: 'hang' });
  const held = await wf.RunWorkflow({ organization: 'acme', name: 'slow' });
  await waitFor(() => openai.calls('/v1/chat/completions').length === 1, { what: 'the call upstream' });
  const queued = await wf.RunWorkflow({ organization: 'acme', name: 'brief', input: toStruct({ topic: 'x' }) });
  t.equal((await wf.GetRun({ id: queued.id })).status, 'queued', 'behind the run in flight');
  const promoted = await wf.PromoteRun({ id: queued.id });
  t.equal(promoted.status, 'queued');
  t.ok(promoted.promoted_at, 'promoted');
  t.equal((await wf.CancelRun({ id: held.id })).status, 'cancelled', 'a run in flight cancelled');
  t.equal((await runWhen(queued.id, ended, 'ended')).status, 'completed', 'the promoted run then runs');
});
