// The operator's diagnostic commands as scripts and people meet them: `permissions check`, `events
// list`, `config show`, `doctor` and what `status` adds, in real `node bin/switchyard.js` processes
// (dist/, so `npm run build` first) against real daemon children over their admin sockets.
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import t, { type Test } from 'tap';
import { registerConfigShow } from '../src/cli/commands/config-show.js';
import { judge } from '../src/cli/commands/doctor.js';
import { describeConfig } from '../src/config/describe.js';
import { loadConfig } from '../src/config/load.js';
import { FakeDns } from './fakes/dns.js';
import { fakeProvider, providerEnv } from './fakes/email-provider.js';
import { asPrincipal, cliJson as json, privateDir, request, spawnDaemonCli, waitFor } from './helpers.js';
import { healthyFacts } from './support/doctor-facts.js';

/** What a daemon child starts with unless a test says otherwise: development, no mail transport, no JWT. */
const plainDaemon = {
  SERVICE_ENV: 'development',
  EMAIL_PROVIDER_API_KEY: '',
  SERVICE_SMTP_URL: '',
  SERVICE_PUBLIC_URL: '',
  JWT_SECRET: '',
};

/** A daemon child on its own admin socket (spawnDaemonCli), `plainDaemon` unless told otherwise. */
const daemonWithSocket = (t: Test, env: Record<string, string> = {}, args: string[] = []) =>
  spawnDaemonCli(t, { ...plainDaemon, ...env }, args);

