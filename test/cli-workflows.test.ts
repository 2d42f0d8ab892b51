// Workflows from the terminal, end to end: real `node bin/switchyard.js` processes (dist/, so
// `npm run build` first) against a real daemon child, echo runs. A definition from a file (and
// stdin), a run followed with `workflow events --follow` until it ends by itself, `runs`, `output`,
// the --json shapes equal to the HTTP API's `data`, and the exit codes: an ended run's cancel 1 with
// a clear line, usage errors 2.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import {
  asPrincipal,
  cliCleanEnv,
  request,
  runOwned,
  spawnDaemon,
  spawnSwitchyard,
  waitFor,
  waitForExit,
  binPath,
  type CliRun,
} from './helpers.js';

interface World {
  dir: string;
  socket: string;
  sy: (...args: string[]) => Promise<CliRun>;
  /** GET over HTTP as the organization's owner: the `data`. */
  http: (path: string) => Promise<any>;
  org: { id: string };
}

async function world(t: Test): Promise<World> {
  const dir = t.testdir();
  const socket = path.join(dir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], {
    SERVICE_ENV: 'development',
    SERVICE_DATA_DIR: dir,
    SERVICE_WORKFLOW_POLL_MS: '200',
    EMAIL_PROVIDER_API_KEY: '',
    SERVICE_SMTP_URL: '',
  });
  const sy = async (...args: string[]) => {
    const run = spawnSwitchyard(t, ['--socket', socket, ...args], cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  const ownerId = randomUUID();
  const created = await sy('org', 'create', 'acme', '--owner-principal', ownerId, '--json');
  if (created.code !== 0) throw new Error(`org create exited ${created.code}: ${created.stderr}`);
  const org = JSON.parse(created.stdout).organization;
  const http = async (p: string) => {
    const res = await request(d.url, 'GET', p, { headers: asPrincipal(ownerId) });
    if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { dir, socket, sy, http, org };
}

/** A --json run that must succeed: its one JSON value. */
async function json(t: Test, w: World, ...args: string[]): Promise<any> {
  const run = await w.sy(...args, '--json');
  if (run.code !== 0) throw new Error(`switchyard ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  t.equal(run.stderr, '', `${args.slice(0, 2).join(' ')}: nothing on stderr`);
  return JSON.parse(run.stdout);
}

const definition = {
  name: 'brief',
  nodes: [{ key: 'draft', kind: 'provider', modality: 'text', model: 'echo', input: { prompt: 'About {{input.topic}}' } }],
};

t.test('create from a file, run, follow its events until it ends, runs, output, cancel an ended run', async (t) => {
  const w = await world(t);
  const file = path.join(w.dir, 'def.json');
  writeFileSync(file, JSON.stringify(definition));

  const created = await json(t, w, 'workflow', 'create', '--org', 'acme', '--file', file);
  t.match(created, { name: 'brief', version: 1, organization_id: w.org.id, nodes: [{ key: 'draft', needs: [] }] });
  t.same(created, await w.http(`/v1/workflows/brief?organization_id=${w.org.id}`), 'create --json: the HTTP API’s workflow');
  // From stdin: a new version.
  const piped = await runOwned(
    t,
    'sh',
    ['-c', `"${process.execPath}" "${binPath}" --socket "${w.socket}" workflow create --org acme --file - --json < "${file}"`],
    {
      env: { ...process.env, ...cliCleanEnv },
    },
  );
  t.equal(piped.code, 0, `create --file - reads stdin: ${piped.stderr}`);
  t.equal(JSON.parse(piped.stdout).version, 2, 'the same name again: version 2');

  const plainList = await w.sy('workflow', 'list', '--org', 'acme');
  t.equal(plainList.code, 0);
  t.match(plainList.stdout, /^NAME\s+VERSION\s+NODES\s+UPDATED\s+ID$/m, 'a table');
  t.match(plainList.stdout, /^brief\s+2\s+1\s/m);
  t.same(await json(t, w, 'workflow', 'list', '--org', 'acme'), await w.http(`/v1/workflows?organization_id=${w.org.id}`));
  const shown = await w.sy('workflow', 'show', 'brief', '--org', 'acme');
  t.match(shown.stdout, /^version:\s+2$/m);
  t.match(shown.stdout, /^draft\s+provider\s+text\s+echo\s/m, 'its nodes');

  const run = await json(
    t,
    w,
    'workflow',
    'run',
    'brief',
    '--org',
    'acme',
    '--input',
    '{"topic": "otters"}',
    '--state',
    '{"ticket": 42}',
    '--priority',
    '3',
  );
  t.match(run, {
    workflow_name: 'brief',
    version: 2,
    status: 'queued',
    input: { topic: 'otters' },
    state: { ticket: 42 },
    priority: 3,
  });

  // Follows until the run's terminal event, then exits by itself.
  const follow = spawnSwitchyard(t, ['--socket', w.socket, 'workflow', 'events', run.id, '--follow', '--json'], cliCleanEnv);
  t.equal(
    await waitForExit(follow, 'workflow events --follow to end with the run'),
    0,
    'events --follow ends with the run, exit 0',
  );
  t.equal(follow.stderr(), '');
  const followed = follow
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(
    followed.map((e) => e.kind),
    [
      'workflow.run.created',
      'workflow.run.queued',
      'workflow.run.started',
      'workflow.node.started',
      'workflow.node.completed',
      'workflow.run.completed',
    ],
    'one JSON line an event, in order, the last one the run’s end',
  );
  t.same(followed, await json(t, w, 'workflow', 'events', run.id), 'events --json: the same events, as one array');
  const again = await w.sy('workflow', 'events', run.id, '--follow');
  t.equal(again.code, 0, 'an ended run: --follow prints its events and ends at once');
  t.match(
    again.stdout.trim().split('\n').at(-1),
    /workflow\.run\.completed\s+-\s+\S+\s+\{/,
    'plain lines: time, kind, node, id, payload',
  );

  const done = await w.http(`/v1/workflows/runs/${run.id}`);
  t.equal(done.status, 'completed');
  const runs = await json(t, w, 'workflow', 'runs', '--org', 'acme');
  t.same(runs, await w.http(`/v1/workflows/runs?organization_id=${w.org.id}`), 'runs --json: the HTTP API’s runs');
  t.same(await json(t, w, 'workflow', 'runs', '--org', 'acme', '--status', 'completed', '--limit', '1'), [done]);
  t.same(await json(t, w, 'workflow', 'runs', '--org', 'acme', '--workflow', 'brief'), [done]);
  const plainRuns = await w.sy('workflow', 'runs', '--org', 'acme');
  t.match(plainRuns.stdout, new RegExp(`^${run.id}\\s+brief v2\\s+completed\\s+3\\s`, 'm'));

  const output = await json(t, w, 'workflow', 'output', run.id, '--expires-in', '10m');
  t.same(output, { run_id: run.id, status: 'completed', output: done.output, artifacts: [] }, 'output --json: the run’s output');
  t.same(output.output, { draft: { text: 'About otters' } });
  const plainOutput = await w.sy('workflow', 'output', run.id);
  t.match(plainOutput.stdout, /^draft\s+About otters$/m, 'a text output shown as its text');

  const cancel = await w.sy('workflow', 'cancel', run.id);
  t.equal(cancel.code, 1, 'cancelling an ended run exits 1');
  t.equal(cancel.stdout, '');
  t.equal(cancel.stderr, 'invalid_state: cannot cancel a run that is completed\n', 'one clear line');
  const cancelJson = await w.sy('workflow', 'cancel', run.id, '--json');
  t.equal(cancelJson.code, 1);
  t.match(JSON.parse(cancelJson.stderr), { error: { code: 'invalid_state', details: { status: 'completed' } } });
  const unknown = await w.sy('workflow', 'output', randomUUID());
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /^not_found: /);
  const unknownFollow = await w.sy('workflow', 'events', randomUUID(), '--follow');
  t.equal(unknownFollow.code, 1, 'following an unknown run exits 1');

  const deleted = await json(t, w, 'workflow', 'delete', 'brief', '--org', 'acme', '--yes');
  t.equal(deleted.name, 'brief');
  t.same(await json(t, w, 'workflow', 'list', '--org', 'acme'), []);
});

t.test('a wait node: input, pause, resume; bad definitions and usage errors', async (t) => {
  const w = await world(t);
  const file = path.join(w.dir, 'approve.json');
  writeFileSync(file, JSON.stringify({ name: 'approve', nodes: [...definition.nodes, { key: 'review', kind: 'wait' }] }));
  t.equal((await w.sy('workflow', 'create', '--org', 'acme', '--file', file)).code, 0);
  const inputFile = path.join(w.dir, 'input.json');
  writeFileSync(inputFile, '{"topic": "owls"}');
  const run = await json(t, w, 'workflow', 'run', 'approve', '--org', 'acme', '--input-file', inputFile);
  t.same(run.input, { topic: 'owls' }, '--input-file');
  const follow = spawnSwitchyard(t, ['--socket', w.socket, 'workflow', 'events', run.id, '--follow'], cliCleanEnv);
  // Waiting: the follower keeps going until the node is answered.
  const paused = await json(t, w, 'workflow', 'pause', run.id, '--org', 'acme');
  t.equal(paused.status, 'paused');
  const resumed = await w.sy('workflow', 'resume', run.id);
  t.equal(resumed.code, 0);
  t.match(resumed.stdout, /^Resumed run \S+: now queued\.$/m);
  await waitFor(async () => (await w.http(`/v1/workflows/runs/${run.id}`)).status === 'waiting', {
    what: 'the run waiting again',
  });
  const answered = await json(t, w, 'workflow', 'input', run.id, '--node', 'review', '--input', '{"verdict": "yes"}');
  t.equal(answered.node_states.review.status, 'completed');
  t.equal(await waitForExit(follow, 'events --follow to end'), 0);
  t.match(follow.stdout(), /workflow\.run\.waiting/);
  t.match(follow.stdout().trim().split('\n').at(-1), /workflow\.run\.completed/, 'ended by the run’s end');
  t.same((await json(t, w, 'workflow', 'output', run.id)).output, { draft: { text: 'About owls' }, review: { verdict: 'yes' } });
  const promote = await w.sy('workflow', 'promote', run.id);
  t.equal(promote.code, 1);
  t.match(promote.stderr, /^invalid_state: cannot promote a run that is completed$/m);

  // A definition the daemon refuses: the file's fields named after it.
  const bad = path.join(w.dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ name: 'bad', nodes: [{ key: 'a', kind: 'provider' }] }));
  const refused = await w.sy('workflow', 'create', '--org', 'acme', '--file', bad);
  t.equal(refused.code, 1);
  t.match(
    refused.stderr,
    new RegExp(`^validation_failed: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: nodes\\[0\\]\\.modality: `),
  );
  const badInput = await w.sy('workflow', 'run', 'approve', '--org', 'acme', '--priority', '101');
  t.equal(badInput.code, 1);
  t.match(badInput.stderr, /^validation_failed: --priority must be at most 100$/m, 'a field named by its flag');

  // Usage errors: refused before any call, exit 2.
  for (const [args, message] of [
    [['workflow', 'create', '--org', 'acme'], /--file/],
    [['workflow', 'create', '--org', 'acme', '--file', path.join(w.dir, 'absent.json')], /cannot read .*absent\.json: ENOENT/],
    [['workflow', 'create', '--org', 'acme', '--file', inputFile], /unknown field topic/],
    [['workflow', 'run', 'approve', '--org', 'acme', '--input', '[1]'], /expected a JSON object/],
    [['workflow', 'run', 'approve', '--org', 'acme', '--input', '{}', '--input-file', inputFile], /cannot be used with/],
    [['workflow', 'runs', '--org', 'acme', '--status', 'lost'], /Allowed choices are queued, running/],
    [['workflow', 'input', run.id, '--node', 'review'], /--input/],
    [['workflow', 'output', run.id, '--expires-in', '3x'], /expected a duration/],
    [['workflow', 'delete', 'approve', '--org', 'acme'], /pass --yes/],
  ] as const) {
    const r = await w.sy(...args);
    t.equal(r.code, 2, `${args.slice(0, 2).join(' ')} ${args.at(-1)}: exit 2`);
    t.equal(r.stdout, '');
    t.match(r.stderr, message);
  }
  const usageJson = await w.sy('workflow', 'frobnicate', '--json');
  t.equal(usageJson.code, 2);
  t.match(JSON.parse(usageJson.stderr), {
    error: { code: 'invalid_request', message: /workflow takes create, list, show, delete, run, runs/ },
  });
  t.equal((await w.sy('workflow', 'show', 'approve', '--org', 'acme')).code, 0, 'nothing was deleted');
});

t.test('SIGINT ends a --follow of a run that does not end: exit 0', async (t) => {
  const w = await world(t);
  const file = path.join(w.dir, 'wait.json');
  writeFileSync(file, JSON.stringify({ name: 'hold', nodes: [{ key: 'review', kind: 'wait' }] }));
  t.equal((await w.sy('workflow', 'create', '--org', 'acme', '--file', file)).code, 0);
  const run = await json(t, w, 'workflow', 'run', 'hold', '--org', 'acme');
  const follow = spawnSwitchyard(t, ['--socket', w.socket, 'workflow', 'events', run.id, '--follow'], cliCleanEnv);
  await waitFor(() => /workflow\.run\.waiting/.test(follow.stdout()), { what: 'the run waiting, followed' });
  follow.child.kill('SIGINT');
  t.equal(await waitForExit(follow, 'events --follow to exit on SIGINT'), 0, 'Ctrl-C: exit 0, as events tail');
  t.equal(follow.stderr(), '');
});
