import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import t from 'tap';
import { asPrincipal, bearer, request, startTestDaemon } from './helpers.js';

const SECRET = randomBytes(32).toString('hex');

t.test('production ignores the development principal header', async (t) => {
  const d = await startTestDaemon(t, {
    SERVICE_ENV: 'production',
    EMAIL_PROVIDER_API_KEY: 're_test',
    JWT_SECRET: SECRET,
    SERVICE_PUBLIC_URL: 'https://switchyard.example.com',
  });
  t.equal(d.config.env, 'production');
  const owner = randomUUID();

  t.test('X-Principal-Id alone is anonymous: 401 with WWW-Authenticate: Bearer', async (t) => {
    for (const [method, path, body] of [
      ['GET', '/v1/organizations', undefined],
      ['POST', '/v1/organizations', { slug: 'dev-header-org' }],
      [
        'POST',
        '/v1/permissions/check',
        { action: 'organization.read', resource_type: 'organization', resource_id: randomUUID() },
      ],
    ] as const) {
      const res = await request(d.url, method, path, { headers: asPrincipal(owner), body });
      t.equal(res.status, 401, `${method} ${path}`);
      t.equal(res.headers.get('www-authenticate'), 'Bearer');
      t.equal(res.body.error.code, 'unauthenticated');
    }
    // Even a malformed header is ignored rather than judged: it is simply not a credential here.
    t.equal((await request(d.url, 'GET', '/v1/organizations', { headers: asPrincipal('not-a-uuid') })).status, 401);
  });

  t.test('public routes still answer, with or without the header', async (t) => {
    for (const path of ['/healthz', '/readyz', '/openapi.json']) {
      t.equal((await request(d.url, 'GET', path)).status, 200, path);
      t.equal((await request(d.url, 'GET', path, { headers: asPrincipal(owner) })).status, 200, `${path} with X-Principal-Id`);
    }
  });

  t.test('real credentials work, and the header never changes who is acting', async (t) => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(owner)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    const created = await request(d.url, 'POST', '/v1/organizations', { headers: bearer(token), body: { slug: 'prod-org' } });
    t.equal(created.status, 201);
    const orgId = created.body.data.id;
    const key = await request(d.url, 'POST', '/v1/api-keys', {
      headers: bearer(token),
      body: { name: 'prod', organization_id: orgId },
    });
    t.equal(key.status, 201);
    t.equal(
      (await request(d.url, 'GET', `/v1/organizations/${orgId}`, { headers: bearer(key.body.data.raw_key) })).status,
      200,
      'API key',
    );

    // A stranger's JWT plus the owner's id in the header: the JWT's subject acts, and sees nothing.
    const stranger = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(randomUUID())
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    const res = await request(d.url, 'GET', `/v1/organizations/${orgId}`, {
      headers: { ...bearer(stranger), ...asPrincipal(owner) },
    });
    t.equal(res.status, 404);
  });
});

t.test('development honours the header (the contrast the production test relies on)', async (t) => {
  const d = await startTestDaemon(t);
  t.equal(d.config.env, 'development');
  t.equal((await request(d.url, 'GET', '/v1/organizations', { headers: asPrincipal(randomUUID()) })).status, 200);
  t.equal(
    (await request(d.url, 'GET', '/v1/organizations', { headers: asPrincipal('not-a-uuid') })).status,
    401,
    'a malformed id is refused, not ignored',
  );
  t.equal((await request(d.url, 'GET', '/v1/organizations')).status, 401, 'anonymous');
});