t.test('permissions check: allowed or not, and why, as POST /v1/permissions/check answers', async (t) => {
  const d = await daemonWithSocket(t);
  const { sy } = d;
  const org = await json(t, sy, 'org', 'create', 'acme', '--owner-email', 'boss@example.com');
  const orgId: string = org.organization.id;
  const ownerId: string = org.owner.principal_id;
  const viewer = randomUUID();
  await json(t, sy, 'member', 'add', '--org', 'acme', '--principal', viewer, '--role', 'viewer');
  const team = await json(t, sy, 'team', 'create', 'core', '--org', 'acme');
  const grant = ['--org', 'acme', '--principal', viewer, '--action', 'team.update', '--resource-type', 'team'];
  await json(t, sy, 'grant', 'create', ...grant, '--resource-id', team.id);

  const check = (...args: string[]) => json(t, sy, 'permissions', 'check', '--org', 'acme', ...args);
  const denied = await check('--principal', viewer, '--action', 'team.create');
  t.same(
    denied,
    {
      allowed: false,
      role: 'viewer',
      reason: 'requires admin',
      organization_id: orgId,
      principal_id: viewer,
      api_key_id: null,
      action: 'team.create',
      resource_type: 'organization',
      resource_id: orgId,
      required_role: 'admin',
    },
    'a viewer may not create a team: the missing role; the resource defaults to the organization',
  );
  const byGrant = await check(
    '--principal',
    viewer,
    '--action',
    'team.update',
    '--resource-type',
    'team',
    '--resource-id',
    team.id,
  );
  t.match(byGrant, { allowed: true, role: 'viewer', reason: 'grant', resource_type: 'team', resource_id: team.id });
  const byEmail = await check('--principal', 'Boss@Example.com', '--action', 'settings.update');
  t.match(byEmail, { allowed: true, role: 'owner', reason: 'role', principal_id: ownerId }, 'a principal named by its email');

  // The same question over HTTP, asked as the viewer itself, gets the same answer.
  for (const [action, type, id] of [
    ['team.create', 'organization', orgId],
    ['team.update', 'team', team.id as string],
    ['team.delete', 'team', team.id as string],
  ]) {
    const viaCli = await check('--principal', viewer, '--action', action, '--resource-type', type, '--resource-id', id);
    const viaHttp = await request(d.url, 'POST', '/v1/permissions/check', {
      headers: asPrincipal(viewer),
      body: { action, resource_type: type, resource_id: id },
    });
    t.equal(viaHttp.status, 200);
    t.same(
      { allowed: viaCli.allowed, role: viaCli.role, reason: viaCli.reason },
      viaHttp.body.data,
      `${action} on ${type}: the CLI and HTTP agree`,
    );
  }

  // An API key: its principal (the owner) narrowed by its scopes; a revoked one never gets that far.
  const scoped = await json(t, sy, 'key', 'create', '--org', 'acme', '--name', 'jobs', '--scope', 'jobs:read');
  t.match(await check('--key', scoped.id, '--action', 'team.create'), {
    allowed: false,
    role: 'owner',
    reason: 'insufficient_scope: needs a full-access key',
    principal_id: ownerId,
    api_key_id: scoped.id,
  });
  t.match(await check('--key', scoped.id, '--action', 'job.read'), { allowed: true, reason: 'role' }, 'within its scope');
  await json(t, sy, 'key', 'revoke', scoped.id, '--yes');
  t.match(await check('--key', scoped.id, '--action', 'job.read'), { allowed: false, reason: /revoked.*401/ });

  // A resource of another organization is not this one's question.
  await json(t, sy, 'org', 'create', 'other');
  const otherTeam = await json(t, sy, 'team', 'create', 'theirs', '--org', 'other');
  t.match(
    await check('--principal', ownerId, '--action', 'team.read', '--resource-type', 'team', '--resource-id', otherTeam.id),
    {
      allowed: false,
      reason: 'resource not found in this organization',
    },
  );

  const plain = await sy('permissions', 'check', '--org', 'acme', '--principal', viewer, '--action', 'team.create');
  t.equal(plain.code, 0, 'a denial is an answer: exit 0');
  t.match(plain.stdout, new RegExp(`^Denied: principal ${viewer} may not team.create on organization acme\\.$`, 'm'));
  t.match(plain.stdout, /^why:\s+requires admin$/m);
  t.match(plain.stdout, /^needs:\s+admin or higher, or a grant of team.create$/m);

  const neither = await sy('permissions', 'check', '--org', 'acme', '--action', 'team.create', '--json');
  t.equal(neither.code, 2, 'neither --principal nor --key: a usage error');
  t.match(JSON.parse(neither.stderr), { error: { code: 'invalid_request', message: /--principal .* --key/ } });
  const both = await sy('permissions', 'check', '--org', 'acme', '--principal', viewer, '--key', scoped.id, '--action', 'x');
  t.equal(both.code, 2, 'both: a usage error');
  const unknownAction = await sy(
    'permissions',
    'check',
    '--org',
    'acme',
    '--principal',
    viewer,
    '--action',
    'team.fly',
    '--json',
  );
  t.equal(unknownAction.code, 1);
  t.match(JSON.parse(unknownAction.stderr), { error: { code: 'validation_failed', message: /action/ } });
  const nobody = await sy('permissions', 'check', '--org', 'acme', '--principal', 'nobody@example.com', '--action', 'team.read');
  t.equal(nobody.code, 1);
  t.equal(nobody.stderr, 'not_found: principal not found\n');
  const otherKey = await json(t, sy, 'key', 'create', '--org', 'other', '--name', 'theirs');
  const wrongOrg = await sy('permissions', 'check', '--org', 'acme', '--key', otherKey.id, '--action', 'team.read', '--json');
  t.match(JSON.parse(wrongOrg.stderr), { error: { code: 'not_found' } }, "another organization's key");
});

