// Operator experience (issue 14): principals shown as people (emails), organizations, teams and keys
// named by slug or name as well as by id, names unique within an organization, `key list --all`, the
// outbox's organization column, and destructive commands that refuse to run unasked without a
// terminal. Real `node bin/switchyard.js` processes (dist/, so `npm run build` first) against a real
// daemon child; the terminal prompt itself is tested in cli-tty.test.ts.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import t, { type Test } from 'tap';
import { cliCleanEnv, request, spawnDaemon, spawnSwitchyard, type ChildDaemon, type CliRun } from './helpers.js';

async function cli(t: Test, args: string[]): Promise<CliRun> {
  const run = spawnSwitchyard(t, args, cliCleanEnv);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

interface Cli {
  d: ChildDaemon;
  sy: (...args: string[]) => Promise<CliRun>;
  /** Runs with --json and parses stdout; fails the test unless it exits 0. */
  json: (...args: string[]) => Promise<any>;
  /** Runs with --json, expects exit `code`, and answers the error object of stderr. */
  failure: (code: number, ...args: string[]) => Promise<{ code: string; message: string }>;
}

async function daemonCli(t: Test, env: Record<string, string> = {}): Promise<Cli> {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], { SERVICE_DATA_DIR: dataDir, ...env });
  const sy = (...args: string[]) => cli(t, ['--socket', socket, ...args]);
  return {
    d,
    sy,
    json: async (...args) => {
      const run = await sy(...args, '--json');
      t.equal(run.code, 0, `${args.slice(0, 2).join(' ')}: exit 0 ${run.stderr}`);
      return JSON.parse(run.stdout);
    },
    failure: async (code, ...args) => {
      const run = await sy(...args, '--json');
      t.equal(run.code, code, `${args.slice(0, 2).join(' ')}: exit ${code}`);
      t.equal(run.stdout, '', 'nothing on stdout');
      return (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
    },
  };
}

