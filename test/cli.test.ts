// The switchyard CLI as scripts and people meet it: real `node bin/switchyard.js` processes (dist/,
// so `npm run build` first) against a real daemon child, over its admin socket.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { outboxStatuses } from '../src/domain/email/types.js';
import { apiKeyScopes } from '../src/domain/identity/caller.js';
import { roles } from '../src/domain/identity/roles.js';
import { invitationStatuses } from '../src/domain/invitations/types.js';
import { settingsPatchSchema } from '../src/domain/settings/schemas.js';
import { resettableSettings } from '../src/domain/settings/types.js';
import {
  binPath,
  request,
  runOwned,
  spawnDaemon,
  spawnSwitchyard,
  type ChildDaemon,
  cliCleanEnv,
  type CliRun,
} from './helpers.js';

async function cli(t: Test, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = spawnSwitchyard(t, args, { ...cliCleanEnv, ...env });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** A daemon child with its admin socket in its own temp dir. */
async function daemonWithSocket(t: Test): Promise<ChildDaemon & { socket: string }> {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  const daemon = await spawnDaemon(t, ['--grpc-socket', socket], { SERVICE_DATA_DIR: dataDir });
  return { ...daemon, socket };
}

t.test('org, member and key with --json; the key works over HTTP', async (t) => {
  const d = await daemonWithSocket(t);
  const sy = (...args: string[]) => cli(t, ['--socket', d.socket, ...args]);

  const org = await sy('org', 'create', 'acme', '--display-name', 'Acme Inc', '--owner-email', 'boss@example.com', '--json');
  t.equal(org.code, 0, 'org create exits 0');
  t.equal(org.stderr, '', 'nothing on stderr');
  const created = JSON.parse(org.stdout);
  t.match(created, {
    organization: { id: String, slug: 'acme', display_name: 'Acme Inc', created_by: null, created_at: String },
    owner: { principal_id: String, role: 'owner', team_id: null },
  });
  t.same(Object.keys(created).sort(), ['organization', 'owner'], 'exactly {organization, owner}');
  const orgId: string = created.organization.id;
  const ownerId: string = created.owner.principal_id;

  const admin = randomUUID();
  const member = await sy('member', 'add', '--org', 'acme', '--principal', admin, '--role', 'admin', '--json');
  t.equal(member.code, 0);
  t.match(JSON.parse(member.stdout), { id: String, organization_id: orgId, principal_id: admin, role: 'admin', team_id: null });

  const beforeKey = Date.now();
  const key = await sy('key', 'create', '--org', 'acme', '--name', 'ci', '--expires-in', '30d', '--json');
  const afterKey = Date.now();
  t.equal(key.code, 0);
  const k = JSON.parse(key.stdout);
  t.match(
    k,
    { id: String, name: 'ci', prefix: String, organization_id: orgId, principal_id: ownerId, scopes: [], raw_key: /^svc_/ },
    'the key object itself; acts as the first owner',
  );
  const expiresAt = Date.parse(k.expires_at);
  t.ok(expiresAt >= beforeKey + 30 * 86_400_000 && expiresAt <= afterKey + 30 * 86_400_000, '--expires-in 30d');

  const res = await request(d.url, 'GET', `/v1/organizations/${orgId}`, { headers: { authorization: `Bearer ${k.raw_key}` } });
  t.equal(res.status, 200, 'GET /v1/organizations/<id> with the key');
  t.equal(res.body.data.id, orgId);
  t.same(res.body.data, created.organization, 'the CLI printed the same object the HTTP API serves');

  const scoped = await sy(
    'key',
    'create',
    '--org',
    orgId,
    '--name',
    'jobs',
    '--scope',
    'jobs:read',
    '--scope',
    'jobs:write',
    '--principal',
    admin,
    '--json',
  );
  t.equal(scoped.code, 0);
  t.match(JSON.parse(scoped.stdout), { principal_id: admin, scopes: ['jobs:read', 'jobs:write'], expires_at: null });

  const list = await sy('key', 'list', '--org', 'acme', '--json');
  const keys = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
  t.equal(keys.length, 2, 'key list: one JSON array');
  t.notOk(list.stdout.includes(k.raw_key), 'never the key itself');

  const table = await sy('org', 'list');
  t.equal(table.code, 0);
  t.match(table.stdout, /^ID\s+SLUG\s+DISPLAY NAME\s+CREATED$/m, 'plain table when stdout is a pipe');
  t.match(table.stdout, new RegExp(`^${orgId}\\s+acme\\s+Acme Inc\\s`, 'm'));
  t.notMatch(table.stdout, /\x1b\[/, 'no colour codes in a pipe');

  const revoke = await sy('key', 'revoke', k.id, '--yes', '--json');
  t.match(JSON.parse(revoke.stdout), { id: k.id, revoked_at: String });
  t.equal(
    (await request(d.url, 'GET', `/v1/organizations/${orgId}`, { headers: { authorization: `Bearer ${k.raw_key}` } })).status,
    401,
    'revoked',
  );
});

t.test('teams, grants, roles and status', async (t) => {
  const d = await daemonWithSocket(t);
  const sy = (...args: string[]) => cli(t, ['--socket', d.socket, ...args]);
  t.equal((await sy('org', 'create', 'acme', '--json')).code, 0);

  const team = JSON.parse((await sy('team', 'create', 'core', '--org', 'acme', '--json')).stdout);
  t.match(team, { id: String, name: 'core' });
  const bob = JSON.parse(
    (await sy('member', 'add', '--org', 'acme', '--email', 'bob@example.com', '--role', 'viewer', '--team', team.id, '--json'))
      .stdout,
  );
  t.equal(bob.team_id, team.id);
  const promoted = JSON.parse((await sy('member', 'set-role', bob.id, '--org', 'acme', '--role', 'member', '--json')).stdout);
  t.equal(promoted.role, 'member');
  const grant = JSON.parse(
    (
      await sy(
        'grant',
        'create',
        '--org',
        'acme',
        '--principal',
        bob.principal_id,
        '--action',
        'team.update',
        '--resource-type',
        'team',
        '--resource-id',
        team.id,
        '--json',
      )
    ).stdout,
  );
  t.match(grant, { action: 'team.update', resource_id: team.id });
  t.same(JSON.parse((await sy('grant', 'list', '--org', 'acme', '--json')).stdout), [grant]);

  const shown = await sy('team', 'show', team.id, '--org', 'acme');
  t.match(shown.stdout, /^name:\s+core$/m, 'a record in plain text');
  t.equal((await sy('grant', 'delete', grant.id, '--org', 'acme', '--yes', '--json')).code, 0);
  t.equal((await sy('member', 'remove', bob.id, '--org', 'acme', '--yes', '--json')).code, 0);
  t.same(JSON.parse((await sy('team', 'delete', team.id, '--org', 'acme', '--yes', '--json')).stdout), team);
  t.same(JSON.parse((await sy('team', 'list', '--org', 'acme', '--json')).stdout), []);

  const status = await sy('status', '--json');
  t.match(JSON.parse(status.stdout), { state: 'running', http_url: d.url, grpc_socket: d.socket, counts: { organizations: 1 } });
  const plain = await sy('status');
  t.match(plain.stdout, /^state:\s+running$/m);
  t.match(plain.stdout, /^Loops$/m);
});

t.test('lists: org list by slug, --limit on every list', async (t) => {
  const d = await daemonWithSocket(t);
  const sy = (...args: string[]) => cli(t, ['--socket', d.socket, ...args]);
  // Created out of slug order; ids are random, so the daemon's own order is not the slugs'.
  for (const slug of ['delta', 'alpha', 'charlie', 'bravo', 'echo']) t.equal((await sy('org', 'create', slug)).code, 0);
  const all = JSON.parse((await sy('org', 'list', '--json')).stdout) as { slug: string }[];
  t.same(
    all.map((o) => o.slug),
    ['alpha', 'bravo', 'charlie', 'delta', 'echo'],
  );
  const two = JSON.parse((await sy('org', 'list', '--limit', '2', '--json')).stdout) as { slug: string }[];
  t.same(
    two.map((o) => o.slug),
    ['alpha', 'bravo'],
  );
  for (let i = 0; i < 3; i++) t.equal((await sy('team', 'create', `team-${i}`, '--org', 'alpha')).code, 0);
  t.equal(JSON.parse((await sy('team', 'list', '--org', 'alpha', '--json')).stdout).length, 3);
  t.equal(JSON.parse((await sy('team', 'list', '--org', 'alpha', '--limit', '1', '--json')).stdout).length, 1);
  for (const list of [
    ['member', 'list'],
    ['grant', 'list'],
    ['key', 'list'],
    ['invite', 'list'],
    ['webhook', 'list'],
  ])
    t.equal((await sy(...list, '--org', 'alpha', '--limit', '1', '--json')).code, 0, `${list.join(' ')} takes --limit`);
  t.equal((await sy('outbox', 'list', '--limit', '1', '--json')).code, 0, 'outbox list takes --limit');
  const bad = await sy('org', 'list', '--limit', '0');
  t.equal(bad.code, 2, 'a usage error');
  t.match(bad.stderr, /expected a whole number, 1 or more/);
});

t.test('errors: exit 1, stdout empty, one line (or one JSON value) on stderr', async (t) => {
  const d = await daemonWithSocket(t);
  const sy = (...args: string[]) => cli(t, ['--socket', d.socket, ...args]);
  t.equal((await sy('org', 'create', 'acme', '--json')).code, 0);

  const duplicate = await sy('org', 'create', 'acme', '--json');
  t.equal(duplicate.code, 1, 'duplicate slug exits 1');
  t.equal(duplicate.stdout, '', 'nothing on stdout');
  const body = JSON.parse(duplicate.stderr);
  t.match(body, { error: { code: 'conflict', message: /acme/ } });

  const human = await sy('org', 'create', 'acme');
  t.equal(human.code, 1);
  t.equal(human.stdout, '');
  t.match(human.stderr, /^conflict: an organization with slug acme already exists\n$/, 'one line: code and message');

  const missing = await sy('org', 'show', 'nope', '--json');
  t.equal(missing.code, 1);
  t.match(JSON.parse(missing.stderr), { error: { code: 'not_found' } });

  const bad = await sy('org', 'create', 'Not A Slug', '--json');
  t.equal(bad.code, 1);
  t.match(JSON.parse(bad.stderr), { error: { code: 'validation_failed', message: /slug/ } });

  const usage = await sy('member', 'add', '--org', 'acme', '--principal', randomUUID(), '--json');
  t.equal(usage.code, 2, 'a usage error exits 2');
  t.equal(usage.stdout, '');
  t.match(JSON.parse(usage.stderr), { error: { code: 'invalid_request', message: /--role/ } }, 'as JSON too with --json');

  const scope = await sy('key', 'create', '--org', 'acme', '--name', 'x', '--scope', 'root');
  t.equal(scope.code, 2);
  t.match(scope.stderr, `Allowed choices are ${apiKeyScopes.join(', ')}.`, 'the scopes of the domain');
});

t.test('the client commands load no daemon module (only small domain type modules)', async (t) => {
  // A module hook reports every module the CLI resolves (written at once: the hooks run on a thread
  // of their own, and help exits right after the last module loads); `--help` builds the whole tree.
  const hooks = `import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); writeSync(2, 'LOAD ' + r.url + '\\n'); return r; }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const { stderr } = await runOwned(t, process.execPath, [
    '--import',
    `data:text/javascript,${encodeURIComponent(register)}`,
    binPath,
    '--help',
  ]);
  const loaded = [...stderr.matchAll(/^LOAD (.+)$/gm)].map((m) => m[1]);
  t.ok(
    loaded.some((url) => url.endsWith('/cli/commands/member.js')),
    'the hook sees the CLI modules',
  );
  t.ok(
    loaded.some((url) => url.endsWith('/domain/identity/roles.js')),
    'the domain lists are loaded',
  );
  const heavy = loaded.filter((url) =>
    /\/(main|log|dev-bootstrap)\.js$|\/(storage|http|loops|config)\/|\/domain\/.*\/(service|store|index|schemas)\.js$|node_modules\/(zod|level|pino|polka|nodemailer|undici)\//.test(
      url,
    ),
  );
  t.same(heavy, [], 'no daemon module, storage engine, zod or pino');
});

t.test("--reset's choices are exactly the settings the PUT body lets be null", async (t) => {
  const nullable = Object.entries(settingsPatchSchema.shape)
    .filter(([, schema]) => schema.safeParse(null).success)
    .map(([field]) => field);
  t.same([...resettableSettings], nullable);
});

t.test('a wrong choice is a usage error: exit 2, the choices taken from the domain', async (t) => {
  // No daemon is needed: commander refuses the line before any call.
  const socket = path.join(t.testdir(), 'admin.sock');
  const cases: Array<[string[], string, readonly string[]]> = [
    [['member', 'add', '--org', 'acme', '--principal', randomUUID(), '--role', 'king'], '--role', roles],
    [['invite', 'create', '--org', 'acme', '--email', 'a@example.com', '--role', 'king'], '--role', roles],
    [['invite', 'list', '--org', 'acme', '--status', 'lost'], '--status', invitationStatuses],
    [['outbox', 'list', '--status', 'lost'], '--status', outboxStatuses],
    [['org', 'settings', 'set', '--org', 'acme', '--reset', 'slug'], '--reset', resettableSettings],
    [['key', 'create', '--org', 'acme', '--name', 'k', '--scope', 'jobs:read', '--scope', 'root'], '--scope', apiKeyScopes],
  ];
  for (const [args, flag, choices] of cases) {
    const what = args.slice(0, 2).join(' ');
    const run = await cli(t, ['--socket', socket, ...args]);
    t.equal(run.code, 2, `${what}: exits 2`);
    t.equal(run.stdout, '', `${what}: nothing on stdout`);
    t.match(run.stderr, `option '${flag} <`, `${what}: names ${flag}`);
    t.match(run.stderr, `Allowed choices are ${choices.join(', ')}.`, `${what}: lists the domain's choices`);
    t.notMatch(run.stderr, /no daemon/, `${what}: refused before reaching for the daemon`);
  }

  const json = await cli(t, ['--socket', socket, 'member', 'list', '--org', 'acme', '--json', '--role', 'king']);
  t.equal(json.code, 2, 'an unknown option is a usage error too, --json or not');
  t.match(JSON.parse(json.stderr), { error: { code: 'invalid_request', message: /unknown option '--role'/ } });
});

t.test('under --json a noun without its verb is a JSON usage error (exit 2); without it, help', async (t) => {
  const socket = path.join(t.testdir(), 'admin.sock');
  for (const [args, message] of [
    [['org'], 'missing command: org takes create, list, show, rename, settings'],
    [['org', 'settings'], 'missing command: settings takes get, set'],
    [['webhook', 'frobnicate'], /^unknown command 'frobnicate': webhook takes create, list, /],
  ] as const) {
    const r = await cli(t, ['--socket', socket, ...args, '--json']);
    t.equal(r.code, 2, args.join(' '));
    t.equal(r.stdout, '');
    t.match(JSON.parse(r.stderr), { error: { code: 'invalid_request', message } });
  }
  const plain = await cli(t, ['--socket', socket, 'org']);
  t.equal(plain.code, 2);
  t.match(plain.stderr, /Usage: switchyard org/);
});

t.test('no daemon: exactly one clear line', async (t) => {
  const socket = path.join(t.testdir(), 'admin.sock');
  const human = await cli(t, ['--socket', socket, 'org', 'list']);
  t.equal(human.code, 3, 'exit 3: the daemon is unreachable');
  t.equal(human.stdout, '');
  t.equal(human.stderr, `no daemon at ${socket}: start it with \`switchyard serve\`\n`);

  const json = await cli(t, ['org', 'list', '--json'], { SERVICE_GRPC_SOCKET: socket });
  t.equal(json.code, 3);
  t.equal(json.stdout, '');
  t.same(
    JSON.parse(json.stderr),
    { error: { code: 'unavailable', message: `no daemon at ${socket}: start it with \`switchyard serve\`` } },
    'SERVICE_GRPC_SOCKET is the default socket',
  );

  const tcp = await cli(t, ['--addr', '127.0.0.1:1', 'status']);
  t.equal(tcp.stderr, 'no daemon at 127.0.0.1:1: start it with `switchyard serve`\n');
  t.equal(tcp.code, 3);
});

t.test('a second daemon on a live socket exits 1 with one line', async (t) => {
  const first = await daemonWithSocket(t);
  const second = spawnSwitchyard(
    t,
    [
      'serve',
      '--data-dir',
      path.join(path.dirname(first.socket), 'other'),
      '--http-addr',
      '127.0.0.1:0',
      '--grpc-socket',
      first.socket,
    ],
    { SERVICE_LOG_LEVEL: 'silent' },
  );
  t.equal(await second.exited, 1);
  t.equal(second.stderr(), `switchyard: another daemon is listening on ${first.socket}\n`);
  t.equal((await cli(t, ['--socket', first.socket, 'status', '--json'])).code, 0, 'the first daemon still answers');
});

t.test('TCP with --addr and the admin token', async (t) => {
  const token = 'cli-admin-token-0123456789';
  const dataDir = t.testdir();
  const d = await spawnDaemon(t, ['--grpc-addr', '127.0.0.1:0'], { SERVICE_DATA_DIR: dataDir, SERVICE_ADMIN_TOKEN: token });
  const status = JSON.parse((await cli(t, ['--socket', path.join(dataDir, 'admin.sock'), 'status', '--json'])).stdout);
  const addr: string = status.grpc_address;
  t.match(addr, /^127\.0\.0\.1:\d+$/);

  const denied = await cli(t, ['--addr', addr, 'org', 'list', '--json']);
  t.equal(denied.code, 1);
  t.match(JSON.parse(denied.stderr), { error: { code: 'unauthenticated' } });
  const withFlag = await cli(t, ['--addr', addr, '--token', token, 'org', 'list', '--json']);
  t.equal(withFlag.code, 0, '--token');
  t.same(JSON.parse(withFlag.stdout), []);
  const fromEnv = await cli(t, ['--addr', addr, 'org', 'create', 'tcp-org', '--json'], { SERVICE_ADMIN_TOKEN: token });
  t.equal(fromEnv.code, 0, 'SERVICE_ADMIN_TOKEN');
  t.equal((await request(d.url, 'GET', '/healthz')).status, 200);
});

t.test('completion', async (t) => {
  const bash = await cli(t, ['completion', 'bash']);
  t.equal(bash.code, 0);
  t.match(bash.stdout, /^complete -F _switchyard switchyard$/m);

  // Drive the generated function in a real bash, as a shell does on <TAB>.
  const scriptFile = path.join(t.testdir(), 'switchyard.bash');
  writeFileSync(scriptFile, bash.stdout);
  const complete = async (...words: string[]) => {
    const script = `source "${scriptFile}"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _switchyard; echo "\${COMPREPLY[*]}"`;
    const { stdout } = await runOwned(t, 'bash', ['-c', script]);
    return stdout.trim().split(/\s+/);
  };
  t.same(await complete('switchyard', 'org', 'cr'), ['create'], 'verbs of a noun');
  t.match(await complete('switchyard', '--socket', '/tmp/x.sock', 'k'), ['key'], 'nouns after a global option and its value');
  t.same(
    (await complete('switchyard', 'member', 'add', '--role', '')).sort(),
    ['admin', 'member', 'owner', 'viewer'],
    'choices of an option',
  );
  t.ok((await complete('switchyard', 'key', 'create', '--')).includes('--expires-in'), 'options of a verb');
  t.same(
    (await complete('switchyard', 'completion', '')).sort(),
    ['--addr', '--help', '--json', '--no-color', '--socket', '--tls-ca', '--token', 'bash', 'fish', 'zsh'].sort(),
  );

  const unknown = await cli(t, ['completion', 'powershell']);
  t.equal(unknown.code, 2, 'an unknown shell is a usage error');
});