t.test('events list: the stored events, oldest first, filtered and paged as over HTTP', async (t) => {
  const d = await daemonWithSocket(t);
  const { sy } = d;
  const org = await json(t, sy, 'org', 'create', 'acme', '--owner-email', 'boss@example.com');
  for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
    await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', email, '--role', 'member');

  const all = await json(t, sy, 'events', 'list', '--org', 'acme');
  t.same(
    all.map((e: { kind: string }) => e.kind),
    ['organization.created', 'member.added', 'invitation.created', 'invitation.created', 'invitation.created'],
    'every event, in log order',
  );
  const overHttp = await request(d.url, 'GET', `/v1/organizations/${org.organization.id}/events`, {
    headers: asPrincipal(org.owner.principal_id),
  });
  t.same(all, overHttp.body.data, 'the same objects as GET /v1/organizations/{id}/events');

  const invited = await json(t, sy, 'events', 'list', '--org', 'acme', '--kind', 'invitation.created');
  t.same(
    invited.map((e: { payload: { email: string } }) => e.payload.email),
    ['a@example.com', 'b@example.com', 'c@example.com'],
  );
  const after = await json(t, sy, 'events', 'list', '--org', 'acme', '--after', all[1].id);
  t.same(after, all.slice(2), '--after: only the events after that one');
  t.same(await json(t, sy, 'events', 'list', '--org', 'acme', '--limit', '2'), all.slice(0, 2), '--limit');

  const plain = await sy('events', 'list', '--org', 'acme', '--kind', 'organization.created');
  t.equal(plain.code, 0);
  t.match(plain.stdout, /^ID\s+KIND\s+TIME\s+PAYLOAD$/m);
  t.match(plain.stdout, new RegExp(`^${all[0].id}\\s+organization\\.created\\s+\\S+Z\\s+\\{"organization_id"`, 'm'));
  t.equal((await sy('events', 'list', '--org', 'acme', '--after', all[4].id)).stdout, 'no events\n');

  const missing = await sy('events', 'list', '--org', 'nope', '--json');
  t.equal(missing.code, 1);
  t.match(JSON.parse(missing.stderr), { error: { code: 'not_found' } });
  const bad = await sy('events', 'list', '--org', 'acme', '--after', 'evt_nope', '--json');
  t.equal(bad.code, 1);
  t.match(JSON.parse(bad.stderr), { error: { code: 'validation_failed', message: /after/ } });
  const kind = await sy('events', 'list', '--org', 'acme', '--kind', 'weather.changed');
  t.equal(kind.code, 2, 'an unknown kind is a usage error');
});

t.test('config show: every setting, its source, secrets masked; status: mail, links, JWT, counts', async (t) => {
  const secrets = {
    JWT_SECRET: 'jwt-secret-that-is-at-least-32-characters-long',
    SERVICE_ADMIN_TOKEN: 'admin-token-0123456789',
    SERVICE_SMTP_URL: 'smtp://mailer:smtp-password-1@127.0.0.1:2525',
    SERVICE_INVITE_TOKEN_KEY: 'ab'.repeat(32),
  };
  const configFile = path.join(privateDir(), 'switchyard.json');
  writeFileSync(configFile, JSON.stringify({ SERVICE_INVITE_TTL_MS: 3_600_000, SERVICE_LOG_LEVEL: 'debug' }));
  const d = await daemonWithSocket(t, { ...secrets, SERVICE_LOG_LEVEL: 'info' }, ['--config', configFile]);
  const { sy } = d;

  const run = await sy('config', 'show', '--json');
  t.equal(run.code, 0);
  for (const [name, value] of Object.entries(secrets)) t.notOk(run.stdout.includes(value), `${name}'s value is never printed`);
  t.notOk(run.stdout.includes('smtp-password-1'), 'nor the SMTP password');
  const settings = new Map((JSON.parse(run.stdout) as Array<{ name: string }>).map((s) => [s.name, s]));
  t.same(settings.get('SERVICE_HTTP_ADDR'), {
    name: 'SERVICE_HTTP_ADDR',
    value: '127.0.0.1:0',
    source: 'flag',
    secret: false,
    flag: '--http-addr',
  });
  t.match(settings.get('SERVICE_LOG_LEVEL'), { value: 'info', source: 'env' }, 'the environment beats the file');
  t.match(settings.get('SERVICE_INVITE_TTL_MS'), { value: '3600000', source: 'file' });
  t.match(settings.get('SERVICE_OUTBOX_RETRY_DELAYS_MS'), { value: '60000,300000,1800000', source: 'default' });
  t.match(settings.get('SERVICE_GRPC_SOCKET'), { value: d.socket, source: 'flag' });
  t.match(settings.get('JWT_SECRET'), { value: '********', source: 'env', secret: true });
  t.match(settings.get('SERVICE_ADMIN_TOKEN'), { value: '********', secret: true });
  t.match(
    settings.get('SERVICE_SMTP_URL'),
    { value: 'smtp://mailer:********@127.0.0.1:2525', secret: true },
    'a URL keeps its host',
  );
  t.match(settings.get('EMAIL_PROVIDER_API_KEY'), { value: null, source: 'default', secret: true }, 'an empty variable: unset');
  t.match(settings.get('SERVICE_PUBLIC_URL'), { value: null });

  const table = await sy('config', 'show');
  t.match(table.stdout, /^SETTING\s+VALUE\s+SOURCE$/m);
  t.match(table.stdout, /^SERVICE_HTTP_ADDR\s+127\.0\.0\.1:0\s+flag --http-addr$/m);
  t.match(table.stdout, /^SERVICE_INVITE_TTL_MS\s+3600000\s+file$/m);
  t.match(table.stdout, /^JWT_SECRET\s+\*{8}\s+env$/m);

  await json(t, sy, 'org', 'create', 'acme');
  await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'a@example.com', '--role', 'member');
  const status = await json(t, sy, 'status');
  t.match(status, {
    email_transport: 'smtp',
    public_url: d.url,
    public_url_set: false,
    jwt_enabled: true,
    pending_invitations: 1,
    counts: { invitations: 1, email_outbox: 1, events: 3 },
  });
  t.equal(typeof status.outbox, 'object', 'outbox entries by status');
  const plain = await sy('status');
  t.match(plain.stdout, /^email:\s+smtp$/m);
  t.match(plain.stdout, new RegExp(`^public url:\\s+${d.url} \\(the HTTP listener\\)$`, 'm'));
  t.match(plain.stdout, /^jwt:\s+on$/m);
  t.match(plain.stdout, /^invitations:\s+1 \(1 pending\)$/m);
  t.match(plain.stdout, /^events:\s+3$/m);
});

