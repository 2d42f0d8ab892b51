// Logs as an operator reads them: one line per request with its id, method, URL and status, and no
// credential anywhere, even at debug level and even when the credential is refused.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import t from 'tap';
import { asPrincipal, bearer, createOrganizationAs, request, startTestDaemonWithLogs } from './helpers.js';

const JWT_SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

t.test('credentials never reach the log; each request is one line with its id and status', async (t) => {
  const { daemon, logs } = await startTestDaemonWithLogs(t, { JWT_SECRET });
  const owner = randomUUID();
  const org = await createOrganizationAs(daemon.url, asPrincipal(owner), 'logged');

  const created = await request(daemon.url, 'POST', '/v1/api-keys', {
    headers: asPrincipal(owner),
    body: { name: 'k', organization_id: org.id },
  });
  t.equal(created.status, 201);
  const rawKey = created.body.data.raw_key as string;
  const wrongKey = `${rawKey.slice(0, 14)}${'x'.repeat(rawKey.length - 14)}`;
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(owner)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));

  t.equal(
    (
      await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, {
        headers: { ...bearer(rawKey), 'x-request-id': 'req-with-key' },
      })
    ).status,
    200,
  );
  t.equal((await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(wrongKey) })).status, 401);
  t.equal((await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(jwt) })).status, 200);
  t.equal((await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(`${jwt}tampered`) })).status, 401);

  const text = logs();
  for (const [what, secret] of [
    ['the raw API key', rawKey],
    ['its secret part', rawKey.slice(14)],
    ['a refused API key', wrongKey],
    ['the JWT', jwt],
    ['the JWT signature', jwt.split('.')[2]],
    ['the JWT secret', JWT_SECRET],
  ] as const) {
    t.notOk(text.includes(secret), `${what} is not logged`);
  }

  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const keyed = lines.filter((l) => l.msg === 'request' && l.request_id === 'req-with-key');
  t.equal(keyed.length, 1, 'one request line, under the id the client sent');
  t.match(keyed[0], { method: 'GET', url: `/v1/organizations/${org.id}`, status: 200, ms: Number });
  t.ok(
    lines.some((l) => l.msg === 'request' && l.status === 401),
    'refused requests are logged too',
  );
});
