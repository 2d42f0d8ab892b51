// One rule for every command of a kind, as an operator meets them in real `node bin/switchyard.js`
// processes (dist/, so `npm run build` first) against a real daemon child over its admin socket:
// "nothing to change" is a usage error everywhere.
import t, { type Test } from 'tap';
import { cliJson as json, spawnDaemonCli } from './helpers.js';

/** A development daemon without mail, whose webhooks may point at 127.0.0.1. */
const daemon = (t: Test) =>
  spawnDaemonCli(t, {
    SERVICE_ENV: 'development',
    EMAIL_PROVIDER_API_KEY: '',
    SERVICE_SMTP_URL: '',
    SERVICE_PUBLIC_URL: '',
    SERVICE_WEBHOOK_ALLOW_PRIVATE: '1',
  });

t.test('"nothing to change" is a usage error (exit 2) for every update-style command', async (t) => {
  const { sy } = await daemon(t);
  await json(t, sy, 'org', 'create', 'acme', '--owner-email', 'boss@example.com');
  const hook = await json(t, sy, 'webhook', 'create', '--org', 'acme', '--url', 'http://127.0.0.1:9/hook');
  const commands: [string[], string][] = [
    [['org', 'rename', 'acme'], '--slug'],
    [['org', 'settings', 'set', '--org', 'acme'], '--logo-url'],
    [['webhook', 'update', hook.id], '--max-retries'],
    [['provider', 'set', 'echo'], '--cost'],
  ];
  for (const [args, flag] of commands) {
    const what = args.slice(0, 2).join(' ');
    const plain = await sy(...args);
    t.equal(plain.code, 2, `${what}: exit 2`);
    t.equal(plain.stdout, '', `${what}: nothing on stdout`);
    t.match(plain.stderr, /^error: nothing to change: give at least one of /, `${what}: says so`);
    t.ok(plain.stderr.includes(flag), `${what}: names its flags (${flag})`);
    const scripted = await sy(...args, '--json');
    t.equal(scripted.code, 2, `${what} --json: exit 2`);
    t.equal(scripted.stdout, '');
    t.match(JSON.parse(scripted.stderr), { error: { code: 'invalid_request', message: /^nothing to change/ } });
  }
  // The flags listed are the changes it takes: not what names the thing (--org), not an old hidden name.
  t.equal(
    (await sy('webhook', 'update', hook.id)).stderr.split('\n')[0],
    'error: nothing to change: give at least one of --kind, --resource-filter, --max-retries, --description, --state or --reset',
  );
  t.equal(
    (await sy('org', 'settings', 'set', '--org', 'acme')).stderr.split('\n')[0],
    'error: nothing to change: give at least one of --display-name, --logo-url, --email-from-name, --max-pending, --max-per-hour, --max-runs, --max-jobs, --run-wait-timeout or --reset',
  );
  // Nothing was changed on the way.
  t.match(await json(t, sy, 'org', 'show', 'acme'), { slug: 'acme' });
  t.match(await json(t, sy, 'webhook', 'show', hook.id), { max_retries: 3 });
});

