// Invitations from the terminal, end to end: real `node bin/switchyard.js` processes (dist/, so
// `npm run build` first) against a real daemon child in development with no email transport, where
// mail is held and `outbox list` hands a developer the accept link.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { bashCompletion } from '../src/cli/commands/completion.js';
import { buildProgram, loadCommands } from '../src/cli/index.js';
import { asPrincipal, request, runOwned, spawnDaemon, spawnSwitchyard, cliCleanEnv, type CliRun } from './helpers.js';

const daemonEnv = {
  SERVICE_ENV: 'development',
  EMAIL_PROVIDER_API_KEY: '',
  SERVICE_SMTP_URL: '',
  SERVICE_PUBLIC_URL: '',
  SERVICE_INVITE_REDIRECT_URL: '',
};

async function cli(t: Test, args: string[]): Promise<CliRun> {
  const run = spawnSwitchyard(t, args, cliCleanEnv);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** A --json run that must succeed: its one JSON value. */
async function json(t: Test, sy: (...args: string[]) => Promise<CliRun>, ...args: string[]): Promise<any> {
  const run = await sy(...args, '--json');
  if (run.code !== 0) throw new Error(`switchyard ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  t.equal(run.stderr, '', `${args.slice(0, 2).join(' ')}: nothing on stderr`);
  return JSON.parse(run.stdout);
}

/** A --json run that must fail: exit 1 (2 for a usage error), nothing on stdout, the error object from stderr. */
async function jsonError(
  t: Test,
  sy: (...args: string[]) => Promise<CliRun>,
  ...args: string[]
): Promise<{ code: string; message: string; details?: any }> {
  return jsonFailure(t, 1, sy, ...args);
}

async function jsonUsageError(
  t: Test,
  sy: (...args: string[]) => Promise<CliRun>,
  ...args: string[]
): Promise<{ code: string; message: string; details?: any }> {
  return jsonFailure(t, 2, sy, ...args);
}

async function jsonFailure(
  t: Test,
  exitCode: number,
  sy: (...args: string[]) => Promise<CliRun>,
  ...args: string[]
): Promise<{ code: string; message: string; details?: any }> {
  const run = await sy(...args, '--json');
  t.equal(run.code, exitCode, `${args.slice(0, 2).join(' ')} exits ${exitCode}`);
  t.equal(run.stdout, '', 'nothing on stdout');
  const parsed = JSON.parse(run.stderr);
  t.same(Object.keys(parsed), ['error'], 'one {"error": ...} object on stderr');
  return parsed.error;
}

t.test('invite, accept by the held link, revoke, limits, settings and the outbox', async (t) => {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], { ...daemonEnv, SERVICE_DATA_DIR: dataDir });
  const sy = (...args: string[]) => cli(t, ['--socket', socket, ...args]);

  const owner = randomUUID();
  const { organization: org } = await json(t, sy, 'org', 'create', 'acme', '--owner-principal', owner);

  const defaults = await json(t, sy, 'org', 'settings', 'get', '--org', 'acme');
  t.same(
    defaults,
    {
      organization_id: org.id,
      display_name: 'acme',
      logo_url: null,
      email_from_name: null,
      max_pending_invitations: 100,
      max_invitations_per_hour: 20,
      max_concurrent_runs: 4,
      max_workflows: 100,
      max_schedules: 50,
      max_queued_runs: 200,
      max_waiting_runs: 200,
      max_webhooks: 100,
      max_active_jobs: 200,
      run_wait_timeout_seconds: 604800,
      updated_at: null,
    },
    'settings get: the defaults, nulls for unset',
  );
  const overHttp = await request(d.url, 'GET', `/v1/organizations/${org.id}/settings`, { headers: asPrincipal(owner) });
  t.same(overHttp.body.data, defaults, 'the same object as the HTTP API');

  // Invite, then find the held mail and its link.
  const invited = await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'New@Example.com', '--role', 'member');
  t.match(invited, {
    id: String,
    organization_id: org.id,
    email: 'new@example.com',
    role: 'member',
    status: 'pending',
    created_by: null,
    accepted_at: null,
    send_count: 1,
  });
  const invitationOverHttp = await request(d.url, 'GET', `/v1/invitations/${invited.id}`, { headers: asPrincipal(owner) });
  t.same(invitationOverHttp.body.data, invited, 'invite create prints the HTTP API invitation, nulls included');

  const outbox = await json(t, sy, 'outbox', 'list');
  t.equal(outbox.length, 1, 'one mail');
  const held = outbox[0];
  t.match(held, {
    id: invited.outbox_entry_id,
    to: 'new@example.com',
    status: 'held',
    invitation_id: invited.id,
    attempts: [],
    next_attempt_at: null,
    last_error: null,
  });
  t.match(
    held.accept_url,
    new RegExp(`^${d.url}/v1/invitations/${invited.id}/accept\\?token=[A-Za-z0-9_-]{43}$`),
    'held mail carries its accept link',
  );
  t.same(await json(t, sy, 'outbox', 'list', '--org', 'acme', '--status', 'held'), [held], 'filtered by organization and status');

  const table = await sy('outbox', 'list');
  t.equal(table.code, 0);
  t.match(
    table.stdout,
    /^ORG\s+ID\s+TO\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+ACCEPT LINK$/m,
    'a plain table when stdout is a pipe',
  );
  t.match(
    table.stdout,
    new RegExp(`^acme\\s+${held.id}\\s+new@example\\.com\\s+held\\s+0\\s+-\\s+${held.accept_url.replace(/[.?]/g, '\\$&')}$`, 'm'),
    'recipient, status, attempts, next attempt and the link',
  );
  t.notMatch(table.stdout, /\x1b\[/, 'no colour codes in a pipe');

  // No transport: retrying held mail is refused, and it stays held.
  const retry = await jsonError(t, sy, 'outbox', 'retry', held.id);
  t.equal(retry.code, 'invalid_state');
  t.match(retry.message, /no email transport is configured/, 'says why');
  t.equal((await json(t, sy, 'outbox', 'show', held.id)).status, 'held', 'still held');

  // The developer opens the link: no credentials needed.
  const accepted = await request(d.url, 'GET', new URL(held.accept_url).pathname + new URL(held.accept_url).search);
  t.equal(accepted.status, 200, 'the accept link answers 200');
  t.match(accepted.headers.get('content-type'), /application\/json/);
  t.match(accepted.body.data, { status: 'accepted', invitation_id: invited.id, organization_id: org.id, membership_id: String });
  const shown = await json(t, sy, 'invite', 'show', invited.id);
  t.match(shown, { id: invited.id, status: 'accepted', membership_id: accepted.body.data.membership_id, accepted_at: String });
  t.match(
    await json(t, sy, 'outbox', 'show', held.id),
    { status: 'cancelled', accept_url: null },
    'the used link is no longer shown',
  );

  // Revoke a pending one; a second revoke is refused.
  const second = await json(t, sy, 'invite', 'create', '--org', org.id, '--email', 'second@example.com', '--role', 'viewer');
  const revoked = await json(t, sy, 'invite', 'revoke', second.id, '--yes');
  t.match(revoked, { id: second.id, status: 'revoked', revoked_at: String, revoked_by: null });
  const again = await jsonError(t, sy, 'invite', 'revoke', second.id, '--yes');
  t.equal(again.code, 'invalid_state', 'revoking again: invalid_state');

  // Resend: a new mail with a new link.
  const third = await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'third@example.com', '--role', 'admin');
  const resent = await json(t, sy, 'invite', 'resend', third.id);
  t.match(resent, { id: third.id, status: 'pending', send_count: 2 });
  t.not(resent.outbox_entry_id, third.outbox_entry_id, 'a new outbox entry');

  // The pending limit: one pending invitation (third) already.
  const changed = await json(t, sy, 'org', 'settings', 'set', '--org', 'acme', '--max-pending', '1');
  t.match(changed, { max_pending_invitations: 1, max_invitations_per_hour: 20, display_name: 'acme', updated_at: String });
  t.same(await json(t, sy, 'org', 'settings', 'get', '--org', 'acme'), changed, 'settings get shows the change');
  const limited = await jsonError(
    t,
    sy,
    'invite',
    'create',
    '--org',
    'acme',
    '--email',
    'fourth@example.com',
    '--role',
    'member',
  );
  t.equal(limited.code, 'rate_limited');
  t.match(limited.details, { limit: 'max_pending_invitations', max: 1 });

  const all = await json(t, sy, 'invite', 'list', '--org', 'acme');
  t.same(
    all.map((i: { email: string; status: string }) => `${i.email} ${i.status}`),
    ['new@example.com accepted', 'second@example.com revoked', 'third@example.com pending'],
  );
  t.same(
    (await json(t, sy, 'invite', 'list', '--org', 'acme', '--status', 'pending')).map((i: { id: string }) => i.id),
    [third.id],
  );

  // Usage and validation errors, in the same JSON shape.
  t.equal((await jsonUsageError(t, sy, 'org', 'settings', 'set', '--org', 'acme')).code, 'invalid_request', 'nothing to change');
  t.equal(
    (await jsonUsageError(t, sy, 'org', 'settings', 'set', '--org', 'acme', '--max-pending', 'many')).code,
    'invalid_request',
    'not an integer',
  );
  const invalid = await jsonError(
    t,
    sy,
    'org',
    'settings',
    'set',
    '--org',
    'acme',
    '--max-per-hour',
    '0',
    '--logo-url',
    'ftp://x',
  );
  t.equal(invalid.code, 'validation_failed');
  t.match(invalid.details, { fields: { max_invitations_per_hour: String, logo_url: String } });
  t.equal((await jsonError(t, sy, 'invite', 'show', randomUUID())).code, 'not_found');
});

t.test('settings set and reset, plain output', async (t) => {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  await spawnDaemon(t, ['--grpc-socket', socket], { ...daemonEnv, SERVICE_DATA_DIR: dataDir });
  const sy = (...args: string[]) => cli(t, ['--socket', socket, ...args]);
  await json(t, sy, 'org', 'create', 'beta');

  const set = await json(
    t,
    sy,
    'org',
    'settings',
    'set',
    '--org',
    'beta',
    '--display-name',
    'Beta Ltd',
    '--email-from-name',
    'Beta Invites',
    '--max-per-hour',
    '5',
    '--max-runs',
    '2',
  );
  t.match(set, {
    display_name: 'Beta Ltd',
    email_from_name: 'Beta Invites',
    max_invitations_per_hour: 5,
    max_pending_invitations: 100,
    max_concurrent_runs: 2,
  });
  const reset = await json(
    t,
    sy,
    'org',
    'settings',
    'set',
    '--org',
    'beta',
    '--reset',
    'display_name',
    '--reset',
    'email_from_name',
  );
  t.match(
    reset,
    { display_name: 'beta', email_from_name: null, max_invitations_per_hour: 5 },
    'reset to the defaults; the rest kept',
  );
  t.equal(
    (await jsonUsageError(t, sy, 'org', 'settings', 'set', '--org', 'beta', '--reset', 'max_pending_invitations')).code,
    'invalid_request',
    'not a resettable field',
  );

  const plain = await sy('org', 'settings', 'get', '--org', 'beta');
  t.equal(plain.code, 0);
  t.match(plain.stdout, /^display name:\s+beta$/m);
  t.match(plain.stdout, /^max per hour:\s+5$/m);
  const empty = await sy('invite', 'list', '--org', 'beta', '--status', 'pending');
  t.equal(empty.stdout.trim(), 'no pending invitations');
  const failed = await sy('invite', 'revoke', 'nope', '--yes');
  t.equal(failed.code, 1);
  t.match(failed.stderr, /^validation_failed: /, 'one plain line on stderr');
});

t.test('completion offers each command its own --status choices', async (t) => {
  const scriptFile = path.join(t.testdir(), 'switchyard.bash');
  writeFileSync(scriptFile, bashCompletion(buildProgram(await loadCommands())));
  const complete = async (...words: string[]) => {
    const script = `source "${scriptFile}"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _switchyard; echo "\${COMPREPLY[*]}"`;
    const { stdout } = await runOwned(t, 'bash', ['-c', script]);
    return stdout.trim().split(/\s+/).sort();
  };
  t.same(await complete('switchyard', 'invite', 'list', '--status', ''), ['accepted', 'expired', 'pending', 'revoked']);
  t.same(await complete('switchyard', 'outbox', 'list', '--org', 'acme', '--status', ''), [
    'cancelled',
    'failed',
    'held',
    'pending',
    'sending',
    'sent',
  ]);
  t.same(await complete('switchyard', 'invite', 'create', '--role', ''), ['admin', 'member', 'owner', 'viewer']);
  t.same(
    await complete('switchyard', 'member', 'add', '--role', ''),
    ['admin', 'member', 'owner', 'viewer'],
    'other commands keep theirs',
  );
  t.same(
    await complete('switchyard', 'org', 'settings', ''),
    ['--help', 'get', 'set', '--addr', '--json', '--no-color', '--socket', '--tls-ca', '--token'].sort(),
  );
  t.same(
    await complete('switchyard', 'outbox', ''),
    ['--help', 'list', 'retry', 'show', '--addr', '--json', '--no-color', '--socket', '--tls-ca', '--token'].sort(),
  );
});
