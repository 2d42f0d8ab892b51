import { Option, type Command } from 'commander';
import { overlapPolicies } from '../../domain/workflows/types.js';
import type { WorkflowSchedule__Output } from '../../grpc/generated/switchyard/admin/v1/WorkflowSchedule.js';
import type { WorkflowServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/WorkflowService.js';
import { toStruct, toValue } from '../../grpc/json-value.js';
import { allPages, CliError, type AdminClient, type Plain } from '../client.js';
import { shortTime } from '../format.js';
import { parseJson, parseJsonObject, parseJsonObjectFile } from '../json-args.js';
import { choiceOption, limitOption, orgOption, yesOption } from '../options.js';
import { execute, type Cell, type View } from '../output.js';

// Schedules are a workflow's (the rpcs are WorkflowService's, docs/grpc.md); they get a noun of
// their own on the command line, since `workflow schedule create` would be three words for one verb.

type Schedule = Plain<WorkflowSchedule__Output>;

const workflows = (client: AdminClient) => client.service<WorkflowServiceDefinition>('WorkflowService');

const none: Cell = { text: '-', tone: 'muted' };

const json = (value: unknown): string => JSON.stringify(value);

function scheduleViews(s: Schedule): View[] {
  return [
    {
      kind: 'record',
      fields: [
        ['id', s.id],
        ['workflow', { text: s.workflow_name, tone: 'accent' }],
        ['cron', s.cron],
        ['timezone', s.timezone],
        ['overlap', s.overlap],
        ['input', json(s.input)],
        ['state', s.state === null ? none : json(s.state)],
        ['next run', s.next_run_at === null ? { text: 'never', tone: 'muted' } : shortTime(s.next_run_at)],
        ['last run', s.last_run_id ?? none],
        ['last fired', shortTime(s.last_triggered_at)],
        ['created', shortTime(s.created_at)],
      ],
    },
  ];
}

/** Every schedule of a workflow, in creation order. */
function schedulesOf(client: AdminClient, organization: string, workflow: string, max?: number): Promise<Schedule[]> {
  return allPages(async (cursor, limit) => {
    const page = await workflows(client).ListSchedules({ organization, workflow, cursor, limit });
    return [page.schedules, page.next_cursor];
  }, max);
}

export function registerSchedule(program: Command): void {
  const schedule = program.command('schedule').description("a workflow's cron schedules: runs submitted at their times");

  schedule
    .command('create <workflow>')
    .description("schedule runs of a workflow's latest version at the times a cron expression names")
    .addOption(orgOption())
    .requiredOption('--cron <expr>', 'five fields (minute hour day month weekday), or six with seconds first')
    .option('--timezone <tz>', 'the IANA time zone the expression is read in (default UTC)')
    .addOption(
      new Option('--input <json>', 'the input of each run, a JSON object read by {{input.<field>}}')
        .argParser(parseJsonObject)
        .conflicts('inputFile'),
    )
    .addOption(new Option('--input-file <path>', 'the input from a JSON file (- reads stdin)').argParser(parseJsonObjectFile))
    .option('--state <json>', 'JSON each run echoes in its terminal events (and webhook deliveries)', parseJson)
    .addOption(
      choiceOption('--overlap <policy>', 'skip: no run while the previous one goes on (default); allow', overlapPolicies),
    )
    .action(
      (
        workflow: string,
        opts: {
          org: string;
          cron: string;
          timezone?: string;
          input?: Record<string, unknown>;
          inputFile?: Record<string, unknown>;
          state?: unknown;
          overlap?: string;
        },
        command: Command,
      ) => {
        const input = opts.input ?? opts.inputFile;
        return execute(command, {
          label: `scheduling ${workflow}`,
          run: (client) =>
            workflows(client).CreateSchedule({
              organization: opts.org,
              workflow,
              cron: opts.cron,
              ...(opts.timezone === undefined ? {} : { timezone: opts.timezone }),
              ...(input === undefined ? {} : { input: toStruct(input) }),
              ...(opts.state === undefined ? {} : { state: toValue(opts.state) }),
              ...(opts.overlap === undefined ? {} : { overlap: opts.overlap }),
            }),
          fields: {
            name: '<workflow>',
            cron: '--cron',
            timezone: '--timezone',
            input: opts.inputFile === undefined ? '--input' : '--input-file',
            state: '--state',
            overlap: '--overlap',
          },
          view: (s) => [
            { kind: 'message', text: `Scheduled ${s.workflow_name}: next run ${shortTime(s.next_run_at)}.`, tone: 'good' },
            ...scheduleViews(s),
          ],
        });
      },
    );

  schedule
    .command('list <workflow>')
    .description("a workflow's schedules, in creation order")
    .addOption(orgOption())
    .addOption(limitOption())
    .action((workflow: string, opts: { org: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing schedules of ${workflow}`,
        run: (client) => schedulesOf(client, opts.org, workflow, opts.limit),
        fields: { name: '<workflow>' },
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'CRON', 'TIMEZONE', 'OVERLAP', 'NEXT RUN', 'LAST RUN', 'INPUT'],
            rows: list.map((s) => [
              s.id,
              s.cron,
              s.timezone,
              s.overlap,
              s.next_run_at === null ? { text: 'never', tone: 'muted' } : shortTime(s.next_run_at),
              s.last_run_id ?? none,
              json(s.input),
            ]),
            empty: 'no schedules',
          },
        ],
      }),
    );

  schedule
    .command('delete <workflow> <schedule-id>')
    .description('delete a schedule: it fires no more (runs it submitted go on)')
    .addOption(orgOption())
    .addOption(yesOption())
    .action((workflow: string, id: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `deleting schedule ${id}`,
        confirm: async (client) => {
          const found = (await schedulesOf(client, opts.org, workflow)).find((s) => s.id === id);
          if (found === undefined) throw new CliError('not_found', 'schedule not found');
          const next = found.next_run_at === null ? '' : `, next at ${shortTime(found.next_run_at)}`;
          return `This deletes schedule ${id} of workflow ${found.workflow_name} (${found.cron} in ${found.timezone}${next}): it fires no more; runs it submitted go on.`;
        },
        run: (client) => workflows(client).DeleteSchedule({ organization: opts.org, workflow, id }),
        fields: { name: '<workflow>', workflow: '<workflow>', id: '<schedule-id>' },
        view: (s) => [
          { kind: 'message', text: `Deleted schedule ${s.id} of ${s.workflow_name}.`, tone: 'good' },
          ...scheduleViews(s),
        ],
      }),
    );
}
