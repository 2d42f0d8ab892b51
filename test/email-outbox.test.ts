// Spec 3.2 and 8, contract 2: the email outbox sends invitation mail through the provider's HTTP API
// or SMTP, retries on the configured schedule, holds mail in development without a transport, and
// re-sends (never loses) a mail whose daemon died mid-send.

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import { headerText, formatMailbox } from '../src/domain/email/address.js';
import { renderInvitationMail } from '../src/domain/email/render.js';
import type { OutboxEntryView } from '../src/domain/email/types.js';
import { operator } from '../src/domain/identity/caller.js';
import { createLogger } from '../src/log.js';
import type { Daemon } from '../src/main.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { fakeProvider, providerEnv } from './fakes/email-provider.js';
import {
  asPrincipal,
  createOrganizationAs,
  dumpStorage,
  request,
  spawnDaemon,
  startTestDaemon,
  startTestDaemonWithLogs,
  waitFor,
} from './helpers.js';

interface Setup {
  orgId: string;
  owner: string;
  invite: (email: string, role?: string) => Promise<any>;
  entry: (id: string) => Promise<OutboxEntryView>;
}

async function setup(d: Daemon, settings: Record<string, unknown> = {}): Promise<Setup> {
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), `mail-${randomUUID().slice(0, 8)}`);
  if (Object.keys(settings).length > 0) {
    const res = await request(d.url, 'PUT', `/v1/organizations/${org.id}/settings`, {
      headers: asPrincipal(owner),
      body: settings,
    });
    if (res.status !== 200) throw new Error(`settings: ${JSON.stringify(res.body)}`);
  }
  const invite = async (email: string, role = 'member') => {
    const res = await request(d.url, 'POST', '/v1/invitations', {
      headers: asPrincipal(owner),
      body: { organization_id: org.id, email, role },
    });
    if (res.status !== 201) throw new Error(`invite: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { orgId: org.id, owner, invite, entry: (id) => d.services.outbox.getOutboxEntry(operator, id) };
}

async function settled(s: Setup, id: string, status: string): Promise<OutboxEntryView> {
  await waitFor(async () => (await s.entry(id)).status === status, { what: `outbox entry ${status}` });
  return s.entry(id);
}

t.test('HTTP provider: one POST /emails with the Bearer key, Idempotency-Key, from name, link and escaping', async (t) => {
  const fake = await fakeProvider(t);
  // A poll period far longer than the test: the mail goes out because the commit wakes the poller.
  const d = await startTestDaemon(
    t,
    providerEnv(fake, { SERVICE_OUTBOX_POLL_MS: '600000', SERVICE_PUBLIC_URL: 'https://invites.example.test/sy' }),
  );
  const s = await setup(d, {
    display_name: '<script>alert(1)</script> & Co',
    email_from_name: 'Acme "Team"',
    logo_url: 'https://cdn.example.test/logo.png?a=1&b=2',
  });
  const inv = await s.invite('Reader@Example.com', 'admin');
  await waitFor(() => fake.sent.length === 1, { what: 'the provider to receive the mail' });
  const entry = await settled(s, inv.outbox_entry_id, 'sent');

  const req = fake.requests[0];
  t.equal(req.headers.authorization, `Bearer ${fake.apiKey}`);
  t.equal(req.idempotencyKey, inv.outbox_entry_id, 'the outbox entry id is the Idempotency-Key');
  t.same(Object.keys(req.body as object).sort(), ['from', 'html', 'subject', 'text', 'to']);
  const mail = fake.sent[0];
  t.equal(mail.from, '"Acme \\"Team\\"" <no-reply@switchyard.localhost>', 'email_from_name as the From display name, quoted');
  t.same(mail.to, ['reader@example.com']);
  t.equal(mail.subject, "You're invited to join <script>alert(1)</script> & Co", 'a header is text, not HTML');
  t.notOk(mail.html.includes('<script>'), 'no live script tag in the HTML');
  t.ok(mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co'), 'the display name arrives as text');
  t.ok(mail.html.includes('<img src="https://cdn.example.test/logo.png?a=1&amp;b=2"'), 'the logo');
  t.match(mail.html, /as an <strong>admin<\/strong>/, 'the invited role');
  t.match(mail.html, />Accept Invitation<\/a>/, 'the button');
  t.match(mail.html, /expires in 7 days/);
  t.match(mail.text, /expires in 7 days/);
  t.match(mail.text, /<script>alert\(1\)<\/script> & Co as an admin/, 'the text part carries the name as typed');

  const link = /https:\/\/invites\.example\.test\/sy\/v1\/invitations\/[0-9a-f-]+\/accept\?token=[A-Za-z0-9_-]{43}/.exec(
    mail.text,
  )?.[0];
  t.ok(link, 'the link is built on SERVICE_PUBLIC_URL');
  t.ok(mail.html.includes(`href="${link}"`), 'the button links to it');
  t.equal(entry.provider_message_id, mail.id, 'the provider message id is stored');
  t.equal(entry.attempts.length, 1);
  t.equal(entry.attempts[0].status_code, 200);
  t.equal(entry.attempts[0].error, null);
  t.equal(entry.from, '"Acme \\"Team\\"" <no-reply@switchyard.localhost>');
  t.equal(entry.accept_url, null, 'the link is shown only for held mail');

  const token = new URL(link!).searchParams.get('token')!;
  t.notOk((await dumpStorage(d)).includes(token), 'the raw token is not stored, in clear, anywhere');
  const accepted = await request(d.url, 'GET', `/v1/invitations/${inv.id}/accept?token=${token}`);
  t.equal(accepted.status, 200, 'the mailed link accepts the invitation');
});

t.test('HTTP provider: a 500 then success', async (t) => {
  const fake = await fakeProvider(t);
  fake.enqueue({ kind: 'status', status: 500 });
  const d = await startTestDaemon(t, providerEnv(fake, { SERVICE_OUTBOX_RETRY_DELAYS_MS: '100,200,300' }));
  const s = await setup(d);
  const inv = await s.invite('retry@example.com');
  const entry = await settled(s, inv.outbox_entry_id, 'sent');
  t.equal(entry.attempts.length, 2);
  t.equal(entry.attempts[0].status_code, 500);
  t.match(entry.attempts[0].error, /provider answered 500: fake failure 500/);
  t.equal(entry.attempts[1].error, null);
  t.ok(Date.parse(entry.attempts[1].at) - Date.parse(entry.attempts[0].at) >= 100, 'the retry waited its delay');
  t.equal(fake.sent.length, 1);
  t.same(
    fake.requests.map((r) => r.idempotencyKey),
    [inv.outbox_entry_id, inv.outbox_entry_id],
    'the retry carries the same Idempotency-Key',
  );
});

t.test('HTTP provider: a hung request times out and is retried', async (t) => {
  const fake = await fakeProvider(t);
  fake.enqueue({ kind: 'hang' });
  // The send timeout derives from the shortest retry delay, at least 1 s (docs/invitations.md).
  const d = await startTestDaemon(t, providerEnv(fake, { SERVICE_OUTBOX_RETRY_DELAYS_MS: '100,200,300' }));
  const s = await setup(d);
  const inv = await s.invite('slow@example.com');
  const entry = await settled(s, inv.outbox_entry_id, 'sent');
  t.equal(entry.attempts.length, 2);
  t.match(entry.attempts[0].error, /timed out after 1000 ms/, 'the timeout ended the attempt');
  t.equal(entry.attempts[0].status_code, null);
  t.ok(entry.attempts[0].duration_ms >= 950, `the attempt waited out the timeout (${entry.attempts[0].duration_ms} ms)`);
  t.equal(fake.sent.length, 1);
});

t.test('HTTP provider: 429 with Retry-After waits at least that long', async (t) => {
  const fake = await fakeProvider(t);
  fake.enqueue({ kind: 'status', status: 429, retryAfter: '1' });
  const d = await startTestDaemon(t, providerEnv(fake, { SERVICE_OUTBOX_RETRY_DELAYS_MS: '100,200,300' }));
  const s = await setup(d);
  const inv = await s.invite('busy@example.com');
  const entry = await settled(s, inv.outbox_entry_id, 'sent');
  t.equal(entry.attempts[0].status_code, 429);
  t.match(entry.attempts[0].error, /429/);
  const gap = Date.parse(entry.attempts[1].at) - Date.parse(entry.attempts[0].at);
  t.ok(gap >= 1000, `Retry-After (1 s) outweighs the 100 ms delay (waited ${gap} ms)`);
});

t.test('the retry schedule: one send, retries after 1:5:30, then failed with the last error; a manual retry sends', async (t) => {
  const fake = await fakeProvider(t);
  fake.setDefault({ kind: 'status', status: 500 });
  fake.enqueue(
    { kind: 'status', status: 500 },
    { kind: 'status', status: 502 },
    { kind: 'status', status: 500 },
    { kind: 'status', status: 503, message: 'the last straw' },
  );
  const delays = [100, 500, 3000];
  const { daemon: d, logs } = await startTestDaemonWithLogs(
    t,
    providerEnv(fake, { SERVICE_OUTBOX_RETRY_DELAYS_MS: delays.join(','), SERVICE_OUTBOX_POLL_MS: '10000' }),
  );
  const s = await setup(d);
  const inv = await s.invite('never@example.com');
  const entry = await settled(s, inv.outbox_entry_id, 'failed');
  t.equal(entry.attempts.length, 4, 'one send and three retries');
  t.same(
    entry.attempts.map((a) => a.status_code),
    [500, 502, 500, 503],
  );
  t.equal(entry.last_error, 'provider answered 503: the last straw', 'failed with the last error');
  t.equal(entry.next_attempt_at, null);
  // A failed attempt's next_attempt_at is its delay after the moment the failure was recorded, and that
  // moment lies between the attempt's end and its log line: the delay is pinned down exactly, with no
  // allowance for how late the machine ran (1 : 5 : 30).
  // The failure's log line follows the commit that recorded it, so the last one may still be on its way.
  const failureLines = () =>
    logs()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { msg: string; time: string; outbox_id?: string; next_attempt_at?: string | null })
      .filter((line) => line.msg === 'mail send failed' && line.outbox_id === inv.outbox_entry_id);
  await waitFor(() => failureLines().length >= 4, { what: 'the fourth failure to be logged' });
  const failures = failureLines();
  t.equal(failures.length, 4, 'each failed attempt is logged');
  delays.forEach((delay, i) => {
    const attemptEnd = Date.parse(entry.attempts[i].at) + entry.attempts[i].duration_ms;
    const next = Date.parse(failures[i].next_attempt_at ?? '');
    const loggedAt = Date.parse(failures[i].time);
    t.ok(
      next - attemptEnd >= delay && next - loggedAt <= delay,
      `retry ${i + 1} was due ${delay} ms after failure ${i + 1} (failed by ${attemptEnd}, logged at ${loggedAt}, due ${next})`,
    );
    t.ok(Date.parse(entry.attempts[i + 1].at) >= next, `retry ${i + 1} waited until it was due`);
  });
  t.equal(failures[3].next_attempt_at, null, 'no retry after the last delay');
  t.equal(fake.sent.length, 0);

  fake.setDefault({ kind: 'ok' });
  const retried = await d.services.outbox.retryOutboxEntry(operator, inv.outbox_entry_id);
  t.equal(retried.status, 'pending');
  const sent = await settled(s, inv.outbox_entry_id, 'sent');
  t.equal(sent.attempts.length, 5, 'the history is kept');
  t.equal(fake.sent.length, 1);
  await t.rejects(
    d.services.outbox.retryOutboxEntry(operator, inv.outbox_entry_id),
    { code: 'invalid_state' },
    'sent mail cannot be retried',
  );
  const listed = await d.services.outbox.listOutbox(operator, { status: 'sent' });
  t.same(
    listed.items.map((e) => e.id),
    [inv.outbox_entry_id],
    'the operator lists by status',
  );
});

t.test('SMTP: a real SMTP server receives From (email_from_name), To, Subject, HTML and text parts', async (t) => {
  const received: { envelope: { from: string; to: string[] }; mail: ParsedMail }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            envelope: {
              from: (session.envelope.mailFrom as { address: string }).address,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            mail,
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.server.address() as AddressInfo).port;

  const d = await startTestDaemon(t, {
    SERVICE_SMTP_URL: `smtp://127.0.0.1:${port}`,
    SERVICE_OUTBOX_POLL_MS: '50',
    SERVICE_EMAIL_FROM: 'Invites <invites@mail.example.test>',
  });
  const s = await setup(d, {
    display_name: '<script>alert(1)</script>',
    email_from_name: 'Acme Team',
    logo_url: 'https://cdn.example.test/logo.png',
  });
  const inv = await s.invite('smtp.user@example.com', 'viewer');
  const entry = await settled(s, inv.outbox_entry_id, 'sent');
  t.equal(received.length, 1);
  const { envelope, mail } = received[0];
  t.equal(envelope.from, 'invites@mail.example.test');
  t.same(envelope.to, ['smtp.user@example.com']);
  t.same(
    mail.from?.value,
    [{ address: 'invites@mail.example.test', name: 'Acme Team' }],
    'email_from_name is the From display name',
  );
  t.same(
    (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value.map((a) => a.address),
    ['smtp.user@example.com'],
  );
  t.equal(mail.subject, "You're invited to join <script>alert(1)</script>");
  t.equal(mail.messageId, `<${inv.outbox_entry_id}@mail.example.test>`, 'a stable Message-ID per outbox entry');
  t.equal(entry.provider_message_id, `<${inv.outbox_entry_id}@mail.example.test>`);
  const html = String(mail.html);
  t.notOk(html.includes('<script>'), 'the HTML part has no script tag');
  t.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the display name is escaped');
  t.ok(html.includes('<img src="https://cdn.example.test/logo.png"'));
  t.match(html, /as a <strong>viewer<\/strong>/);
  t.match(html, /Accept Invitation/);
  t.match(mail.text ?? '', /expires in 7 days/);
  t.match(
    mail.text ?? '',
    new RegExp(`${d.url.replace(/[.:/]/g, '\\$&')}/v1/invitations/${inv.id}/accept\\?token=[A-Za-z0-9_-]{43}`),
    'the link defaults to the bound HTTP URL',
  );
  // Name without email_from_name: the SERVICE_EMAIL_FROM display name.
  const plain = await setup(d);
  const second = await plain.invite('other@example.com');
  await settled(plain, second.outbox_entry_id, 'sent');
  t.same(received[1].mail.from?.value, [{ address: 'invites@mail.example.test', name: 'Invites' }]);
});