t.test('principals are people: emails in member lists, --principal takes an email, principal show', async (t) => {
  const { sy, json, failure } = await daemonCli(t);
  const created = await json('org', 'create', 'acme', '--owner-email', 'boss@example.com');
  const betaOrg = await json('org', 'create', 'beta');
  const team = await json('team', 'create', 'platform', '--org', 'acme');

  const added = await sy('member', 'add', '--org', 'acme', '--principal', 'Ann@Example.com', '--role', 'admin');
  t.equal(added.code, 0);
  t.match(added.stdout, /^Added ann@example\.com as admin\.$/m, 'member add prints the email it added');
  t.match(added.stdout, /^email:\s+ann@example\.com$/m);
  const ann = await json(
    'member',
    'add',
    '--org',
    'acme',
    '--principal',
    'ann@example.com',
    '--role',
    'viewer',
    '--team',
    'platform',
  );
  t.match(ann, { team_id: team.id, email: 'ann@example.com', role: 'viewer' }, '--team by name; the JSON carries the email');
  const idOnly = randomUUID();
  t.match(await json('member', 'add', '--org', 'beta', '--principal', idOnly, '--role', 'member'), {
    principal_id: idOnly,
    email: null,
  });
  await json('member', 'add', '--org', 'beta', '--email', 'ann@example.com', '--role', 'owner');

  const listed = await json('member', 'list', '--org', 'acme');
  t.same(
    listed.map((m: { email: string | null; role: string }) => [m.email, m.role]),
    [
      ['boss@example.com', 'owner'],
      ['ann@example.com', 'admin'],
      ['ann@example.com', 'viewer'],
    ],
  );
  const table = await sy('member', 'list', '--org', 'acme');
  t.match(table.stdout, /^MEMBERSHIP\s+EMAIL\s+PRINCIPAL\s+ROLE\s+TEAM\s+SINCE$/m);
  t.match(
    table.stdout,
    new RegExp(`^${created.owner.id}\\s+boss@example\\.com\\s+${created.owner.principal_id}\\s+owner\\s`, 'm'),
  );
  const beta = await sy('member', 'list', '--org', 'beta');
  t.match(beta.stdout, new RegExp(`^[0-9a-f-]{36}\\s+-\\s+${idOnly}\\s+member\\s`, 'm'), 'a principal without email: a dash');

  const key = await json('key', 'create', '--org', 'acme', '--name', 'ann-ci', '--principal', 'ANN@example.com');
  t.equal(key.principal_id, ann.principal_id, 'key create --principal by email');
  const grant = await json(
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
  t.equal(grant.principal_id, ann.principal_id, 'grant create --principal by email');
  const stranger = await failure(
    1,
    'grant',
    'create',
    '--org',
    'acme',
    '--principal',
    'nobody@example.com',
    '--action',
    'team.update',
    '--resource-type',
    'team',
    '--resource-id',
    team.id,
  );
  t.match(stranger, { code: 'not_found', message: /principal/ }, 'an email nobody has: not found');
  // Registered, but no member of beta: grants go to members only, and the message names the flag.
  const outsider = await failure(
    1,
    'grant',
    'create',
    '--org',
    'beta',
    '--principal',
    'boss@example.com',
    '--action',
    'organization.read',
    '--resource-type',
    'organization',
    '--resource-id',
    betaOrg.organization.id,
  );
  t.match(
    outsider,
    { code: 'validation_failed', message: /--principal.*not a member of this organization/ },
    'a registered principal outside the organization: refused',
  );

  const shown = await json('principal', 'show', 'ann@example.com');
  t.match(shown.principal, { id: ann.principal_id, email: 'ann@example.com', created_at: String });
  t.match(shown.organizations, [
    {
      slug: 'acme',
      organization_id: created.organization.id,
      role: 'admin',
      teams: [{ team_id: team.id, team_name: 'platform', role: 'viewer' }],
    },
    { slug: 'beta', role: 'owner', teams: [] },
  ]);
  t.same(await json('principal', 'show', ann.principal_id), shown, 'by id, the same');
  const plain = await sy('principal', 'show', 'ann@example.com');
  t.match(plain.stdout, /^email:\s+ann@example\.com$/m);
  t.match(plain.stdout, /^ORGANIZATION\s+ROLE\s+TEAM\s+MEMBERSHIP$/m);
  t.match(plain.stdout, /^acme\s+admin\s+-\s+[0-9a-f-]{36}$/m, 'the organization-level role');
  t.match(plain.stdout, /^acme\s+viewer\s+platform\s+[0-9a-f-]{36}$/m, 'a team role');
  t.match(plain.stdout, /^beta\s+owner\s+-\s/m);
  const loner = await json('principal', 'show', idOnly);
  t.match(loner, { principal: { email: null }, organizations: [{ slug: 'beta', role: 'member' }] });
  t.match(await failure(1, 'principal', 'show', 'nobody@example.com'), { code: 'not_found' });
  t.match(await failure(1, 'principal', 'show', randomUUID()), { code: 'not_found' });

  // Contract 13: bound by hand to an identity provider's subject (a JWT sub).
  t.equal(shown.principal.external_id, null, 'not bound to a subject');
  const linked = await json('principal', 'link', '--email', 'Ann@Example.com', '--subject', 'auth0|ann');
  t.same(linked, { ...shown.principal, external_id: 'auth0|ann' }, 'principal link: the principal, bound');
  t.match((await sy('principal', 'show', 'ann@example.com')).stdout, /^subject:\s+auth0\|ann$/m, 'show names the subject');
  t.match(await failure(1, 'principal', 'link', '--email', 'ann@example.com', '--subject', 'auth0|other'), { code: 'conflict' });
  t.match(await failure(1, 'principal', 'link', '--email', 'nobody@example.com', '--subject', 'auth0|x'), { code: 'not_found' });
});

t.test('names and ids alike; team and key names unique within an organization', async (t) => {
  const { d, sy, json, failure } = await daemonCli(t);
  const acme = (await json('org', 'create', 'acme')).organization;
  await json('org', 'create', 'beta');
  const team = await json('team', 'create', 'platform', '--org', 'acme');

  t.same(await json('team', 'show', 'platform', '--org', 'acme'), team, 'team show <name> --org <slug>');
  t.same(await json('team', 'show', 'PLATFORM', '--org', acme.id), team, 'names compare case-insensitively');
  t.same(await json('team', 'show', team.id), team, 'team show <id> without --org');
  t.match(await failure(1, 'team', 'show', team.id, '--org', 'beta'), { code: 'not_found' }, "another organization's team");
  t.match(await failure(1, 'team', 'show', 'platform', '--org', 'beta'), { code: 'not_found' });
  t.match(await failure(1, 'team', 'show', 'platform'), { code: 'not_found' }, 'a name needs --org');

  const dup = await sy('team', 'create', 'Platform', '--org', 'acme');
  t.equal(dup.code, 1);
  t.equal(dup.stderr, 'conflict: a team named platform already exists in this organization\n', 'a clear message');
  t.equal((await json('team', 'create', 'platform', '--org', 'beta')).name, 'platform', 'another organization may use it');

  // HTTP: create and rename answer 409 on a taken name; concurrent creates pass one.
  const owner = (await json('member', 'list', '--org', 'acme'))[0].principal_id as string;
  const http = (method: string, route: string, body?: unknown) =>
    request(d.url, method, `/v1/organizations/${acme.id}${route}`, { headers: { 'x-principal-id': owner }, body });
  const concurrent = await Promise.all(Array.from({ length: 5 }, () => http('POST', '/teams', { name: 'ops' })));
  t.same(concurrent.map((r) => r.status).sort(), [201, 409, 409, 409, 409], 'one of five concurrent creates wins');
  t.match(concurrent.find((r) => r.status === 409)!.body, { error: { code: 'conflict' } });
  const ops = concurrent.find((r) => r.status === 201)!.body.data;
  const renamedOver = await http('PATCH', `/teams/${ops.id}`, { name: 'Platform' });
  t.equal(renamedOver.status, 409, 'PATCH onto a taken name');
  const renamed = await http('PATCH', `/teams/${ops.id}`, { name: 'operations' });
  t.equal(renamed.status, 200);
  t.same(renamed.body.data, { ...ops, name: 'operations' });
  t.equal((await http('PATCH', `/teams/${ops.id}`, { name: 'operations' })).status, 200, 'its own name is not a conflict');

  // CLI rename, by name.
  t.match(await json('team', 'rename', 'operations', '--org', 'acme', '--name', 'ops'), { id: ops.id, name: 'ops' });
  t.match(await failure(1, 'team', 'rename', 'ops', '--org', 'acme', '--name', 'platform'), { code: 'conflict' });
  t.match(await json('team', 'rename', team.id, '--name', 'core'), { id: team.id, name: 'core' }, 'by id without --org');

  // Members of a team that is gone: not found, not an empty list.
  await json('member', 'add', '--org', 'acme', '--principal', randomUUID(), '--role', 'viewer', '--team', 'core');
  t.equal((await json('member', 'list', '--org', 'acme', '--team', 'core')).length, 1, 'member list --team by name');
  await json('team', 'delete', 'core', '--org', 'acme', '--yes');
  t.match(await failure(1, 'member', 'list', '--org', 'acme', '--team', team.id), { code: 'not_found', message: /team/ });
  t.equal((await http('GET', `/members?team_id=${team.id}`)).status, 404, 'over HTTP too');

  // Keys: unique names among active keys; named by name with --org.
  const key = await json('key', 'create', '--org', 'acme', '--name', 'ci');
  t.match(await failure(1, 'key', 'create', '--org', 'acme', '--name', 'CI'), {
    code: 'conflict',
    message: 'an active API key named ci already exists in this organization',
  });
  t.equal((await json('key', 'create', '--org', 'beta', '--name', 'ci')).name, 'ci', 'another organization may use it');
  const revoked = await json('key', 'revoke', 'ci', '--org', 'acme', '--yes');
  t.match(revoked, { id: key.id, revoked_at: String, revoked_reason: 'revoked' }, 'key revoke <name> --org');
  t.match(
    await failure(1, 'key', 'revoke', 'ci', '--org', 'acme', '--yes'),
    { code: 'not_found' },
    'no active key has the name now',
  );
  const again = await json('key', 'create', '--org', 'acme', '--name', 'ci');
  t.not(again.id, key.id, "a revoked key's name is free again");
  t.match(
    await failure(1, 'key', 'revoke', again.id, '--org', 'beta', '--yes'),
    { code: 'not_found' },
    'by id in another organization',
  );

  // key list: active keys; --all revoked ones too, oldest first.
  t.same(
    (await json('key', 'list', '--org', 'acme')).map((k: { id: string }) => k.id),
    [again.id],
  );
  const all = await json('key', 'list', '--org', 'acme', '--all');
  t.same(
    all.map((k: { id: string; revoked_at: string | null }) => [k.id, k.revoked_at !== null]),
    [
      [key.id, true],
      [again.id, false],
    ],
  );
  const table = await sy('key', 'list', '--org', 'acme', '--all');
  t.match(table.stdout, new RegExp(`^${key.id}\\s+ci\\s+\\S+\\s+revoked\\s`, 'm'), 'the table shows the state');
  t.equal((await json('key', 'list', '--org', 'acme', '--all', '--limit', '1')).length, 1, '--all takes --limit');

  // Organizations: rename by slug; the slug stays unique.
  const renamed2 = await json('org', 'rename', 'acme', '--slug', 'acme-corp', '--display-name', 'Acme Corp');
  t.match(renamed2, { id: acme.id, slug: 'acme-corp', display_name: 'Acme Corp' });
  t.same(await json('org', 'show', 'acme-corp'), renamed2);
  t.match(await failure(1, 'org', 'show', 'acme'), { code: 'not_found' }, 'the old slug is free');
  t.match(await failure(1, 'org', 'rename', 'acme-corp', '--slug', 'beta'), {
    code: 'conflict',
    message: 'an organization with slug beta already exists',
  });
  t.match(await failure(1, 'org', 'rename', 'acme-corp', '--slug', 'Not A Slug'), { code: 'validation_failed' });
  t.match(await failure(2, 'org', 'rename', 'acme-corp'), { code: 'invalid_request', message: /--slug/ });
  t.match(await json('org', 'rename', acme.id, '--display-name', 'ACME'), { slug: 'acme-corp', display_name: 'ACME' });
  const patched = await request(d.url, 'PATCH', `/v1/organizations/${acme.id}`, {
    headers: { 'x-principal-id': owner },
    body: { slug: 'acme' },
  });
  t.equal(patched.status, 200, 'PATCH /v1/organizations/{id} takes a slug');
  t.equal(patched.body.data.slug, 'acme');
});

t.test('outbox list across organizations has an ORG column', async (t) => {
  const { sy, json } = await daemonCli(t);
  await json('org', 'create', 'acme');
  await json('org', 'create', 'beta');
  await json('invite', 'create', '--org', 'acme', '--email', 'a@example.com', '--role', 'member');
  await json('invite', 'create', '--org', 'beta', '--email', 'b@example.com', '--role', 'member');
  const across = await sy('outbox', 'list');
  t.match(across.stdout, /^ORG\s+ID\s+TO\s+STATUS\s/m);
  t.match(across.stdout, /^acme\s+[0-9a-f-]{36}\s+a@example\.com\s+held\s/m, 'by slug');
  t.match(across.stdout, /^beta\s+[0-9a-f-]{36}\s+b@example\.com\s+held\s/m);
  const one = await sy('outbox', 'list', '--org', 'acme');
  t.match(one.stdout, /^ID\s+TO\s+STATUS\s/m, 'one organization: no ORG column');
  t.notMatch(one.stdout, /b@example\.com/);
  const listed = await json('outbox', 'list');
  t.equal(listed.length, 2, '--json: the entries as before');
  t.match(listed[0], { id: String, organization_id: String, to: String });
});

t.test('destructive commands without a terminal or under --json refuse without --yes (exit 2)', async (t) => {
  // The webhook points at the daemon itself: loopback, allowed here.
  const { d, sy, json, failure } = await daemonCli(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1' });
  await json('org', 'create', 'acme');
  const team = await json('team', 'create', 'platform', '--org', 'acme');
  const m = await json('member', 'add', '--org', 'acme', '--email', 'bob@example.com', '--role', 'viewer', '--team', 'platform');
  const grant = await json(
    'grant',
    'create',
    '--org',
    'acme',
    '--principal',
    'bob@example.com',
    '--action',
    'team.read',
    '--resource-type',
    'team',
    '--resource-id',
    team.id,
  );
  const key = await json('key', 'create', '--org', 'acme', '--name', 'ci');
  const invitation = await json('invite', 'create', '--org', 'acme', '--email', 'c@example.com', '--role', 'member');
  const hook = await json('webhook', 'create', '--org', 'acme', '--url', `${d.url}/hook`);
  // The grant first: removing its principal's last membership, or its team, would take it along.
  const commands: Array<[string, string[]]> = [
    ['grant delete', ['grant', 'delete', grant.id, '--org', 'acme']],
    ['member remove', ['member', 'remove', m.id, '--org', 'acme']],
    ['team delete', ['team', 'delete', 'platform', '--org', 'acme']],
    ['key revoke', ['key', 'revoke', key.id]],
    ['invite revoke', ['invite', 'revoke', invitation.id]],
    ['webhook delete', ['webhook', 'delete', hook.id]],
  ];
  for (const [what, args] of commands) {
    const plain = await sy(...args);
    t.equal(plain.code, 2, `${what}: a usage error`);
    t.equal(plain.stdout, '', `${what}: nothing on stdout`);
    t.equal(plain.stderr, `error: ${what} needs confirmation and there is no terminal to ask in: pass --yes to go ahead\n`);
    t.same(await failure(2, ...args), {
      code: 'invalid_request',
      message: `${what} needs confirmation and --json never asks: pass --yes to go ahead`,
    });
  }
  // Nothing happened.
  t.equal((await json('member', 'list', '--org', 'acme')).length, 2);
  t.equal((await json('team', 'list', '--org', 'acme')).length, 1);
  t.equal((await json('grant', 'list', '--org', 'acme')).length, 1);
  t.equal((await json('key', 'list', '--org', 'acme')).length, 1);
  t.match(await json('invite', 'show', invitation.id), { status: 'pending' });
  t.match(await json('webhook', 'show', hook.id), { deleted_at: null });
  // With --yes each one runs.
  for (const [what, args] of commands) t.equal((await sy(...args, '--yes', '--json')).code, 0, `${what} --yes`);
  t.equal((await json('key', 'list', '--org', 'acme')).length, 0);
  t.match(await json('invite', 'show', invitation.id), { status: 'revoked' });
});
