// Webhooks and the event log from the terminal, end to end: real `node bin/switchyard.js` processes
// (dist/, so `npm run build` first) against a real daemon child and a real local receiver. The
// webhook verbs with their --json shapes (the HTTP API's objects) and exit codes; `events tail`
// printing the backlog after --since and then live events until SIGINT (exit 0); `listen` forwarding
// each event signed with the secret it printed, as a real delivery is signed.
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { verify as verifyGithub } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { bashCompletion } from '../src/cli/commands/completion.js';
import { buildProgram, loadCommands } from '../src/cli/index.js';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import {
  asPrincipal,
  request,
  runOwned,
  spawnDaemon,
  spawnSwitchyard,
  waitFor,
  waitForExit,
  type ChildRun,
  cliCleanEnv,
  type CliRun,
} from './helpers.js';

const daemonEnv = {
  SERVICE_ENV: 'development',
  SERVICE_WEBHOOK_ALLOW_PRIVATE: '1',
  SERVICE_WEBHOOK_RETRY_BASE_MS: '100',
  SERVICE_WEBHOOK_TIMEOUT_MS: '2000',
  EMAIL_PROVIDER_API_KEY: '',
  SERVICE_SMTP_URL: '',
};

interface World {
  url: string;
  sy: (...args: string[]) => Promise<CliRun>;
  /** A long-running command (tail, listen), killed at teardown if still running. */
  spawn: (...args: string[]) => ChildRun;
  owner: Record<string, string>;
  org: { id: string };
  /** Invites someone over HTTP: one invitation.created event. */
  invite: () => Promise<string>;
  /** The organization's events over HTTP, in log order. */
  events: () => Promise<any[]>;
}