t.test('status of a development daemon without mail or JWT', async (t) => {
  const { sy } = await daemonWithSocket(t);
  await json(t, sy, 'org', 'create', 'acme');
  await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'a@example.com', '--role', 'member');
  const status = await json(t, sy, 'status');
  t.match(status, { email_transport: 'held', jwt_enabled: false, outbox: { held: 1 }, storage_engine: 'leveldb' });
  const plain = await sy('status');
  t.match(plain.stdout, /^storage:\s+LevelDB \(in the data dir\)$/m, 'the storage engine, named');
  t.match(plain.stdout, /^email:\s+held \(no transport: mail stays in the outbox\)$/m);
  t.match(plain.stdout, /^jwt:\s+off \(JWT_SECRET unset\)$/m);
  t.match(plain.stdout, /^outbox:\s+1 \(1 held\)$/m);
  // A held mail is queued, not sent.
  const invited = await sy('invite', 'create', '--org', 'acme', '--email', 'b@example.com', '--role', 'member');
  t.match(invited.stdout, /^mails queued:\s+1$/m);
  t.notMatch(invited.stdout, /mails sent/);
});

t.test('config show shares the config noun with the CLI config verbs', async (t) => {
  const program = new Command('switchyard');
  program.command('config').description("the CLI's config file").command('get <key>');
  registerConfigShow(program);
  const nouns = program.commands.filter((c) => c.name() === 'config');
  t.equal(nouns.length, 1, 'one config noun');
  t.same(
    nouns[0].commands.map((c) => c.name()),
    ['get', 'show'],
  );
});

t.test('config show masks a database URL but its password, and a password in any URL', async (t) => {
  const config = loadConfig({
    env: {
      SERVICE_DATABASE_URL: 'postgres://app:pg-password-9@db.internal:5432/switchyard',
      OLLAMA_HOST: 'http://ollama:ollama-password@gpu.internal:11434',
    },
  });
  const settings = describeConfig(config);
  t.match(
    settings.find((s) => s.name === 'OLLAMA_HOST'),
    { value: 'http://ollama:********@gpu.internal:11434/', secret: false },
    'a password in any URL',
  );
  const setting = settings.find((s) => s.name === 'SERVICE_DATABASE_URL');
  t.same(setting, {
    name: 'SERVICE_DATABASE_URL',
    value: 'postgres://app:********@db.internal:5432/switchyard',
    source: 'env',
    secret: true,
    flag: null,
  });
});