t.test('headers cannot be injected, whatever reaches the renderer', async (t) => {
  const rendered = renderInvitationMail(
    {
      invitation_id: randomUUID(),
      organization_display_name: 'Evil\r\nBcc: victim@example.com',
      logo_url: null,
      from_name: null,
      role: 'member',
      expires_at: new Date().toISOString(),
      ttl_ms: 3_600_000,
    },
    'http://127.0.0.1/x',
  );
  t.notMatch(rendered.subject, /[\r\n]/);
  t.match(rendered.text, /expires in 1 hour/, 'the notice follows the configured lifetime');
  t.notMatch(formatMailbox({ name: 'A\r\nB: c', address: 'a@example.test' }), /[\r\n]/);
  t.equal(headerText('x\u2028y\u0000z'), 'x y z');
});

t.test('development without a transport: mail is held with its accept link, never sent', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_OUTBOX_POLL_MS: '20' });
  const s = await setup(d);
  const inv = await s.invite('local@example.com');
  const entry = await s.entry(inv.outbox_entry_id);
  t.equal(entry.status, 'held');
  t.equal(entry.attempts.length, 0);
  t.equal(entry.next_attempt_at, null);
  t.match(entry.accept_url, new RegExp(`^${d.url}/v1/invitations/${inv.id}/accept\\?token=[A-Za-z0-9_-]{43}$`));
  await waitFor(() => d.loops.status().find((l) => l.name === 'email-outbox')!.runs >= 3, { what: 'a few polls' });
  t.equal((await s.entry(inv.outbox_entry_id)).status, 'held', 'polls leave it held');
  await t.rejects(
    d.services.outbox.retryOutboxEntry(operator, inv.outbox_entry_id),
    { code: 'invalid_state' },
    'no transport to retry with',
  );
  const listed = await d.services.outbox.listOutbox(operator, { organization_id: s.orgId });
  t.same(
    listed.items.map((e) => e.id),
    [inv.outbox_entry_id],
  );
  const res = await fetch(entry.accept_url!);
  t.equal(res.status, 200, 'a developer accepts by opening the link');
  // An admin may list the organization's mail; a stranger may not.
  await t.rejects(d.services.outbox.listOutbox({ principalId: randomUUID(), method: 'dev' }, { organization_id: s.orgId }), {
    code: 'not_found',
  });
  const mine = await d.services.outbox.listOutbox({ principalId: s.owner, method: 'dev' }, { organization_id: s.orgId });
  t.equal(mine.items.length, 1);
});