async function world(t: Test): Promise<World> {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], { ...daemonEnv, SERVICE_DATA_DIR: dataDir });
  const sy = async (...args: string[]) => {
    const run = spawnSwitchyard(t, ['--socket', socket, ...args], cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  const spawn = (...args: string[]) => spawnSwitchyard(t, ['--socket', socket, ...args], cliCleanEnv);
  const ownerId = randomUUID();
  const owner = asPrincipal(ownerId);
  const created = await sy('org', 'create', 'acme', '--owner-principal', ownerId, '--json');
  if (created.code !== 0) throw new Error(`org create exited ${created.code}: ${created.stderr}`);
  const org = JSON.parse(created.stdout).organization;
  const invite = async () => {
    const res = await request(d.url, 'POST', '/v1/invitations', {
      headers: owner,
      body: { organization_id: org.id, email: `${randomUUID().slice(0, 8)}@example.com`, role: 'member' },
    });
    if (res.status !== 201) throw new Error(`invite: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  const events = async () =>
    (await request(d.url, 'GET', `/v1/organizations/${org.id}/events?limit=200`, { headers: owner })).body.data as any[];
  return { url: d.url, sy, spawn, owner, org, invite, events };
}

/** A --json run that must succeed: its one JSON value. */
async function json(t: Test, w: World, ...args: string[]): Promise<any> {
  const run = await w.sy(...args, '--json');
  if (run.code !== 0) throw new Error(`switchyard ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  t.equal(run.stderr, '', `${args.slice(0, 2).join(' ')}: nothing on stderr`);
  return JSON.parse(run.stdout);
}

/** A --json run that must fail with `exitCode`: nothing on stdout, the error object from stderr. */
async function jsonFailure(t: Test, w: World, exitCode: number, ...args: string[]): Promise<{ code: string; message: string }> {
  const run = await w.sy(...args, '--json');
  t.equal(run.code, exitCode, `${args.slice(0, 2).join(' ')} exits ${exitCode}`);
  t.equal(run.stdout, '', 'nothing on stdout');
  const parsed = JSON.parse(run.stderr);
  t.same(Object.keys(parsed), ['error'], 'one {"error": ...} object on stderr');
  return parsed.error;
}

/** The complete lines a running command printed so far. */
function lines(run: ChildRun): string[] {
  return run.stdout().split('\n').slice(0, -1);
}

/** SIGINT, as Ctrl-C sends it: the command ends cleanly, exit 0. */
async function interrupt(t: Test, run: ChildRun, what: string): Promise<void> {
  run.child.kill('SIGINT');
  t.equal(await waitForExit(run, `${what} to exit on SIGINT`), 0, `${what}: SIGINT exits 0`);
  t.equal(run.stderr(), '', `${what}: nothing on stderr`);
}

t.test('webhook create, list, show, pause, resume, deliveries, retry, rotate-secret, delete', async (t) => {
  const w = await world(t);
  const receiver = await WebhookReceiver.start(t);
  const http = async (id: string) => (await request(w.url, 'GET', `/v1/webhooks/${id}`, { headers: w.owner })).body.data;

  const created = await json(
    t,
    w,
    'webhook',
    'create',
    '--org',
    'acme',
    '--url',
    receiver.url,
    '--kind',
    'invitation.created',
    '--max-retries',
    '2',
    '--description',
    'ci',
    '--state',
    '{"tenant": "a", "n": [1, 2]}',
  );
  t.match(created, {
    id: String,
    organization_id: w.org.id,
    url: receiver.url,
    event_filter: ['invitation.created'],
    resource_filter: {},
    state: { tenant: 'a', n: [1, 2] },
    max_retries: 2,
    active: true,
    description: 'ci',
    deleted_at: null,
  });
  t.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'the secret');
  t.equal(created.standard_secret, created.secret, 'the same string for Standard Webhooks libraries');
  const { secret, standard_secret: _standard, ...hook } = created;
  t.same(await http(hook.id), hook, 'the webhook as the HTTP API shows it');
  t.same(await json(t, w, 'webhook', 'list', '--org', 'acme'), [hook], 'list: an array, no secret');
  t.same(await json(t, w, 'webhook', 'show', hook.id), hook, 'show: the record');
  await json(t, w, 'org', 'create', 'other');
  t.equal(
    (await jsonFailure(t, w, 1, 'webhook', 'show', hook.id, '--org', 'other')).code,
    'not_found',
    "another organization's: not_found",
  );

  const table = await w.sy('webhook', 'list', '--org', 'acme');
  t.equal(table.code, 0);
  t.match(table.stdout, /^ID\s+URL\s+STATUS\s+EVENTS\s+RETRIES\s+DESCRIPTION$/m, 'a plain table when stdout is a pipe');
  t.match(table.stdout, new RegExp(`^${hook.id}\\s+${receiver.url}\\s+active\\s+invitation\\.created\\s+2\\s+ci$`, 'm'));

  // Paused: the delivery is recorded and held; resumed: sent, signed with the secret.
  t.match(await json(t, w, 'webhook', 'pause', hook.id), { id: hook.id, active: false });
  await w.invite();
  const deliveries = () => json(t, w, 'webhook', 'deliveries', hook.id);
  // Waits poll over HTTP (cheaper than a CLI process per poll); the CLI shows the result.
  const overHttp = async () =>
    (await request(w.url, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { headers: w.owner })).body.data as any[];
  await waitFor(async () => (await overHttp()).length === 1, { what: 'the held delivery' });
  t.match(await overHttp(), [{ webhook_id: hook.id, event_kind: 'invitation.created', status: 'pending', attempts: [] }]);
  t.equal(receiver.received.length, 0, 'nothing sent while paused');
  t.match(await json(t, w, 'webhook', 'resume', hook.id), { id: hook.id, active: true });
  await waitFor(async () => (await overHttp())[0].status === 'delivered', { what: 'the delivery after resume' });
  const list = await deliveries();
  t.same(list, await overHttp(), 'deliveries: the HTTP API records');
  const [delivered] = list;
  t.match(delivered, { status: 'delivered', status_code: 200, attempt: 1, error_message: null, next_attempt_at: null });
  t.match(delivered.attempts, [{ attempt: 1, status_code: 200, error: null, response: 'ok' }]);
  const sent = receiver.deliveries(delivered.id);
  t.equal(sent.length, 1);
  t.ok(
    await verifyGithub(secret, sent[0].body, String(sent[0].headers['x-service-signature'])),
    'signed with the printed secret',
  );
  const plain = await w.sy('webhook', 'deliveries', hook.id);
  t.match(plain.stdout, new RegExp(`^${delivered.id}\\s+invitation\\.created\\s+delivered\\s+1\\s+200\\s+-\\s+-$`, 'm'));
  // Without a webhook id: the organization's delivery list (every webhook's, newest first), as over HTTP.
  t.same(
    await json(t, w, 'webhook', 'deliveries', '--org', 'acme'),
    (await request(w.url, 'GET', `/v1/organizations/${w.org.id}/deliveries`, { headers: w.owner })).body.data,
    "deliveries --org: the organization's list",
  );
  const orgPlain = await w.sy('webhook', 'deliveries', '--org', w.org.id);
  t.match(orgPlain.stdout, new RegExp(`^${delivered.id}\\s+${hook.id}\\s+invitation\\.created\\s+delivered\\s`, 'm'));
  const neither = await w.sy('webhook', 'deliveries');
  t.not(neither.code, 0, 'neither a webhook nor --org: refused');
  t.match(neither.stderr, /--org/);

  // Retry by hand: the same delivery id again, attempt 2.
  const retried = await json(t, w, 'webhook', 'retry', hook.id, delivered.id);
  t.match(retried, { id: delivered.id, status: 'pending' });
  await waitFor(() => receiver.deliveries(delivered.id).length === 2, { what: 'the retried delivery' });
  t.equal(receiver.deliveries(delivered.id)[1].headers['x-service-retry'], '2');
  t.same(await json(t, w, 'webhook', 'recover', hook.id, '--since', new Date(Date.now() - 60_000).toISOString()), {
    recovered: 0,
  });

  // Rotation: the new secret, shown once, signs the next delivery.
  const rotated = await json(t, w, 'webhook', 'rotate-secret', hook.id, '--grace-seconds', '0');
  t.match(rotated, { id: hook.id, secret: /^whsec_[A-Za-z0-9+/]{43}=$/, standard_secret: String });
  t.not(rotated.secret, secret, 'a new secret');
  const next = await w.invite();
  // The webhook has state: the body is {event, state}.
  const about = (id: string) => receiver.received.find((r) => JSON.parse(r.body).event.payload.invitation_id === id);
  await waitFor(() => about(next) !== undefined, { what: 'the delivery after rotation' });
  t.ok(await verifyGithub(rotated.secret, about(next)!.body, String(about(next)!.headers['x-service-signature'])));

  const updated = await json(
    t,
    w,
    'webhook',
    'update',
    hook.id,
    '--description',
    'changed',
    '--reset',
    'state',
    '--max-retries',
    '0',
  );
  t.match(updated, { description: 'changed', state: null, max_retries: 0, event_filter: ['invitation.created'] });
  t.same(updated, await http(hook.id), 'update: the record after the change');
  t.equal((await jsonFailure(t, w, 2, 'webhook', 'update', hook.id)).code, 'invalid_request', 'nothing to change');

  const deleted = await json(t, w, 'webhook', 'delete', hook.id, '--yes');
  t.match(deleted, { id: hook.id, active: false, deleted_at: String });
  t.equal((await jsonFailure(t, w, 1, 'webhook', 'show', hook.id)).code, 'not_found', 'gone after delete');
  const gone = await w.sy('webhook', 'show', hook.id);
  t.equal(gone.code, 1);
  t.match(gone.stderr, /^not_found: webhook not found\n$/, 'one plain line on stderr');

  // Refused by the daemon (exit 1) or as usage (exit 2), in the same JSON shape.
  const badUrl = await jsonFailure(t, w, 1, 'webhook', 'create', '--org', 'acme', '--url', 'ftp://example.com/hook');
  t.equal(badUrl.code, 'validation_failed', 'a bad URL');
  t.equal(
    (await jsonFailure(t, w, 2, 'webhook', 'create', '--org', 'acme', '--url', receiver.url, '--kind', 'nope')).code,
    'invalid_request',
    'an unknown event kind',
  );
  t.equal(
    (await jsonFailure(t, w, 2, 'webhook', 'create', '--org', 'acme', '--url', receiver.url, '--state', '{bad')).code,
    'invalid_request',
    '--state that is not JSON',
  );
});

t.test('webhook test: a signed webhook.test event to that webhook alone, whatever its filter', async (t) => {
  const w = await world(t);
  const receiver = await WebhookReceiver.start(t);
  const other = await WebhookReceiver.start(t);
  const overHttp = async (id: string) =>
    (await request(w.url, 'GET', `/v1/webhooks/${id}/deliveries`, { headers: w.owner })).body.data as any[];
  // Its filter does not name webhook.test: a test event is delivered anyway. The second webhook takes
  // every kind, and still gets nothing.
  const hook = await json(t, w, 'webhook', 'create', '--org', 'acme', '--url', receiver.url, '--kind', 'invitation.created');
  const bystander = await json(t, w, 'webhook', 'create', '--org', 'acme', '--url', other.url);

  const sent = await json(t, w, 'webhook', 'test', hook.id);
  t.same(Object.keys(sent).sort(), ['event_id', 'webhook_id'], 'the answer of POST /v1/webhooks/{id}/test');
  t.equal(sent.webhook_id, hook.id);
  const logged = (await w.events()).find((e) => e.id === sent.event_id);
  t.match(logged, { kind: 'webhook.test', payload: { webhook_id: hook.id, message: String } }, 'the event in the log');
  await waitFor(async () => (await overHttp(hook.id))[0]?.status === 'delivered', { what: 'the test delivery' });
  const [delivery] = await overHttp(hook.id);
  t.match(delivery, { event_id: sent.event_id, event_kind: 'webhook.test', status_code: 200 });
  const [arrived] = receiver.deliveries(delivery.id);
  t.ok(
    await verifyGithub(hook.secret, arrived.body, String(arrived.headers['x-service-signature'])),
    'signed with the webhook secret',
  );
  t.match(JSON.parse(arrived.body), { kind: 'webhook.test', payload: { webhook_id: hook.id } });
  t.same(await overHttp(bystander.id), [], 'the other webhook got no delivery');
  t.equal(other.received.length, 0);

  const plain = await w.sy('webhook', 'test', hook.id);
  t.equal(plain.code, 0);
  t.match(
    plain.stdout,
    new RegExp(`^Sent test event \\S+; its delivery lists under \`switchyard webhook deliveries ${hook.id}\`\\.$`, 'm'),
  );

  await json(t, w, 'org', 'create', 'other');
  t.equal((await jsonFailure(t, w, 1, 'webhook', 'test', hook.id, '--org', 'other')).code, 'not_found', "another organization's");
  await json(t, w, 'webhook', 'pause', hook.id);
  const paused = await jsonFailure(t, w, 1, 'webhook', 'test', hook.id);
  t.equal(paused.code, 'invalid_state', 'a paused webhook is refused');
  t.match(paused.message, /paused/);
  t.equal((await jsonFailure(t, w, 1, 'webhook', 'test', randomUUID())).code, 'not_found', 'an unknown webhook');
});

t.test('webhook create --all-organizations: a platform webhook gets every new organization', async (t) => {
  const w = await world(t);
  const receiver = await WebhookReceiver.start(t);
  const created = await json(t, w, 'webhook', 'create', '--all-organizations', '--url', receiver.url);
  t.match(created, { organization_id: null, all_organizations: true, url: receiver.url, secret: /^whsec_/ });
  t.same(
    (await json(t, w, 'webhook', 'list', '--all-organizations')).map((h: { id: string }) => h.id),
    [created.id],
  );
  t.same(await json(t, w, 'webhook', 'list', '--org', 'acme'), [], "not in any organization's list");
  t.match(await json(t, w, 'webhook', 'show', created.id), { all_organizations: true });
  t.equal((await jsonFailure(t, w, 1, 'webhook', 'show', created.id, '--org', 'acme')).code, 'not_found', "not acme's webhook");
  t.equal((await w.sy('webhook', 'create', '--url', receiver.url, '--json')).code, 2, 'neither --org nor --all-organizations');
  t.equal(
    (await w.sy('webhook', 'create', '--org', 'acme', '--all-organizations', '--url', receiver.url, '--json')).code,
    2,
    'both',
  );

  const beta = (await json(t, w, 'org', 'create', 'beta', '--owner-principal', randomUUID())).organization;
  await waitFor(
    () =>
      receiver.received.some(
        (r) => JSON.parse(r.body).kind === 'organization.created' && JSON.parse(r.body).organization_id === beta.id,
      ),
    { what: "beta's organization.created at the platform receiver" },
  );
  const paused = await json(t, w, 'webhook', 'pause', created.id);
  t.equal(paused.active, false, 'pause works on it as on any webhook');
  t.match(await json(t, w, 'webhook', 'delete', created.id, '--yes'), { id: created.id, deleted_at: String });
  t.same(await json(t, w, 'webhook', 'list', '--all-organizations'), [], 'gone once deleted');
});

t.test('events tail --after: the backlog, then live events, until SIGINT', async (t) => {
  const w = await world(t);
  await w.invite();
  await w.invite();
  const [first, ...backlog] = (await w.events()).filter((e) => e.kind === 'invitation.created');
  t.equal(backlog.length, 1);

  const tail = w.spawn('events', 'tail', '--org', 'acme', '--after', first.id, '--json');
  // --since: the old spelling of --after (the contract's first), still accepted.
  const plain = w.spawn('events', 'tail', '--org', w.org.id, '--kind', 'invitation.created', '--since', first.id);
  await waitFor(() => lines(tail).length === 1 && lines(plain).length === 1, { what: 'the backlog' });
  t.same(
    lines(tail).map((l) => JSON.parse(l)),
    backlog,
    'the stored event after --after, as HTTP shows it',
  );

  await w.invite();
  await waitFor(() => lines(tail).length === 2 && lines(plain).length === 2, { what: 'the live event' });
  const all = (await w.events()).filter((e) => e.kind === 'invitation.created');
  t.same(
    lines(tail).map((l) => JSON.parse(l)),
    all.slice(1),
    'then the live one: one JSON object a line',
  );
  const live = all[2];
  t.equal(
    lines(plain)[1],
    `${live.timestamp}  invitation.created  ${live.id}  ${JSON.stringify(live.payload)}`,
    'plain: time, kind, id, payload',
  );

  await interrupt(t, tail, 'events tail --json');
  await interrupt(t, plain, 'events tail');

  const bad = await w.sy('events', 'tail', '--org', 'acme', '--after', 'yesterday', '--json');
  t.equal(bad.code, 1, 'a bad --after is refused by the daemon');
  t.match(JSON.parse(bad.stderr), { error: { code: 'validation_failed' } });
  const unknown = await w.sy('events', 'tail', '--org', 'nope');
  t.same([unknown.code, unknown.stderr], [1, 'not_found: organization not found\n']);
  const kind = await w.sy('events', 'tail', '--org', 'acme', '--kind', 'nope');
  t.equal(kind.code, 2, 'an unknown kind is a usage error');
});

t.test(
  'listen --forward-to: every event signed with the printed secret; a receiver failure is printed and the stream goes on',
  async (t) => {
    const w = await world(t);
    const receiver = await WebhookReceiver.start(t);
    const listen = w.spawn(
      'listen',
      '--org',
      'acme',
      '--forward-to',
      receiver.url,
      '--kind',
      'invitation.created',
      '--kind',
      'invitation.revoked',
      '--json',
    );
    await waitFor(() => lines(listen).length === 1, { what: 'the signing secret' });
    const first = JSON.parse(lines(listen)[0]);
    t.match(first, { secret: /^whsec_[A-Za-z0-9+/]{43}=$/, forward_to: receiver.url }, 'the secret first');
    t.equal(first.standard_secret, first.secret, 'one secret for both headers');

    const invitationId = await w.invite();
    await waitFor(() => receiver.received.length === 1, { what: 'the forwarded event' });
    const [got] = receiver.received;
    const event = (await w.events()).find((e) => e.kind === 'invitation.created');
    t.same(JSON.parse(got.body), event, 'the body: the event, as a real delivery carries it');
    t.equal(event.payload.invitation_id, invitationId);
    t.ok(
      await verifyGithub(first.secret, got.body, String(got.headers['x-service-signature'])),
      'X-Service-Signature verifies (octokit)',
    );
    t.ok(
      new StandardWebhook(first.secret).verify(got.body, got.headers as Record<string, string>),
      'so does webhook-signature, with the secret as printed',
    );
    t.match(got.headers, {
      'content-type': 'application/json',
      'x-service-event': 'invitation.created',
      'x-service-delivery': /^dlv_[0-9A-Z]{26}$/,
      'webhook-id': got.headers['x-service-delivery'],
      'webhook-timestamp': /^\d+$/,
    });
    await waitFor(() => lines(listen).length === 2, { what: 'the forward line' });
    t.same(JSON.parse(lines(listen)[1]), {
      event_id: event.id,
      event_kind: 'invitation.created',
      delivery_id: got.headers['x-service-delivery'],
      status_code: 200,
      ok: true,
      duration_ms: JSON.parse(lines(listen)[1]).duration_ms,
      error: null,
    });

    // The receiver fails: printed, and the next event is forwarded all the same.
    receiver.enqueue({ kind: 'status', status: 500, body: 'boom' });
    await w.invite();
    await waitFor(() => lines(listen).length === 3, { what: 'the failed forward' });
    t.match(JSON.parse(lines(listen)[2]), { status_code: 500, ok: false, error: String });
    await w.invite();
    await waitFor(() => lines(listen).length === 4, { what: 'the next forward' });
    t.match(JSON.parse(lines(listen)[3]), { status_code: 200, ok: true });
    t.equal(receiver.received.length, 3, 'one POST per event');
    t.not(
      receiver.received[1].headers['x-service-delivery'],
      receiver.received[2].headers['x-service-delivery'],
      'a fresh delivery id each',
    );
    await interrupt(t, listen, 'listen');

    // Plain output, and a receiver that is not there.
    const closed = receiver.url;
    await receiver.close();
    const plain = w.spawn('listen', '--org', 'acme', '--forward-to', closed);
    await waitFor(() => lines(plain).length === 2, { what: 'the plain header' });
    t.match(lines(plain)[0], /^Signing secret: whsec_[A-Za-z0-9+/]{43}=$/);
    t.match(lines(plain)[1], `Forwarding events of acme to ${closed}`);
    await w.invite();
    await waitFor(() => lines(plain).length === 3, { what: 'the failed forward line' });
    t.match(lines(plain)[2], /^\S+Z {2}invitation\.created {2}evt_\S+ {2}-> failed: ECONNREFUSED$/, 'the failure, one line');
    await interrupt(t, plain, 'listen (plain)');

    const usage = await w.sy('listen', '--org', 'acme', '--forward-to', 'not a url');
    t.equal(usage.code, 2, 'a bad URL is a usage error');
    // --events: the old spelling of --kind, still accepted and checked.
    const kinds = await w.sy('listen', '--org', 'acme', '--forward-to', closed, '--events', 'invitation.created,nope');
    t.equal(kinds.code, 2, 'so is an unknown kind');
    t.match(kinds.stderr, /unknown nope/);
    const secret = await w.sy('listen', '--org', 'acme', '--forward-to', closed, '--secret', 'whsec_short');
    t.equal(secret.code, 2, 'so is a malformed --secret');
    t.match(secret.stderr, /base64 of 32 bytes/);
  },
);

t.test('listen --secret: a receiver keeps its secret across runs (either format)', async (t) => {
  const w = await world(t);
  const receiver = await WebhookReceiver.start(t);
  const kept = `whsec_${randomBytes(32).toString('base64')}`;
  const hex = randomBytes(32);
  for (const [n, secret, standard] of [
    [1, kept, kept],
    [2, `whsec_${hex.toString('hex')}`, `whsec_${hex.toString('base64')}`],
  ] as const) {
    const listen = w.spawn('listen', '--org', 'acme', '--forward-to', receiver.url, '--secret', secret, '--json');
    await waitFor(() => lines(listen).length === 1, { what: 'the signing secret' });
    t.same(JSON.parse(lines(listen)[0]), { secret, standard_secret: standard, forward_to: receiver.url }, 'the one given');
    await w.invite();
    await waitFor(() => receiver.received.length === n, { what: 'the forwarded event' });
    const got = receiver.received[n - 1];
    t.ok(await verifyGithub(secret, got.body, String(got.headers['x-service-signature'])), 'X-Service-Signature with it');
    t.ok(new StandardWebhook(standard).verify(got.body, got.headers as Record<string, string>), 'webhook-signature with it');
    await interrupt(t, listen, `listen ${n}`);
  }
});

t.test('completion knows the webhook verbs, their --reset fields and the event kinds', async (t) => {
  const scriptFile = path.join(t.testdir(), 'switchyard.bash');
  writeFileSync(scriptFile, bashCompletion(buildProgram(await loadCommands())));
  const complete = async (...words: string[]) => {
    const script = `source "${scriptFile}"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _switchyard; echo "\${COMPREPLY[*]}"`;
    const { stdout } = await runOwned(t, 'bash', ['-c', script]);
    return stdout.trim().split(/\s+/).sort();
  };
  const verbs = [
    'create',
    'list',
    'show',
    'update',
    'pause',
    'resume',
    'delete',
    'deliveries',
    'retry',
    'recover',
    'rotate-secret',
    'test',
  ];
  t.same(
    await complete('switchyard', 'webhook', ''),
    [...verbs, '--help', '--addr', '--json', '--no-color', '--socket', '--tls-ca', '--token'].sort(),
  );
  t.same(await complete('switchyard', 'webhook', 'update', 'some-id', '--reset', ''), [
    'description',
    'event_filter',
    'resource_filter',
    'state',
  ]);
  t.same(await complete('switchyard', 'events', 'tail', '--kind', 'invitation.'), [
    'invitation.accepted',
    'invitation.created',
    'invitation.revoked',
  ]);
  t.same(await complete('switchyard', 'webhook', 'create', '--kind', 'invitation.r'), ['invitation.revoked']);
  t.ok((await complete('switchyard', 'l')).includes('listen'), 'listen is a command');
});
