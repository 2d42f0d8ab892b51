// zsh and fish completion, driven in the real shells as they complete on <TAB> (bash's is in
// cli.test.ts). Each is skipped, with the reason, where its shell is not installed.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { cliCleanEnv, privateDir, runOwned, spawnSwitchyard } from './helpers.js';

const missing = (shell: string) =>
  spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore', timeout: 10_000 }).status === 0
    ? false
    : `${shell} is not installed (apt-get install ${shell})`;

async function script(t: Test, shell: string): Promise<string> {
  const run = spawnSwitchyard(t, ['completion', shell], cliCleanEnv);
  t.equal(await run.exited, 0, `completion ${shell} exits 0`);
  const file = path.join(privateDir(), `switchyard.${shell}`);
  writeFileSync(file, run.stdout());
  return file;
}
t.test('zsh: a native completion with descriptions, per command', { skip: missing('zsh') }, async (t) => {
  const file = await script(t, 'zsh');
  // zsh's completion builtins only run inside a completion widget: stand-ins print what they are given.
  const stubs = [
    'compdef() { : }',
    'compadd() { shift; print -l -- "$@" }',
    '_files() { print FILES }',
    '_describe() { print -l -- "${(@P)4}" "${(@P)6}" }',
  ].join('\n');
  const complete = async (...words: string[]) => {
    const line = `${stubs}\nsource ${file}\nwords=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _switchyard`;
    const { stdout, code } = await runOwned(t, 'zsh', ['-f', '-c', line]);
    t.equal(code, 0, `zsh completes ${words.join(' ')}`);
    return stdout.split('\n').filter(Boolean);
  };
  t.ok(
    (await complete('switchyard', 'org', 'cr')).includes('create:create an organization and its first owner'),
    'verbs with their description',
  );
  t.same(
    (await complete('switchyard', 'member', 'add', '--role', '')).sort(),
    ['admin', 'member', 'owner', 'viewer'],
    'choices of an option',
  );
  t.ok(
    (await complete('switchyard', '--socket', '/tmp/x.sock', 'k')).some((w) => w.startsWith('key:')),
    'nouns after a global option and its value',
  );
  const keyCreate = await complete('switchyard', 'key', 'create', '--');
  t.ok(
    keyCreate.some((w) => w.startsWith('--expires-in:')),
    'options of a verb',
  );
  t.ok(
    keyCreate.some((w) => w.startsWith('--no-color:')),
    'and the global ones',
  );
  t.same(await complete('switchyard', 'status', '--socket', ''), ['FILES'], 'files for a path flag');
  t.same(
    (await complete('switchyard', 'invite', 'list', '--status', '')).sort(),
    ['accepted', 'expired', 'pending', 'revoked'],
    "a command's own choices",
  );
  t.same(
    (await complete('switchyard', 'workflow', 'runs', '--status', '')).sort(),
    ['cancelled', 'completed', 'failed', 'paused', 'queued', 'running', 'waiting'],
    'the run states of workflow runs',
  );
  t.same(await complete('switchyard', 'workflow', 'create', '--file', ''), ['FILES'], 'files for a definition');
  t.same(
    (await complete('switchyard', 'job', 'list', '--status', '')).sort(),
    ['cancelled', 'completed', 'failed', 'queued', 'running'],
    'the job states of job list',
  );
  t.same(await complete('switchyard', 'job', 'create', '--input-file', ''), ['FILES'], 'files for a job input');
});

t.test('fish: complete -C offers what the command tree has', { skip: missing('fish') }, async (t) => {
  const file = await script(t, 'fish');
  const complete = async (line: string) => {
    const { stdout, code } = await runOwned(t, 'fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`]);
    t.equal(code, 0, `fish completes "${line}"`);
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]);
  };
  t.same(await complete('switchyard org cr'), ['create'], 'verbs of a noun');
  t.same(
    (await complete('switchyard member add --role ')).sort(),
    ['admin', 'member', 'owner', 'viewer'],
    'choices of an option',
  );
  t.same(await complete('switchyard --socket /tmp/x.sock k'), ['key'], 'nouns after a global option and its value');
  t.ok((await complete('switchyard key create --')).includes('--expires-in'), 'options of a verb');
  t.ok((await complete('switchyard key create --name x --')).includes('--principal'), 'still, after other flags');
  t.same((await complete('switchyard completion ')).sort(), ['bash', 'fish', 'zsh'], 'the shells');
  t.same(
    (await complete('switchyard outbox list --status ')).sort(),
    ['cancelled', 'failed', 'held', 'pending', 'sending', 'sent'],
    "a command's own choices",
  );
  t.same((await complete('switchyard workflow r')).sort(), ['resume', 'run', 'runs'], 'the workflow verbs');
  t.ok((await complete('switchyard workflow events some-run --')).includes('--follow'), 'events --follow');
  t.same((await complete('switchyard job c')).sort(), ['cancel', 'create'], 'the job verbs');
  t.same((await complete('switchyard job create --modality ')).sort(), ['audio', 'embedding', 'image', 'text'], 'the modalities');
  t.same((await complete('switchyard schedule create report --overlap ')).sort(), ['allow', 'skip'], 'the overlap policies');
});