t.test('one flag name per concept: --kind and --after; the old spellings still work, unshown', async (t) => {
  const { sy } = await daemon(t);
  await json(t, sy, 'org', 'create', 'acme', '--owner-email', 'boss@example.com');
  const url = 'http://127.0.0.1:9/hook';
  const create = (...args: string[]) => json(t, sy, 'webhook', 'create', '--org', 'acme', '--url', url, ...args);

  const repeated = await create('--kind', 'invitation.created', '--kind', 'invitation.revoked');
  t.same(repeated.event_filter, ['invitation.created', 'invitation.revoked'], 'webhook create: --kind is repeatable');
  const listed = await create('--kind', 'invitation.created,invitation.revoked');
  t.same(listed.event_filter, ['invitation.created', 'invitation.revoked'], 'and takes a comma list, as listen does');
  const old = await create('--event', 'invitation.created');
  t.same(old.event_filter, ['invitation.created'], 'webhook create: the old --event still works');
  const changed = await json(t, sy, 'webhook', 'update', old.id, '--event', 'invitation.revoked');
  t.same(changed.event_filter, ['invitation.revoked'], 'webhook update: so does --event');
  const both = await sy(
    'webhook',
    'create',
    '--org',
    'acme',
    '--url',
    url,
    '--kind',
    'invitation.created',
    '--event',
    'invitation.created',
  );
  t.equal(both.code, 2, 'the new and the old name together: a usage error');
  t.match(both.stderr, /cannot be used with/);

  // Events: --after is the event id to start after, on list and on tail alike.
  await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'one@example.com', '--role', 'member');
  const events = await json(t, sy, 'events', 'list', '--org', 'acme');
  t.ok(events.length >= 2, 'some events to page through');
  const after = await json(t, sy, 'events', 'list', '--org', 'acme', '--after', events[0].id);
  t.same(
    after.map((e: { id: string }) => e.id),
    events.slice(1).map((e: { id: string }) => e.id),
  );
  const bothTail = await sy('events', 'tail', '--org', 'acme', '--after', events[0].id, '--since', events[0].id);
  t.equal(bothTail.code, 2, 'events tail --after with the old --since: a usage error');

  // Help and completion show only the new names.
  const help = async (...args: string[]) => (await sy(...args, '--help')).stdout;
  const tailHelp = await help('events', 'tail');
  t.match(tailHelp, /--after <event-id>/);
  t.notMatch(tailHelp, /--since/, 'events tail --help: no --since');
  const createHelp = await help('webhook', 'create');
  t.match(createHelp, /--kind <kind>/);
  t.notMatch(createHelp, /--event\b/, 'webhook create --help: no --event');
  const listenHelp = await help('listen');
  t.match(listenHelp, /--kind <kind>/);
  t.notMatch(listenHelp, /--events/, 'listen --help: no --events');
  const completion = (await sy('completion', 'bash')).stdout;
  t.notMatch(completion, /--events|--event\b/, 'completion offers neither old name');
});

t.test('messages name a principal as the operator typed it: the email, not its id', async (t) => {
  const { sy } = await daemon(t);
  const org = await json(t, sy, 'org', 'create', 'acme', '--owner-email', 'boss@example.com');
  await json(t, sy, 'member', 'add', '--org', 'acme', '--email', 'ann@example.com', '--role', 'viewer');
  const team = await json(t, sy, 'team', 'create', 'core', '--org', 'acme');
  const ann: string = (await json(t, sy, 'principal', 'show', 'ann@example.com')).principal.id;
  const noId = (text: string, what: string) => {
    t.notOk(text.includes(org.owner.principal_id), `${what}: not the owner's id`);
    t.notOk(text.includes(ann), `${what}: not ann's id`);
  };

  const created = await sy('org', 'create', 'beta', '--owner-email', 'boss@example.com');
  t.equal(created.code, 0);
  t.match(created.stdout, /email: +boss@example\.com/, 'org create: the owner by the email given');

  const denied = await sy('permissions', 'check', '--org', 'acme', '--principal', 'ann@example.com', '--action', 'team.create');
  t.equal(denied.code, 0);
  const deniedLine = denied.stdout.split('\n')[0];
  t.equal(deniedLine, 'Denied: ann@example.com may not team.create on organization acme.');
  noId(deniedLine, 'permissions check');

  const grant = await sy(
    'grant',
    'create',
    '--org',
    'acme',
    '--principal',
    'ann@example.com',
    '--action',
    'team.update',
    '--resource-type',
    'team',
    '--resource-id',
    team.id,
  );
  t.equal(grant.code, 0, grant.stderr);
  const grantLine = grant.stdout.split('\n')[0];
  t.equal(grantLine, `Granted team.update on team ${team.id} to ann@example.com.`);
  noId(grantLine, 'grant create');

  const key = await sy('key', 'create', '--org', 'acme', '--name', 'ci', '--principal', 'ann@example.com');
  t.equal(key.code, 0, key.stderr);
  t.match(key.stdout, /acts as: +ann@example\.com\n/, 'key create: acts as the email given');

  // An id typed is an id shown; --json keeps the API's fields.
  const byId = await sy(
    'permissions',
    'check',
    '--org',
    org.organization.id,
    '--principal',
    org.owner.principal_id,
    '--action',
    'team.create',
  );
  t.equal(
    byId.stdout.split('\n')[0],
    `Allowed: principal ${org.owner.principal_id} may team.create on organization ${org.organization.id}.`,
  );
  t.match(await json(t, sy, 'key', 'create', '--org', 'acme', '--name', 'ci2', '--principal', 'ann@example.com'), {
    principal_id: /^[0-9a-f-]{36}$/,
  });
});
