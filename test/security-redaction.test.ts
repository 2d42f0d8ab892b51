import { randomUUID } from 'node:crypto';
import t from 'tap';
import { operator } from '../src/domain/identity/caller.js';
import { redactUrl, scrubErrorText } from '../src/redact.js';
import { fakeProvider, providerEnv } from './fakes/email-provider.js';
import { asPrincipal, createOrganizationAs, dumpStorage, request, startTestDaemonWithLogs, waitFor } from './helpers.js';

// Secrets never reach logs or stored error text (issue "Security hardening", item 9).

t.test('request log URLs: credential values are masked by their decoded names', async (t) => {
  const cases: [string, string][] = [
    ['/v1/invitations/x/accept?token=abc', '/v1/invitations/x/accept?token=[redacted]'],
    ['/v1/invitations/x/accept?%74oken=abc', '/v1/invitations/x/accept?token=[redacted]'],
    ['/a?TOKEN=abc&page=2', '/a?TOKEN=[redacted]&page=2'],
    [
      '/a?api_key=1&access_token=2&key=3&secret=4&signature=5&expires=6',
      '/a?api_key=[redacted]&access_token=[redacted]&key=[redacted]&secret=[redacted]&signature=[redacted]&expires=6',
    ],
    ['/a?%zz=1&token=abc', '/a?%25zz=1&token=[redacted]'],
    ['/plain/path', '/plain/path'],
  ];
  for (const [url, logged] of cases) t.equal(redactUrl(url), logged, url);
  for (const url of [
    '/a?%74oken=s3cret',
    '/a?token=s3cret&token=s3cret',
    '/a?to%6Ben=s3cret',
    '/a?token[]=s3cret',
    '/a?token%5B%5D=s3cret',
    '/a?x=1;token=s3cret',
    '/a?x=1%3Btoken=s3cret&page=2',
    '/a?user[token]=s3cret',
    '/a?TOKEN%20=s3cret',
  ])
    t.notMatch(redactUrl(url), /s3cret/, `${url}: no secret left`);
});

t.test('the access log masks an accept token however its name is spelled', async (t) => {
  const { daemon: d, logs } = await startTestDaemonWithLogs(t);
  const token = 'Zq'.repeat(21) + 'x';
  const secret = 'plain-s3cret-value';
  for (const query of [
    `token[]=${token}`,
    `x=1;token=${token}`,
    `token%5B%5D=${secret}`,
    `x=1;token=${secret}`,
    `a[token]=${secret}`,
  ]) {
    const res = await fetch(`${d.url}/v1/invitations/${randomUUID()}/accept?${query}`);
    await res.arrayBuffer();
  }
  await waitFor(() => (logs().match(/accept\?/g) ?? []).length >= 5, { what: 'five access lines' });
  t.notOk(logs().includes(token), 'the token is in no log line');
  t.notOk(logs().includes(secret), 'nor any credential value');
  t.match(logs(), /token%5B%5D=\[redacted\]/, 'the line is still there, masked');
});

t.test('outside error text: credentials scrubbed, length bounded', async (t) => {
  const token = 'A'.repeat(21) + 'b_-'.repeat(7) + 'x';
  t.equal(token.length, 43);
  const quoted = [
    `invalid html near <a href="https://x/v1/invitations/1/accept?token=${token}">`,
    'Authorization: Bearer svc_AbCdEfGh_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG was refused',
    '{"api_key": "re_live_1234567890abcdef", "password": "hunter2"}',
    'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
    `bare ${token} token`,
  ];
  for (const text of quoted) {
    const scrubbed = scrubErrorText(text);
    for (const secret of [token, 'svc_AbCdEfGh', 're_live_1234567890abcdef', 'hunter2', 'eyJzdWIiOiIxIn0'])
      t.notOk(scrubbed.includes(secret), `${text.slice(0, 30)}: ${secret.slice(0, 12)} removed`);
    t.match(scrubbed, /\[redacted\]/);
  }
  t.ok(scrubErrorText('x'.repeat(5000)).length <= 501, 'bounded');
});

t.test('a provider error that quotes the request leaves the token in no log, record or outbox view', async (t) => {
  const fake = await fakeProvider(t);
  fake.setDefault({ kind: 'echo', status: 422 });
  const { daemon: d, logs } = await startTestDaemonWithLogs(t, providerEnv(fake, { SERVICE_OUTBOX_RETRY_DELAYS_MS: '20,20,20' }));
  const owner = randomUUID();
  const org = await createOrganizationAs(d.url, asPrincipal(owner), 'quoted');
  const inv = await request(d.url, 'POST', '/v1/invitations', {
    headers: asPrincipal(owner),
    body: { organization_id: org.id, email: 'quoted@example.com', role: 'viewer' },
  });
  t.equal(inv.status, 201);
  await waitFor(() => fake.requests.length >= 1, { timeoutMs: 30_000, what: 'a send attempt' });
  const sent = JSON.stringify(fake.requests[0].body);
  const token = /token=([A-Za-z0-9_-]{43})/.exec(sent)?.[1];
  t.ok(token, 'the mail carried a token');
  const entryId = inv.body.data.outbox_entry_id as string;
  await waitFor(async () => (await d.services.outbox.getOutboxEntry(operator, entryId)).attempts.length >= 1, {
    timeoutMs: 30_000,
    what: 'the attempt recorded',
  });
  const entry = await d.services.outbox.getOutboxEntry(operator, entryId);
  t.match(entry.attempts[0].error, /provider answered 422/, 'the error is kept');
  t.match(entry.attempts[0].error, /\[redacted\]/, 'with the token masked');
  t.notOk(JSON.stringify(entry.attempts).includes(token!), 'not in the attempts shown by outbox show');
  t.notOk((await dumpStorage(d)).includes(token!), 'not stored');
  t.notOk(logs().includes(token!), 'not logged');
});
