// Jobs and schedules from the terminal, end to end: real `node bin/switchyard.js` processes (dist/,
// so `npm run build` first) against a real daemon child. Echo jobs submitted with --prompt,
// --input and --input-file, waited for with `job show --wait` (exit 1 with the error of a job
// that failed: a model no provider serves), listed and cancelled (one held upstream by a fake);
// schedules created, listed and deleted; the --json shapes equal to the HTTP API's `data`; and the
// exit codes: a refusal 1 naming the flag (`--cron`), usage errors 2.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { FakeOpenAI } from './fakes/openai.js';
import { asPrincipal, cliCleanEnv, request, spawnDaemon, spawnSwitchyard, waitFor, waitForExit, type CliRun } from './helpers.js';

interface World {
  dir: string;
  openai: FakeOpenAI;
  sy: (...args: string[]) => Promise<CliRun>;
  /** A request over HTTP as the organization's owner: the `data`. */
  http: (path: string, method?: 'GET' | 'POST') => Promise<any>;
  org: { id: string };
}

async function world(t: Test): Promise<World> {
  const dir = t.testdir();
  const socket = path.join(dir, 'admin.sock');
  const openai = await FakeOpenAI.start(t);
  const d = await spawnDaemon(t, ['--grpc-socket', socket], {
    SERVICE_ENV: 'development',
    SERVICE_DATA_DIR: dir,
    SERVICE_WORKFLOW_POLL_MS: '200',
    SERVICE_PROVIDER_TIMEOUT_MS: '20000',
    OPENAI_API_KEY: 'sk-test-fake',
    OPENAI_BASE_URL: openai.baseUrl,
    EMAIL_PROVIDER_API_KEY: '',
    SERVICE_SMTP_URL: '',
  });
  const sy = async (...args: string[]) => {
    const run = spawnSwitchyard(t, ['--socket', socket, ...args], cliCleanEnv);
    const code = await waitForExit(run, `switchyard ${args.slice(0, 3).join(' ')} to exit`);
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  const ownerId = randomUUID();
  const created = await sy('org', 'create', 'acme', '--owner-principal', ownerId, '--json');
  if (created.code !== 0) throw new Error(`org create exited ${created.code}: ${created.stderr}`);
  const org = JSON.parse(created.stdout).organization;
  const http = async (p: string, method: 'GET' | 'POST' = 'GET') => {
    const res = await request(d.url, method, p, { headers: asPrincipal(ownerId) });
    if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { dir, openai, sy, http, org };
}

/** A --json run that must succeed: its one JSON value. */
async function json(t: Test, w: World, ...args: string[]): Promise<any> {
  const run = await w.sy(...args, '--json');
  if (run.code !== 0) throw new Error(`switchyard ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  t.equal(run.stderr, '', `${args.slice(0, 2).join(' ')}: nothing on stderr`);
  return JSON.parse(run.stdout);
}

t.test('job create, show --wait, list, cancel; a failing job exits 1 with its error', async (t) => {
  const w = await world(t);
  const created = await json(
    t,
    w,
    'job',
    'create',
    '--org',
    'acme',
    '--modality',
    'text',
    '--model',
    'echo',
    '--prompt',
    'hello there',
    '--state',
    '{"ref": 7}',
  );
  t.match(created, {
    status: 'queued',
    modality: 'text',
    model: 'echo',
    input: { prompt: 'hello there' },
    state: { ref: 7 },
    organization_id: w.org.id,
  });
  const done = await json(t, w, 'job', 'show', created.id, '--wait');
  t.match(done, { status: 'completed', provider: 'echo', output: { text: 'hello there' }, error: null });
  t.same(done, await w.http(`/v1/jobs/${created.id}`), 'show --json: the HTTP API’s job');
  const shown = await w.sy('job', 'show', created.id);
  t.equal(shown.code, 0);
  t.match(shown.stdout, /^status:\s+completed$/m);
  t.match(shown.stdout, /^model:\s+echo$/m);
  t.match(shown.stdout, /^output:\s+hello there$/m, 'a text output shown as its text');
  t.notMatch(shown.stdout, /Artifacts/, 'a text job has no artifacts');

  const inputFile = path.join(w.dir, 'input.json');
  writeFileSync(inputFile, '{"messages": [{"role": "user", "content": "from a file"}]}');
  const fromFile = await json(
    t,
    w,
    'job',
    'create',
    '--org',
    'acme',
    '--modality',
    'text',
    '--model',
    'echo',
    '--input-file',
    inputFile,
  );
  t.same(fromFile.input, { messages: [{ role: 'user', content: 'from a file' }] }, '--input-file');
  const fromFileDone = await w.sy('job', 'show', fromFile.id, '--wait');
  t.equal(fromFileDone.code, 0, 'show --wait of a job that completes: exit 0');
  t.match(fromFileDone.stdout, /^status:\s+completed$/m);

  // A model no provider serves: the job is accepted, then fails.
  const failing = await json(
    t,
    w,
    'job',
    'create',
    '--org',
    w.org.id,
    '--modality',
    'text',
    '--model',
    'no-such-model',
    '--input',
    '{"prompt": "x"}',
    '--params',
    '{"max_tokens": 5}',
  );
  t.same(failing.params, { max_tokens: 5 }, '--params');
  const waited = await w.sy('job', 'show', failing.id, '--wait');
  t.equal(waited.code, 1, 'show --wait of a job that fails: exit 1');
  t.match(waited.stdout, /^status:\s+failed$/m, 'the job is shown');
  t.match(waited.stderr, /^no_provider: no provider can serve/, 'its error, one line');
  const waitedJson = await w.sy('job', 'show', failing.id, '--wait', '--json');
  t.equal(waitedJson.code, 1);
  const failed = JSON.parse(waitedJson.stdout);
  t.same(failed, await w.http(`/v1/jobs/${failing.id}`), 'stdout: the job, as the HTTP API shows it');
  t.match(JSON.parse(waitedJson.stderr), { error: { code: 'no_provider', message: /no provider can serve/ } });

  const listed = await json(t, w, 'job', 'list', '--org', 'acme');
  t.same(listed, await w.http(`/v1/jobs?organization_id=${w.org.id}`), 'list --json: the HTTP API’s jobs');
  t.same(
    listed.map((j: any) => j.id),
    [created.id, fromFile.id, failing.id],
    'oldest first',
  );
  const { input: _input, output: _output, ...failedListed } = failed; // lists carry no inputs or outputs
  t.same(await json(t, w, 'job', 'list', '--org', 'acme', '--status', 'failed'), [failedListed]);
  t.same(
    (await json(t, w, 'job', 'list', '--org', 'acme', '--limit', '1')).map((j: any) => j.id),
    [created.id],
  );
  const plainList = await w.sy('job', 'list', '--org', 'acme');
  t.match(plainList.stdout, /^ID\s+STATUS\s+MODALITY\s+MODEL\s+PROVIDER\s+CREATED\s+FINISHED$/m, 'a table');
  t.match(plainList.stdout, new RegExp(`^${failing.id}\\s+failed\\s+text\\s+no-such-model\\s+`, 'm'));

  const cancelEnded = await w.sy('job', 'cancel', created.id);
  t.equal(cancelEnded.code, 1, 'cancelling an ended job exits 1');
  t.equal(cancelEnded.stdout, '');
  t.equal(cancelEnded.stderr, 'invalid_state: cannot cancel a job that is completed\n', 'one clear line');

  // Another organization's job, named with --org: not found.
  t.equal((await w.sy('org', 'create', 'other')).code, 0);
  const foreign = await w.sy('job', 'show', created.id, '--org', 'other');
  t.equal(foreign.code, 1);
  t.match(foreign.stderr, /^not_found: job not found$/m);
  const foreignCancel = await w.sy('job', 'cancel', created.id, '--org', 'other', '--json');
  t.equal(foreignCancel.code, 1);
  t.match(JSON.parse(foreignCancel.stderr), { error: { code: 'not_found' } });
  t.equal((await w.sy('job', 'show', randomUUID())).code, 1, 'an unknown job: exit 1');

  // A job held upstream, cancelled: --wait then ends it, exit 1.
  w.openai.enqueue({ kind: 'hang' });
  const slow = await json(
    t,
    w,
    'job',
    'create',
    '--org',
    'acme',
    '--modality',
    'text',
    '--model',
    'gpt-4o-mini',
    '--prompt',
    'wait',
  );
  await waitFor(() => w.openai.calls('/v1/chat/completions').length === 1, { what: 'the call upstream' });
  const cancelled = await json(t, w, 'job', 'cancel', slow.id, '--org', 'acme');
  t.equal(cancelled.status, 'cancelled');
  t.same(cancelled, await w.http(`/v1/jobs/${slow.id}`), 'cancel --json: the job');
  const waitCancelled = await w.sy('job', 'show', slow.id, '--wait');
  t.equal(waitCancelled.code, 1, 'show --wait of a cancelled job: exit 1');
  t.match(waitCancelled.stderr, /^cancelled: job \S+ was cancelled$/m);

  // Refused by the daemon: the field named by its flag.
  const empty = await w.sy('job', 'create', '--org', 'acme', '--modality', 'text', '--prompt', '');
  t.equal(empty.code, 1);
  t.match(empty.stderr, /^validation_failed: --prompt/m, '--prompt named');
  const badImage = await w.sy('job', 'create', '--org', 'acme', '--modality', 'image', '--input', '{"size": 3}');
  t.equal(badImage.code, 1);
  t.equal(
    badImage.stderr,
    'validation_failed: --input field prompt is required; --input field size must be a string\n',
    'fields inside --input named after it',
  );

  // Usage errors: refused before any call, exit 2.
  for (const [args, message] of [
    [
      ['job', 'create', '--org', 'acme', '--modality', 'text'],
      /give the job its input: --input JSON, --input-file FILE or --prompt TEXT/,
    ],
    [
      ['job', 'create', '--org', 'acme', '--modality', 'embedding', '--prompt', 'x'],
      /--prompt stands for .*--modality text or image/,
    ],
    [['job', 'create', '--org', 'acme', '--modality', 'video', '--prompt', 'x'], /Allowed choices are text, image/],
    [['job', 'create', '--org', 'acme', '--modality', 'text', '--input', '[1]'], /expected a JSON object/],
    [['job', 'create', '--org', 'acme', '--modality', 'text', '--input', '{}', '--prompt', 'x'], /cannot be used with/],
    [['job', 'create', '--modality', 'text', '--prompt', 'x'], /--org/],
    [['job', 'list', '--org', 'acme', '--status', 'lost'], /Allowed choices are queued, running/],
  ] as const) {
    const r = await w.sy(...args);
    t.equal(r.code, 2, `${args.join(' ')}: exit 2`);
    t.equal(r.stdout, '');
    t.match(r.stderr, message);
  }
  const usageJson = await w.sy('job', 'frobnicate', '--json');
  t.equal(usageJson.code, 2);
  t.match(JSON.parse(usageJson.stderr), { error: { code: 'invalid_request', message: /job takes create, show, list, cancel/ } });
});

t.test('schedule create, list, delete; a bad cron exits 1 naming --cron', async (t) => {
  const w = await world(t);
  const file = path.join(w.dir, 'report.json');
  const nodes = [{ key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: '{{input.topic}}' } }];
  writeFileSync(file, JSON.stringify({ name: 'report', nodes }));
  t.equal((await w.sy('workflow', 'create', '--org', 'acme', '--file', file)).code, 0);

  const yearly = await json(
    t,
    w,
    'schedule',
    'create',
    'report',
    '--org',
    'acme',
    '--cron',
    '0 9 1 1 *',
    '--timezone',
    'Europe/Paris',
    '--input',
    '{"topic": "the year"}',
    '--state',
    '{"ticket": 1}',
    '--overlap',
    'allow',
  );
  t.match(yearly, {
    workflow_name: 'report',
    organization_id: w.org.id,
    cron: '0 9 1 1 *',
    timezone: 'Europe/Paris',
    input: { topic: 'the year' },
    state: { ticket: 1 },
    overlap: 'allow',
    next_run_at: String,
    last_run_id: null,
  });
  const plain = await w.sy('schedule', 'create', 'report', '--org', 'acme', '--cron', '0 0 1 1 *');
  t.equal(plain.code, 0);
  t.match(plain.stdout, /^Scheduled report: next run \S+\.$/m);
  t.match(plain.stdout, /^timezone:\s+UTC$/m, 'UTC by default');
  t.match(plain.stdout, /^overlap:\s+skip$/m, 'skip by default');

  const listed = await json(t, w, 'schedule', 'list', 'report', '--org', 'acme');
  t.same(
    listed,
    await w.http(`/v1/workflows/report/schedules?organization_id=${w.org.id}`),
    'list --json: the HTTP API’s schedules',
  );
  t.same(listed[0], yearly, 'create --json: the schedule as listed');
  t.equal(listed.length, 2);
  t.same(await json(t, w, 'schedule', 'list', 'report', '--org', 'acme', '--limit', '1'), [yearly]);
  const table = await w.sy('schedule', 'list', 'report', '--org', 'acme');
  t.match(table.stdout, /^ID\s+CRON\s+TIMEZONE\s+OVERLAP\s+NEXT RUN\s+LAST RUN\s+INPUT$/m, 'a table');
  t.match(
    table.stdout,
    new RegExp(`^${yearly.id}\\s+0 9 1 1 \\*\\s+Europe/Paris\\s+allow\\s+\\S+\\s+-\\s+\\{"topic":"the year"\\}$`, 'm'),
  );

  const badCron = await w.sy('schedule', 'create', 'report', '--org', 'acme', '--cron', 'every day');
  t.equal(badCron.code, 1, 'a bad cron: refused by the daemon, exit 1');
  t.equal(badCron.stdout, '');
  t.match(badCron.stderr, /^validation_failed: --cron: not a cron expression/, 'names --cron');
  const badCronJson = await w.sy('schedule', 'create', 'report', '--org', 'acme', '--cron', 'every day', '--json');
  t.equal(badCronJson.code, 1);
  t.match(JSON.parse(badCronJson.stderr), { error: { code: 'validation_failed', details: { fields: { cron: String } } } });
  const badZone = await w.sy(
    'schedule',
    'create',
    'report',
    '--org',
    'acme',
    '--cron',
    '* * * * *',
    '--timezone',
    'Mars/Olympus',
  );
  t.equal(badZone.code, 1);
  t.match(badZone.stderr, /^validation_failed: --timezone: not a time zone/);
  const absent = await w.sy('schedule', 'list', 'absent', '--org', 'acme');
  t.equal(absent.code, 1);
  t.match(absent.stderr, /^not_found: /);

  // Deleting asks; without a terminal it needs --yes.
  const unasked = await w.sy('schedule', 'delete', 'report', yearly.id, '--org', 'acme');
  t.equal(unasked.code, 2);
  t.match(unasked.stderr, /schedule delete needs confirmation .*pass --yes/);
  t.equal((await json(t, w, 'schedule', 'list', 'report', '--org', 'acme')).length, 2, 'nothing was deleted');
  t.equal((await w.sy('org', 'create', 'other')).code, 0);
  const foreign = await w.sy('schedule', 'delete', 'report', yearly.id, '--org', 'other', '--yes');
  t.equal(foreign.code, 1, "another organization's: not found");
  t.match(foreign.stderr, /^not_found: /);
  const deleted = await json(t, w, 'schedule', 'delete', 'report', yearly.id, '--org', 'acme', '--yes');
  const { updated_at: _updated, ...unchanged } = yearly;
  t.match(deleted, unchanged, 'delete --json: the schedule');
  t.same(
    (await json(t, w, 'schedule', 'list', 'report', '--org', 'acme')).map((s: any) => s.id),
    [listed[1].id],
  );
  const again = await w.sy('schedule', 'delete', 'report', yearly.id, '--org', 'acme', '--yes');
  t.equal(again.code, 1);
  t.match(again.stderr, /^not_found: schedule not found$/m);

  for (const [args, message] of [
    [['schedule', 'create', 'report', '--org', 'acme'], /--cron/],
    [
      ['schedule', 'create', 'report', '--org', 'acme', '--cron', '* * * * *', '--overlap', 'queue'],
      /Allowed choices are skip, allow/,
    ],
    [['schedule', 'create', 'report', '--org', 'acme', '--cron', '* * * * *', '--input', 'nope'], /expected JSON/],
    [['schedule', 'delete', 'report', '--org', 'acme', '--yes'], /missing required argument 'schedule-id'/],
  ] as const) {
    const r = await w.sy(...args);
    t.equal(r.code, 2, `${args.join(' ')}: exit 2`);
    t.equal(r.stdout, '');
    t.match(r.stderr, message);
  }
});

t.test("job show: an image job's artifact with its signed download link (contract 13)", async (t) => {
  const w = await world(t);
  const image = await json(
    t,
    w,
    'job',
    'create',
    '--org',
    'acme',
    '--modality',
    'image',
    '--model',
    'echo',
    '--prompt',
    'a lighthouse',
  );
  const drawn = await json(t, w, 'job', 'show', image.id, '--wait');
  t.match(drawn.artifacts, [
    { asset_id: drawn.output.images[0].asset_id, media_type: 'image/png', bytes: Number, download_url: String },
  ]);
  const drawnShown = await w.sy('job', 'show', image.id);
  const link = /^\S+\s+image\/png\s+\d+\s+(http\S+)$/m.exec(drawnShown.stdout)?.[1];
  t.ok(link, 'show prints the download link');
  t.equal((await fetch(link!)).status, 200, 'and it downloads');
});
