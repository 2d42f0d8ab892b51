import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { jobStatuses, terminalJobStatuses, type JobStatus } from '../../domain/jobs/types.js';
import { modalities, tiers } from '../../domain/providers/types.js';
import type { Job__Output } from '../../grpc/generated/switchyard/admin/v1/Job.js';
import type { JobServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/JobService.js';
import { toStruct, toValue } from '../../grpc/json-value.js';
import { allPages, CliError, type AdminClient, type Plain } from '../client.js';
import { shortTime } from '../format.js';
import { parseJson, parseJsonObject, parseJsonObjectFile } from '../json-args.js';
import { choiceOption, limitOption, orgOption } from '../options.js';
import { execute, type Cell, type View } from '../output.js';

type Job = Plain<Job__Output>;

const jobs = (client: AdminClient) => client.service<JobServiceDefinition>('JobService');

const none: Cell = { text: '-', tone: 'muted' };

/** How often `show --wait` asks whether the job has ended. */
const WAIT_EVERY_MS = 500;

/** The modalities whose input is `{prompt}`: what `--prompt` stands for. */
const promptModalities = ['text', 'image'];

const jobTones: Record<JobStatus, Cell['tone']> = {
  queued: 'muted',
  running: 'accent',
  completed: 'good',
  failed: 'bad',
  cancelled: 'muted',
};

const statusCell = (status: string): Cell => ({ text: status, tone: jobTones[status as JobStatus] });

const json = (value: unknown): string => JSON.stringify(value);

/** The model asked for, or the tier, or a dash: what routing was told. */
const routedBy = (j: Pick<Job, 'model' | 'tier'>): Cell | string => j.model ?? (j.tier === null ? none : `tier ${j.tier}`);

/** An output in a cell: its text when it has one, else its JSON (images are asset ids). */
function outputText(output: Record<string, unknown>): string {
  return typeof output.text === 'string' ? output.text : json(output);
}

function jobViews(j: Job): View[] {
  const fields: Array<[string, Cell | string]> = [
    ['id', j.id],
    ['status', statusCell(j.status)],
    ['modality', j.modality],
    ['model', routedBy(j)],
    ['provider', j.provider ?? none],
    ['input', json(j.input)],
  ];
  if (j.params !== null && Object.keys(j.params).length > 0) fields.push(['params', json(j.params)]);
  fields.push(
    ['state', j.state === null ? none : json(j.state)],
    ['organization', j.organization_id],
    ['created', shortTime(j.created_at)],
    ['started', shortTime(j.started_at)],
    ['finished', shortTime(j.finished_at)],
  );
  if (j.output !== null) fields.push(['output', outputText(j.output)]);
  if (j.error !== null) fields.push(['error', { text: `${j.error.code}: ${j.error.message}`, tone: 'bad' }]);
  const views: View[] = [{ kind: 'record', fields }];
  if (j.artifacts.length > 0)
    views.push({
      kind: 'table',
      title: 'Artifacts (links valid an hour)',
      columns: ['ASSET', 'TYPE', 'BYTES', 'DOWNLOAD'],
      rows: j.artifacts.map((a) => [a.asset_id, a.media_type, String(a.bytes), { text: a.download_url, tone: 'accent' }]),
      empty: '',
    });
  return views;
}

/** The optional `--org` of the commands that name a job by id. */
const scopeOption = () => orgOption("only if the job is this organization's (id or slug); else not_found");
const scoped = (opts: { org?: string }) => (opts.org === undefined ? {} : { organization: opts.org });

/** A job that did not complete, as the failure `show --wait` ends with. */
function endedBadly(j: Job): CliError | undefined {
  if (j.status === 'failed') return new CliError(j.error?.code ?? 'failed', j.error?.message ?? `job ${j.id} failed`);
  if (j.status === 'cancelled') return new CliError('cancelled', `job ${j.id} was cancelled`);
  return undefined;
}

/** The job once it has ended, asking every WAIT_EVERY_MS (bounded by the job ending, as the daemon's own timeouts bound it). */
async function jobEnded(client: AdminClient, request: { id: string; organization?: string }): Promise<Job> {
  for (;;) {
    const job = await jobs(client).GetJob(request);
    if (terminalJobStatuses.includes(job.status as JobStatus)) return job;
    await sleep(WAIT_EVERY_MS);
  }
}

interface CreateOptions {
  org: string;
  modality: string;
  tier?: string;
  model?: string;
  input?: Record<string, unknown>;
  inputFile?: Record<string, unknown>;
  prompt?: string;
  params?: Record<string, unknown>;
  state?: unknown;
}

/** The job's input from whichever of --input, --input-file and --prompt was given (exactly one). */
function inputOf(opts: CreateOptions, command: Command): { input: Record<string, unknown>; flag: string } {
  if (opts.prompt !== undefined) {
    if (!promptModalities.includes(opts.modality))
      command.error(
        `error: --prompt stands for {"prompt": ...}, the input of --modality text or image; give ${opts.modality}'s input with --input`,
        { exitCode: 2 },
      );
    return { input: { prompt: opts.prompt }, flag: '--prompt' };
  }
  if (opts.input !== undefined) return { input: opts.input, flag: '--input' };
  if (opts.inputFile !== undefined) return { input: opts.inputFile, flag: '--input-file' };
  return command.error('error: give the job its input: --input JSON, --input-file FILE or --prompt TEXT', { exitCode: 2 });
}

export function registerJob(program: Command): void {
  const job = program.command('job').description('jobs: one provider call each, run in the background');

  job
    .command('create')
    .description('submit a job (one provider call, as `provider route` would route it); prints the job, queued')
    .addOption(orgOption())
    .addOption(choiceOption('--modality <modality>', 'what the call makes', modalities).makeOptionMandatory())
    .addOption(choiceOption('--tier <tier>', 'route to a provider of this tier', tiers))
    .option('--model <name>', 'route to a provider serving this model (echo: the built-in echo provider)')
    .addOption(
      new Option(
        '--input <json>',
        'the input, a JSON object: text {"prompt"} or {"messages"}, image {"prompt"}, embedding {"text"}',
      )
        .argParser(parseJsonObject)
        .conflicts(['inputFile', 'prompt']),
    )
    .addOption(
      new Option('--input-file <path>', 'the input from a JSON file (- reads stdin)')
        .argParser(parseJsonObjectFile)
        .conflicts('prompt'),
    )
    .option('--prompt <text>', 'the input {"prompt": TEXT}, for --modality text or image')
    .option('--params <json>', 'provider parameters, a JSON object (e.g. {"max_tokens": 200})', parseJsonObject)
    .option('--state <json>', 'JSON echoed in the job’s terminal events (and webhook deliveries)', parseJson)
    .action((opts: CreateOptions, command: Command) => {
      const { input, flag } = inputOf(opts, command);
      return execute(command, {
        label: `submitting a ${opts.modality} job`,
        run: (client) =>
          jobs(client).CreateJob({
            organization: opts.org,
            modality: opts.modality,
            ...(opts.tier === undefined ? {} : { tier: opts.tier }),
            ...(opts.model === undefined ? {} : { model: opts.model }),
            input: toStruct(input),
            ...(opts.params === undefined ? {} : { params: toStruct(opts.params) }),
            ...(opts.state === undefined ? {} : { state: toValue(opts.state) }),
          }),
        fields: {
          input: flag,
          'input.*': flag,
          ...(flag === '--prompt' ? { 'input.prompt': '--prompt' } : {}),
          modality: '--modality',
          tier: '--tier',
          model: '--model',
          params: '--params',
          state: '--state',
        },
        view: (j) => [{ kind: 'message', text: `Submitted job ${j.id} (${j.status}).`, tone: 'good' }, ...jobViews(j)],
      });
    });

  job
    .command('show <job-id>')
    .description('one job: its status, and its output or error once it ended')
    .addOption(scopeOption())
    .option('-w, --wait', 'wait until the job ends; exit 1 (with its error) unless it completed')
    .action((id: string, opts: { org?: string; wait?: boolean }, command: Command) => {
      const request = { id, ...scoped(opts) };
      return execute(command, {
        label: opts.wait === true ? `waiting for job ${id} to end` : `looking up job ${id}`,
        run: (client) => (opts.wait === true ? jobEnded(client, request) : jobs(client).GetJob(request)),
        fields: { id: '<job-id>' },
        view: jobViews,
        ...(opts.wait === true ? { failure: endedBadly } : {}),
      });
    });

  job
    .command('list')
    .description("an organization's jobs, oldest first; in one status")
    .addOption(orgOption())
    .addOption(choiceOption('--status <status>', 'only jobs in this status', jobStatuses))
    .addOption(limitOption())
    .action((opts: { org: string; status?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing jobs of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await jobs(client).ListJobs({
              organization: opts.org,
              ...(opts.status === undefined ? {} : { status: opts.status }),
              cursor,
              limit,
            });
            // Lists carry no inputs or outputs (as GET /v1/jobs): `job show` has a job's.
            return [page.jobs.map(({ input: _input, output: _output, ...job }) => job), page.next_cursor];
          }, opts.limit),
        fields: { status: '--status' },
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'STATUS', 'MODALITY', 'MODEL', 'PROVIDER', 'CREATED', 'FINISHED'],
            rows: list.map((j) => [
              j.id,
              statusCell(j.status),
              j.modality,
              routedBy(j),
              j.provider ?? none,
              shortTime(j.created_at),
              shortTime(j.finished_at),
            ]),
            empty: 'no jobs',
          },
        ],
      }),
    );

  job
    .command('cancel <job-id>')
    .description('end a job not yet ended, cancelled (a call in flight stops)')
    .addOption(scopeOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `cancelling job ${id}`,
        run: (client) => jobs(client).CancelJob({ id, ...scoped(opts) }),
        fields: { id: '<job-id>' },
        view: (j) => [{ kind: 'message', text: `Cancelled job ${j.id}: now ${j.status}.`, tone: 'good' }, ...jobViews(j)],
      }),
    );
}