t.test('doctor: a development daemon, then held mail and invitations about to expire', async (t) => {
  const d = await daemonWithSocket(t, { SERVICE_INVITE_TTL_MS: '3600000' });
  const { sy } = d;
  const first = await json(t, sy, 'doctor');
  t.equal(first.ok, true, 'no FAIL');
  const verdicts = Object.fromEntries(first.checks.map((c: { check: string; status: string }) => [c.check, c.status]));
  t.same(verdicts, {
    'data dir': 'OK',
    'disk space': 'OK',
    email: 'WARN',
    'failed mail': 'OK',
    'public URL': 'OK',
    JWT: 'WARN',
    invitations: 'OK',
    clock: 'OK',
  });
  t.match(
    first.checks.find((c: { check: string }) => c.check === 'email'),
    {
      detail: /held in the outbox/,
      fix: /EMAIL_PROVIDER_API_KEY or SERVICE_SMTP_URL/,
    },
  );

  await json(t, sy, 'org', 'create', 'acme');
  await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'a@example.com', '--role', 'member');
  const second = await json(t, sy, 'doctor');
  t.match(second.checks, [
    {},
    {},
    { check: 'email', status: 'WARN' },
    { check: 'held mail', status: 'WARN', detail: '1 mail held' },
    {},
    {},
    {},
    { check: 'invitations', status: 'WARN', detail: '1 pending invitation expires within 24 h', fix: /invite resend/ },
    { check: 'clock', status: 'OK' },
  ]);

  chmodSync(d.dataDir, 0o750);
  const open = await sy('doctor');
  t.equal(open.code, 0, 'WARNs only: exit 0');
  t.match(open.stdout, /^RESULT\s+CHECK\s+DETAIL$/m);
  t.match(open.stdout, new RegExp(`^WARN\\s+data dir mode\\s+${d.dataDir} is 0750: other users can reach`, 'm'));
  t.match(open.stdout, /^To fix\nRESULT\s+CHECK\s+FIX$/m, 'then what to do about each WARN');
  t.match(open.stdout, new RegExp(`^WARN\\s+data dir mode\\s+chmod 700 ${d.dataDir}$`, 'm'));
  t.match(open.stdout, /^OK\s+clock\s+within 5 s/m);
  chmodSync(d.dataDir, 0o700);

  if (process.getuid?.() === 0) {
    chownSync(d.dataDir, 4321, 4321);
    const failing = await sy('doctor', '--json');
    t.equal(failing.code, 1, 'a FAIL: exit 1');
    const report = JSON.parse(failing.stdout);
    t.equal(report.ok, false);
    t.match(report.checks[0], { check: 'data dir owner', status: 'FAIL', detail: /uid 4321/, fix: /chown/ });
    const plainFailing = await sy('doctor');
    t.equal(plainFailing.code, 1);
    t.match(plainFailing.stdout, /^FAIL\s+data dir owner\s+/m);
    chownSync(d.dataDir, 0, 0);
  }
});

t.test('doctor: production with an http public URL and mail that failed', async (t) => {
  const fake = await fakeProvider(t);
  fake.setDefault({ kind: 'status', status: 500 });
  const d = await daemonWithSocket(
    t,
    providerEnv(fake, {
      SERVICE_ENV: 'production',
      SERVICE_PUBLIC_URL: 'http://127.0.0.1:9',
      SERVICE_OUTBOX_RETRY_DELAYS_MS: '10',
    }),
  );
  const { sy } = d;
  await json(t, sy, 'org', 'create', 'acme');
  await json(t, sy, 'invite', 'create', '--org', 'acme', '--email', 'a@example.com', '--role', 'member');
  await waitFor(async () => (await json(t, sy, 'outbox', 'list', '--status', 'failed')).length === 1, {
    what: 'the mail to fail',
  });
  const report = await json(t, sy, 'doctor');
  t.equal(report.ok, true, 'WARNs only');
  const byCheck = Object.fromEntries(report.checks.map((c: { check: string }) => [c.check, c]));
  t.match(byCheck.email, { status: 'OK', detail: 'sent through the email provider API' });
  t.match(byCheck['failed mail'], { status: 'WARN', detail: '1 mail failed after every retry', fix: /outbox retry/ });
  t.match(byCheck['public URL'], { status: 'WARN', detail: /http:\/\/127\.0\.0\.1:9.*clear text/, fix: /https/ });
});

