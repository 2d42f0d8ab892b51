import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { MAX_LINK_SECONDS } from '../../domain/assets/types.js';
import { runStatuses, type RunStatus } from '../../domain/workflows/types.js';
import type { Event__Output } from '../../grpc/generated/switchyard/admin/v1/Event.js';
import type { Workflow__Output } from '../../grpc/generated/switchyard/admin/v1/Workflow.js';
import type { WorkflowRun__Output } from '../../grpc/generated/switchyard/admin/v1/WorkflowRun.js';
import type { WorkflowRunOutput__Output } from '../../grpc/generated/switchyard/admin/v1/WorkflowRunOutput.js';
import type { WorkflowServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/WorkflowService.js';
import { toStruct, toValue } from '../../grpc/json-value.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { wordError, type ErrorWording } from '../error-text.js';
import { counted, parseDuration, parseInteger, shortTime } from '../format.js';
import { isObject, parseJson, parseJsonObject, parseJsonObjectFile, readText } from '../json-args.js';
import { choiceOption, limitOption, orgOption, yesOption } from '../options.js';
import { execute, executeStream, type Cell, type RecordView, type TableView, type View } from '../output.js';

type Workflow = Plain<Workflow__Output>;
type Run = Plain<WorkflowRun__Output>;
type RunOutput = Plain<WorkflowRunOutput__Output>;
type RunEvent = Plain<Event__Output>;

const workflows = (client: AdminClient) => client.service<WorkflowServiceDefinition>('WorkflowService');

const none: Cell = { text: '-', tone: 'muted' };

/** How often `events --follow` asks for a run's new events. */
const FOLLOW_EVERY_MS = 500;
/** Run events read per call. */
const EVENTS_PAGE = 200;
/** The events that end a run: `events --follow` stops after one. */
const terminalRunEvents = ['workflow.run.completed', 'workflow.run.failed', 'workflow.run.cancelled'];

interface Definition {
  /** Where it was read from, for messages. */
  source: string;
  name: string;
  nodes: Record<string, unknown>[];
  schedules: Record<string, unknown>[];
}

const definitionFields = ['name', 'nodes', 'schedules'];

/** `--file`: a definition `{name, nodes, schedules?}` as JSON, from a file or stdin (`-`). */
function parseDefinitionFile(file: string): Definition {
  const source = file === '-' ? 'stdin' : file;
  const fail = (why: string) => new InvalidArgumentError(`${source}: ${why}`);
  let value: unknown;
  try {
    value = JSON.parse(readText(file));
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    throw fail(`not JSON (${(err as Error).message})`);
  }
  if (!isObject(value)) throw fail('expected a JSON object {"name", "nodes", "schedules"?}');
  const unknown = Object.keys(value).filter((key) => !definitionFields.includes(key));
  if (unknown.length > 0) throw fail(`unknown field ${unknown.join(', ')} (a definition holds name, nodes and schedules)`);
  const { name, nodes, schedules = [] } = value;
  if (typeof name !== 'string') throw fail('"name" must be a string');
  if (!Array.isArray(nodes) || !nodes.every(isObject)) throw fail('"nodes" must be an array of node objects');
  if (!Array.isArray(schedules) || !schedules.every(isObject)) throw fail('"schedules" must be an array of schedule objects');
  return { source, name, nodes, schedules };
}

// What is shown.

const runTones: Record<RunStatus, Cell['tone']> = {
  queued: 'muted',
  running: 'accent',
  waiting: 'warn',
  paused: 'warn',
  completed: 'good',
  failed: 'bad',
  cancelled: 'muted',
};

function statusCell(status: string): Cell {
  return { text: status, tone: runTones[status as RunStatus] ?? (status === 'pending' ? 'muted' : undefined) };
}

const json = (value: unknown): string => JSON.stringify(value);

function nodesTable(w: Pick<Workflow, 'nodes'>): TableView {
  return {
    kind: 'table',
    title: 'Nodes',
    columns: ['KEY', 'KIND', 'MODALITY', 'MODEL', 'NEEDS', 'INPUT'],
    rows: w.nodes.map((n) => [
      n.key,
      n.kind,
      n.modality ?? none,
      n.model ?? (n.tier === null ? none : `tier ${n.tier}`),
      n.needs.length === 0 ? none : n.needs.join(', '),
      json(n.input),
    ]),
    empty: 'no nodes',
  };
}

function workflowViews(w: Workflow): View[] {
  return [
    {
      kind: 'record',
      fields: [
        ['name', { text: w.name, tone: 'accent' }],
        ['id', w.id],
        ['version', String(w.version)],
        ['organization', w.organization_id],
        ['created', shortTime(w.created_at)],
        ['updated', shortTime(w.updated_at)],
      ],
    },
    nodesTable(w),
  ];
}

function runRecord(r: Run): RecordView {
  const fields: RecordView['fields'] = [
    ['id', r.id],
    ['workflow', `${r.workflow_name} v${r.version}`],
    ['status', statusCell(r.status)],
    ['priority', String(r.priority)],
    ['input', json(r.input)],
    ['state', r.state === null ? none : json(r.state)],
    ['created', shortTime(r.created_at)],
    ['started', shortTime(r.started_at)],
    ['finished', shortTime(r.finished_at)],
  ];
  if (r.promoted_at !== null) fields.push(['promoted', shortTime(r.promoted_at)]);
  if (r.schedule_id !== null) fields.push(['schedule', r.schedule_id]);
  if (r.error !== null) fields.push(['error', { text: `${r.error.code}: ${r.error.message}`, tone: 'bad' }]);
  return { kind: 'record', fields };
}

function runViews(r: Run): View[] {
  return [
    runRecord(r),
    {
      kind: 'table',
      title: 'Nodes',
      columns: ['NODE', 'STATUS', 'PROVIDER', 'STARTED', 'FINISHED', 'ERROR'],
      rows: r.nodes.map((n) => {
        const s = r.node_states[n.key];
        return [
          n.key,
          statusCell(s?.status ?? 'pending'),
          s?.provider ?? none,
          shortTime(s?.started_at),
          shortTime(s?.finished_at),
          s?.error == null ? none : { text: `${s.error.code}: ${s.error.message}`, tone: 'bad' },
        ];
      }),
      empty: 'no nodes',
    },
  ];
}

/** A run action's answer: one line, then the run. */
const actedViews = (what: string) => (r: Run) => [
  { kind: 'message' as const, text: `${what} run ${r.id}: now ${r.status}.`, tone: 'good' as const },
  ...runViews(r),
];

/** A node's output in a cell: its text when it has one, else its JSON. */
function outputText(output: unknown): string {
  return isObject(output) && typeof output.text === 'string' ? output.text : json(output);
}

function outputViews(o: RunOutput): View[] {
  return [
    {
      kind: 'record',
      fields: [
        ['run', o.run_id],
        ['status', statusCell(o.status)],
      ],
    },
    {
      kind: 'table',
      title: 'Output',
      columns: ['NODE', 'OUTPUT'],
      rows: Object.entries(o.output ?? {}).map(([node, output]) => [node, outputText(output)]),
      empty: 'no output yet',
    },
    {
      kind: 'table',
      title: 'Artifacts',
      columns: ['FILENAME', 'TYPE', 'EXPIRES', 'DOWNLOAD URL'],
      rows: o.artifacts.map((a) => [a.filename, a.content_type, shortTime(a.download_url_expires_at), a.download_url]),
      empty: 'no artifacts',
    },
  ];
}

/** One run event on one line: time, kind, node, id, payload. */
function runEventLine(e: RunEvent): string {
  return `${e.timestamp}  ${e.kind}  ${e.node_key ?? '-'}  ${e.id}  ${json(e.payload)}`;
}

/** The optional `--org` of the commands that name a run by id. */
const scopeOption = () => orgOption("only if the run is this organization's (id or slug); else not_found");
const scoped = (opts: { org?: string }) => (opts.org === undefined ? {} : { organization: opts.org });

/** A run's events after `after`, every page. */
async function runEventsAfter(client: AdminClient, request: { id: string; organization?: string }, after?: string) {
  const events: RunEvent[] = [];
  for (;;) {
    const last = events.at(-1)?.id ?? after;
    const page = await workflows(client).ListRunEvents({
      ...request,
      limit: EVENTS_PAGE,
      ...(last === undefined ? {} : { after: last }),
    });
    events.push(...page.events);
    if (page.events.length < EVENTS_PAGE) return events;
  }
}

/** A download link's lifetime, `--expires-in`: a duration of at most a day, refused in the flag's words. */
function parseLinkLifetime(text: string): number {
  const seconds = parseDuration(text);
  if (seconds < 1 || seconds > MAX_LINK_SECONDS)
    throw new InvalidArgumentError('download links live from 1s to 24h (1d) at most, e.g. 3600, 90m, 1d');
  return seconds;
}

export function registerWorkflow(program: Command): void {
  const workflow = program.command('workflow').description('workflow definitions and their runs');

  workflow
    .command('create')
    .description('register a workflow from a JSON file {name, nodes, schedules?}; an existing name gets a new version')
    .addOption(orgOption())
    .addOption(
      new Option('--file <path>', 'the definition as JSON (- reads stdin)').argParser(parseDefinitionFile).makeOptionMandatory(),
    )
    .action((opts: { org: string; file: Definition }, command: Command) => {
      const { source, name, nodes, schedules } = opts.file;
      const wording: ErrorWording = {
        // The fields are the file's: said as they are, after the file's name.
        explain: (error) => (error.code === 'validation_failed' ? `${source}: ${wordError(error).message}` : undefined),
      };
      return execute(command, {
        label: `registering workflow ${name} in ${opts.org}`,
        run: (client) =>
          workflows(client).CreateWorkflow({
            organization: opts.org,
            name,
            nodes: nodes.map((node) => toStruct(node)),
            schedules: schedules.map((schedule) => toStruct(schedule)),
          }),
        ...wording,
        view: (w) => [
          { kind: 'message', text: `Registered ${w.name}, version ${w.version}.`, tone: 'good' },
          ...workflowViews(w),
        ],
      });
    });

  workflow
    .command('list')
    .description("an organization's workflows (their latest versions)")
    .addOption(orgOption())
    .addOption(limitOption())
    .action((opts: { org: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing workflows of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await workflows(client).ListWorkflows({ organization: opts.org, cursor, limit });
            return [page.workflows, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['NAME', 'VERSION', 'NODES', 'UPDATED', 'ID'],
            rows: list.map((w) => [
              { text: w.name, tone: 'accent' },
              String(w.version),
              String(w.nodes.length),
              shortTime(w.updated_at),
              w.id,
            ]),
            empty: 'no workflows',
          },
        ],
      }),
    );

  workflow
    .command('show <name>')
    .description('one workflow, its latest version, with its nodes')
    .addOption(orgOption())
    .action((name: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `looking up workflow ${name}`,
        run: (client) => workflows(client).GetWorkflow({ organization: opts.org, name }),
        fields: { name: '<name>' },
        view: workflowViews,
      }),
    );

  workflow
    .command('delete <name>')
    .description('delete a workflow: its name is free again; runs already submitted go on')
    .addOption(orgOption())
    .addOption(yesOption())
    .action((name: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `deleting workflow ${name}`,
        confirm: async (client) => {
          const w = await workflows(client).GetWorkflow({ organization: opts.org, name });
          const runs = await allPages(async (cursor, limit) => {
            const page = await workflows(client).ListRuns({ organization: opts.org, workflow: name, cursor, limit });
            return [page.runs, page.next_cursor];
          });
          const going = runs.filter((r) => !['completed', 'failed', 'cancelled'].includes(r.status)).length;
          return `This deletes workflow ${w.name} (version ${w.version}): no new run can start, and ${counted(going, 'run')} not yet ended go on.`;
        },
        run: (client) => workflows(client).DeleteWorkflow({ organization: opts.org, name }),
        fields: { name: '<name>' },
        view: (w) => [{ kind: 'message', text: `Deleted workflow ${w.name}.`, tone: 'good' }, ...workflowViews(w)],
      }),
    );

  workflow
    .command('run <name>')
    .description('submit a run of the latest version; prints the run, queued')
    .addOption(orgOption())
    .addOption(
      new Option('--input <json>', 'the run input, a JSON object read by {{input.<field>}}')
        .argParser(parseJsonObject)
        .conflicts('inputFile'),
    )
    .addOption(new Option('--input-file <path>', 'the run input from a JSON file (- reads stdin)').argParser(parseJsonObjectFile))
    .option('--state <json>', 'JSON echoed in the run’s terminal events (and webhook deliveries)', parseJson)
    .option('--priority <n>', 'higher runs first (0-100, default 0)', parseInteger)
    .action(
      (
        name: string,
        opts: {
          org: string;
          input?: Record<string, unknown>;
          inputFile?: Record<string, unknown>;
          state?: unknown;
          priority?: number;
        },
        command: Command,
      ) =>
        execute(command, {
          label: `submitting a run of ${name}`,
          run: (client) =>
            workflows(client).RunWorkflow({
              organization: opts.org,
              name,
              input: toStruct(opts.input ?? opts.inputFile ?? {}),
              ...(opts.state === undefined ? {} : { state: toValue(opts.state) }),
              ...(opts.priority === undefined ? {} : { priority: opts.priority }),
            }),
          fields: {
            name: '<name>',
            input: opts.inputFile === undefined ? '--input' : '--input-file',
            state: '--state',
            priority: '--priority',
          },
          view: (r) => [{ kind: 'message', text: `Submitted run ${r.id} (${r.status}).`, tone: 'good' }, ...runViews(r)],
        }),
    );

  workflow
    .command('runs')
    .description("an organization's runs, oldest first; of one workflow, or in one status")
    .addOption(orgOption())
    .option('--workflow <name>', 'only runs of this workflow')
    .addOption(choiceOption('--status <status>', 'only runs in this status', runStatuses).conflicts('workflow'))
    .addOption(limitOption())
    .action((opts: { org: string; workflow?: string; status?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing runs of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await workflows(client).ListRuns({
              organization: opts.org,
              ...(opts.workflow === undefined ? {} : { workflow: opts.workflow }),
              ...(opts.status === undefined ? {} : { status: opts.status }),
              cursor,
              limit,
            });
            return [page.runs, page.next_cursor];
          }, opts.limit),
        fields: { workflow: '--workflow', status: '--status' },
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'WORKFLOW', 'STATUS', 'PRIORITY', 'CREATED', 'FINISHED'],
            rows: list.map((r) => [
              r.id,
              `${r.workflow_name} v${r.version}`,
              statusCell(r.status),
              String(r.priority),
              shortTime(r.created_at),
              shortTime(r.finished_at),
            ]),
            empty: 'no runs',
          },
        ],
      }),
    );

  const actions = [
    ['cancel', 'CancelRun', 'end a run not yet ended, cancelled (nodes in flight stop)', 'cancelling', 'Cancelled'],
    ['pause', 'PauseRun', 'hold a queued, waiting or running run: no node starts until it is resumed', 'pausing', 'Paused'],
    ['resume', 'ResumeRun', 'put a paused run back into the queue', 'resuming', 'Resumed'],
    ['promote', 'PromoteRun', 'move a queued run ahead of every run not promoted', 'promoting', 'Promoted'],
  ] as const;
  for (const [verb, rpc, description, doing, done] of actions)
    workflow
      .command(`${verb} <run-id>`)
      .description(description)
      .addOption(scopeOption())
      .action((id: string, opts: { org?: string }, command: Command) =>
        execute(command, {
          label: `${doing} run ${id}`,
          run: (client) => workflows(client)[rpc]({ id, ...scoped(opts) }),
          fields: { id: '<run-id>' },
          view: actedViews(done),
        }),
      );

  workflow
    .command('input <run-id>')
    .description('answer a waiting `wait` node: the input becomes its output and the run goes on')
    .addOption(scopeOption())
    .requiredOption('--node <key>', 'the waiting node')
    .addOption(new Option('--input <json>', 'the answer, a JSON object').argParser(parseJsonObject).makeOptionMandatory())
    .action((id: string, opts: { org?: string; node: string; input: Record<string, unknown> }, command: Command) =>
      execute(command, {
        label: `answering node ${opts.node} of run ${id}`,
        run: (client) => workflows(client).AnswerInput({ id, ...scoped(opts), node_key: opts.node, input: toStruct(opts.input) }),
        fields: { id: '<run-id>', node_key: '--node', input: '--input' },
        view: actedViews(`Answered ${opts.node} of`),
      }),
    );

  workflow
    .command('output <run-id>')
    .description("a run's output by node, and its artifacts with signed download links")
    .addOption(scopeOption())
    .option(
      '--expires-in <duration>',
      'how long the download links stay valid, at most 24h (e.g. 3600, 90m, 1d)',
      parseLinkLifetime,
    )
    .action((id: string, opts: { org?: string; expiresIn?: number }, command: Command) =>
      execute(command, {
        label: `reading the output of run ${id}`,
        run: (client) =>
          workflows(client).GetRunOutput({
            id,
            ...scoped(opts),
            ...(opts.expiresIn === undefined ? {} : { expires_in_seconds: opts.expiresIn }),
          }),
        fields: { id: '<run-id>', expires_in_seconds: '--expires-in', expires_in: '--expires-in' },
        view: outputViews,
      }),
    );

  workflow
    .command('events <run-id>')
    .description("a run's events in order; --follow prints them as they come until the run ends")
    .addOption(scopeOption())
    .option('-f, --follow', 'keep printing new events, one a line (JSON lines with --json), until the run ends')
    .action((id: string, opts: { org?: string; follow?: boolean }, command: Command) => {
      const request = { id, ...scoped(opts) };
      if (opts.follow !== true)
        return execute(command, {
          label: `reading the events of run ${id}`,
          run: (client) => runEventsAfter(client, request),
          fields: { id: '<run-id>' },
          view: (list) => [
            {
              kind: 'table',
              columns: ['ID', 'KIND', 'NODE', 'TIME', 'PAYLOAD'],
              rows: list.map((e) => [
                e.id,
                { text: e.kind, tone: 'accent' },
                e.node_key ?? none,
                shortTime(e.timestamp),
                json(e.payload),
              ]),
              empty: 'no events',
            },
          ],
        });
      return executeStream(command, {
        run: async (client, print, signal) => {
          let after: string | undefined;
          for (;;) {
            for (const event of await runEventsAfter(client, request, after)) {
              print(event, runEventLine(event));
              after = event.id;
              if (terminalRunEvents.includes(event.kind)) return;
            }
            // Interrupted (Ctrl-C): the command ends, exit 0, as `events tail` does.
            const stopped = await sleep(FOLLOW_EVERY_MS, false, { signal }).catch(() => true);
            if (stopped) return;
          }
        },
      });
    });
}