t.test('crash mid-send: a killed daemon leaves a claimed mail that the next start sends', async (t) => {
  const fake = await fakeProvider(t);
  fake.setDefault({ kind: 'hang' });
  const dataDir = t.testdir();
  const env = { ...providerEnv(fake), SERVICE_DATA_DIR: dataDir };
  const first = await spawnDaemon(t, [], env);
  const owner = randomUUID();
  const org = await createOrganizationAs(first.url, asPrincipal(owner), 'crashy');
  const created = await request(first.url, 'POST', '/v1/invitations', {
    headers: asPrincipal(owner),
    body: { organization_id: org.id, email: 'crash@example.com', role: 'member' },
  });
  t.equal(created.status, 201);
  const entryId: string = created.body.data.outbox_entry_id;
  await waitFor(() => fake.requests.length === 1, { what: 'the provider to receive the first send' });
  first.child.kill('SIGKILL');
  t.equal(await first.exited, null, 'killed by the signal');
  t.equal(fake.sent.length, 0, 'nothing was delivered');

  fake.setDefault({ kind: 'ok' });
  const second = await spawnDaemon(t, [], env);
  await waitFor(() => fake.sent.length === 1, { what: 'the restarted daemon to send' });
  t.same(
    fake.requests.map((r) => r.idempotencyKey),
    [entryId, entryId],
    'the re-send carries the same Idempotency-Key, so the provider can drop a duplicate',
  );
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0, 'clean shutdown');

  const storage = await LevelStorage.open(dataDir, createLogger('silent'));
  t.teardown(() => storage.close());
  const stored = (await storage.sublevel('email_outbox').get(entryId)) as {
    status: string;
    attempts: { error: string | null; interrupted?: boolean }[];
    token_sealed: string | null;
  };
  t.equal(stored.status, 'sent');
  t.equal(stored.attempts.length, 2);
  t.equal(stored.attempts[0].interrupted, true, 'the interrupted attempt is on record');
  t.match(stored.attempts[0].error, /interrupted/);
  t.equal(stored.attempts[1].error, null);
  t.equal(stored.token_sealed, null, 'the sealed token is wiped once sent');
});
