// What a refused command says, in the CLI's words: every failing field, named by the flag that set
// it, in plain language; a mistyped choice suggests the closest ones; and the exit codes (2 usage,
// 1 refused or failed, 3 no daemon). Real CLI processes against a real daemon child.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import t, { type Test } from 'tap';
import { cliCleanEnv, privateDir, spawnDaemon, spawnSwitchyard, type CliRun } from './helpers.js';

async function daemonCli(t: Test): Promise<(...args: string[]) => Promise<CliRun>> {
  const dataDir = privateDir();
  await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
  return async (...args) => {
    const run = spawnSwitchyard(t, ['--socket', path.join(dataDir, 'admin.sock'), ...args], cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
}

t.test('refusals in plain text name every failing field by its flag', async (t) => {
  const sy = await daemonCli(t);
  t.equal((await sy('org', 'create', 'acme')).code, 0);

  const two = await sy('org', 'create', 'Not A Slug', '--display-name', '');
  t.equal(two.code, 1, 'refused: exit 1');
  t.equal(two.stdout, '');
  t.equal(
    two.stderr,
    'validation_failed: slug: lower-case letters, digits and dashes, 1-63 characters; --display-name must not be empty\n',
    'both fields, on one line; the API field display_name is the flag --display-name',
  );
  const json = await sy('org', 'create', 'Not A Slug', '--display-name', '', '--json');
  t.equal(json.code, 1);
  t.match(
    JSON.parse(json.stderr),
    {
      error: {
        code: 'validation_failed',
        message: 'slug: lower-case letters, digits and dashes, 1-63 characters; --display-name must not be empty',
        details: { fields: { slug: String, display_name: String } },
      },
    },
    '--json: the same message; details keep the API field names, for scripts',
  );

  const settings = await sy('org', 'settings', 'set', '--org', 'acme', '--logo-url', 'ftp://x', '--max-pending', '0');
  t.equal(settings.stderr, 'validation_failed: --logo-url must be an http or https URL; --max-pending must be at least 1\n');

  const short = await sy('key', 'create', '--org', 'acme', '--name', 'k', '--expires-in', '30s');
  t.equal(short.code, 1);
  t.equal(short.stderr, 'validation_failed: --expires-in must be at least 60s\n', 'not expires_in_seconds: Too small: ...');
  const long = await sy('key', 'create', '--org', 'acme', '--name', 'k', '--expires-in', '11y');
  t.equal(long.stderr, 'validation_failed: --expires-in must be at most 10 years\n');

  const principal = await sy('key', 'create', '--org', 'acme', '--name', 'k', '--principal', 'nope');
  t.equal(principal.stderr, 'validation_failed: --principal must be a UUID\n', "zod's stock phrase said plainly");

  const email = await sy('invite', 'create', '--org', 'acme', '--email', 'not-an-address', '--role', 'admin');
  t.match(email.stderr, /^validation_failed: --email /, 'invite create: --email');
  const retries = await sy('webhook', 'create', '--org', 'acme', '--url', 'http://127.0.0.1:9/hook', '--max-retries', '99');
  t.equal(retries.stderr, 'validation_failed: --max-retries must be at most 20\n', 'webhook create: --max-retries');
});

t.test('a duplicate membership says so in words, not in the store index name', async (t) => {
  const sy = await daemonCli(t);
  t.equal((await sy('org', 'create', 'acme')).code, 0);
  const principal = randomUUID();
  t.equal((await sy('member', 'add', '--org', 'acme', '--principal', principal, '--role', 'admin')).code, 0);
  const again = await sy('member', 'add', '--org', 'acme', '--principal', principal, '--role', 'viewer');
  t.equal(again.code, 1);
  t.equal(again.stderr, `conflict: ${principal} is already a member of acme (member set-role changes the role)\n`);
  t.notMatch(again.stderr, /memberships with this scope/);
  const json = await sy('member', 'add', '--org', 'acme', '--principal', principal, '--role', 'viewer', '--json');
  t.match(JSON.parse(json.stderr), { error: { code: 'conflict', message: /already a member of acme/ } });
});

t.test('a wrong --action suggests the closest actions, not all of them', async (t) => {
  const sy = await daemonCli(t);
  t.equal((await sy('org', 'create', 'acme')).code, 0);
  const grant = (action: string) =>
    sy(
      'grant',
      'create',
      '--org',
      'acme',
      '--principal',
      randomUUID(),
      '--action',
      action,
      '--resource-type',
      'team',
      '--resource-id',
      'x',
    );
  const typo = await grant('team.updte');
  t.equal(typo.code, 1);
  t.equal(typo.stderr, 'validation_failed: --action team.updte is unknown: did you mean team.update?\n');
  const noun = await grant('membr.create');
  t.equal(noun.stderr, 'validation_failed: --action membr.create is unknown: did you mean member.create?\n');
  const far = await grant('frobnicate');
  t.match(
    far.stderr,
    /^validation_failed: --action frobnicate is unknown: did you mean [\w.]+, [\w.]+ or [\w.]+\?\n$/,
    'at most three',
  );
  t.notMatch(far.stderr, /organization\.read.*job\.write/, 'never the whole catalog');
});

t.test('exit codes: 2 usage, 1 refused, 3 no daemon', async (t) => {
  const sy = await daemonCli(t);
  t.equal((await sy('org', 'create', 'acme')).code, 0, 'success: 0');
  t.equal((await sy('org', 'create', 'acme')).code, 1, 'refused by the daemon: 1');
  t.equal((await sy('org', 'create')).code, 2, 'a missing argument: 2');
  t.equal((await sy('key', 'create', '--org', 'acme', '--name', 'k', '--expires-in', '3 fortnights')).code, 2, 'a bad value: 2');
  const gone = spawnSwitchyard(t, ['--socket', path.join(privateDir(), 'admin.sock'), 'org', 'list'], cliCleanEnv);
  t.equal(await gone.exited, 3, 'no daemon: 3');
});