t.test("doctor: the sending domain's SPF and DMARC, from a DNS server on 127.0.0.1", async (t) => {
  const fake = await fakeProvider(t);
  const dns = await FakeDns.start(t, {
    'mail.acme.dev': ['v=spf1 include:_spf.mailer.dev -all', 'google-site-verification=abc'],
  });
  const d = await daemonWithSocket(t, providerEnv(fake, { SERVICE_EMAIL_FROM: 'Acme <invites@mail.acme.dev>' }));
  const checks = async (...args: string[]) =>
    Object.fromEntries(
      ((await json(t, d.sy, 'doctor', ...args)).checks as { check: string }[]).map((c) => [c.check, c]),
    ) as unknown as Record<string, { status: string; detail: string; fix: string | null }>;

  const first = await checks('--dns-server', dns.address);
  t.match(first.SPF, { status: 'OK', detail: 'mail.acme.dev: v=spf1 include:_spf.mailer.dev -all' });
  t.match(first.DMARC, {
    status: 'WARN',
    detail: '_dmarc.mail.acme.dev has no DMARC record',
    fix: /TXT record at _dmarc\.mail\.acme\.dev: "v=DMARC1; p=quarantine/,
  });
  t.ok(dns.asked.includes('_dmarc.mail.acme.dev'), 'asked the configured server');

  dns.records.set('_dmarc.mail.acme.dev', ['v=DMARC1; p=reject']);
  dns.records.set('mail.acme.dev', ['v=spf1 -all', 'v=spf1 include:other -all']);
  const second = await checks('--dns-server', dns.address);
  t.match(second.DMARC, { status: 'OK', detail: '_dmarc.mail.acme.dev: v=DMARC1; p=reject' });
  t.match(second.SPF, { status: 'WARN', detail: /has 2 SPF records/, fix: /one TXT record/ });

  dns.records.clear();
  const none = await checks('--dns-server', dns.address);
  t.match(none.SPF, { status: 'WARN', detail: 'mail.acme.dev has no SPF record: receivers may reject or junk invitation mail' });

  // No DNS answering: nothing judged, and it says so.
  const silent = await checks('--dns-server', '127.0.0.1:9');
  t.match(silent.SPF, { status: 'OK', detail: /^not checked: DNS did not answer/ });
  t.match(silent.DMARC, { status: 'OK', detail: /^not checked: DNS did not answer/ });
});

t.test('doctor judges the clock, disk space and ownership from the facts', async (t) => {
  const facts = healthyFacts();
  const at = Date.parse(facts.now);
  const statuses = (findings: { status: string }[]) => findings.map((f) => f.status);
  t.same(statuses(judge(facts, at)), ['OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK'], 'all well');
  t.match(judge(facts, at + 7_000).at(-1), { check: 'clock', status: 'WARN', detail: /7\.0 s behind/, fix: /NTP/ });
  t.match(judge(facts, at - 4_000).at(-1), { check: 'clock', status: 'OK' }, 'within 5 s');
  t.match(judge({ ...facts, data_dir_free_bytes: 50 * 1024 ** 2 }, at)[1], { check: 'disk space', status: 'FAIL' });
  t.match(judge({ ...facts, data_dir_free_bytes: 3 * 1024 ** 3 }, at)[1], { check: 'disk space', status: 'WARN' }, 'under 5 %');
  t.match(judge({ ...facts, data_dir_uid: 0 }, at)[0], {
    check: 'data dir owner',
    status: 'FAIL',
    fix: 'chown -R 1000 /var/lib/switchyard (or run the daemon as its owner)',
  });
  t.match(
    judge({ ...facts, env: 'production', public_url_set: false }, at).find((f) => f.check === 'public URL'),
    { status: 'FAIL', fix: /SERVICE_PUBLIC_URL/ },
  );
  t.match(
    judge({ ...facts, env: 'production', email_transport: 'held' }, at).find((f) => f.check === 'email'),
    { status: 'FAIL' },
    'no transport in production',
  );
});
