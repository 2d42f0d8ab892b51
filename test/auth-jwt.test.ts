import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import t, { type Test } from 'tap';
import { asPrincipal, bearer, request, startTestDaemon, type JsonResponse } from './helpers.js';

const SECRET = randomBytes(32).toString('base64url'); // 43 characters
const ISSUER = 'https://idp.example';
const AUDIENCE = 'switchyard';
const secretKey = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** A JWT signed with jose. `claims` may carry exp/nbf/iss/aud/sub; nothing is added beyond iat. */
async function signed(claims: JWTPayload, alg = 'HS256', key: Parameters<SignJWT['sign']>[0] = secretKey): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).setIssuedAt().sign(key);
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT assembled by hand: header.payload.signature, the signature computed by `sign` over the first two. */
function handMade(header: object, payload: object, sign: (input: string) => string): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${sign(input)}`;
}
const hmacSha256 = (secret: string) => (input: string) => createHmac('sha256', secret).update(input).digest('base64url');

function isUnauthenticated(t: Test, res: JsonResponse, what: string): void {
  t.equal(res.status, 401, `${what}: 401`);
  t.equal(res.headers.get('www-authenticate'), 'Bearer', `${what}: WWW-Authenticate: Bearer`);
  t.equal(res.body?.error?.code, 'unauthenticated', `${what}: unauthenticated`);
}

t.test('HS256 JWTs (JWT_SECRET set)', async (t) => {
  const d = await startTestDaemon(t, { JWT_SECRET: SECRET });
  const list = (headers: Record<string, string>) => request(d.url, 'GET', '/v1/organizations', { headers });
  const sub = randomUUID();
  const valid = () => ({ sub, exp: now() + 300 });

  t.test('a valid token acts as its subject', async (t) => {
    const token = await signed(valid());
    const created = await request(d.url, 'POST', '/v1/organizations', { headers: bearer(token), body: { slug: 'jwt-org' } });
    t.equal(created.status, 201);
    const members = await request(d.url, 'GET', `/v1/organizations/${created.body.data.id}/members`, { headers: bearer(token) });
    t.equal(members.status, 200);
    t.same(
      members.body.data.map((m: { principal_id: string; role: string }) => [m.principal_id, m.role]),
      [[sub, 'owner']],
    );
    const upper = await list(bearer(await signed({ sub: sub.toUpperCase(), exp: now() + 300 })));
    t.same(
      upper.body.data.map((o: { slug: string }) => o.slug),
      ['jwt-org'],
      'the subject is matched case-insensitively',
    );
    const withNbf = await list(bearer(await signed({ ...valid(), nbf: now() - 5 })));
    t.equal(withNbf.status, 200, 'an nbf in the past is fine');
  });

  t.test(
    'a token assembled by hand with the right secret works (so the forgeries below fail for their flaw alone)',
    async (t) => {
      const token = handMade({ alg: 'HS256', typ: 'JWT' }, valid(), hmacSha256(SECRET));
      t.equal((await list(bearer(token))).status, 200);
    },
  );

  t.test('each flawed token is 401', async (t) => {
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const publicPem = await exportSPKI(rsa.publicKey);
    const flawed: [string, string][] = [
      ['alg none, unsigned', `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(valid())}.`],
      ['alg none with a signature', handMade({ alg: 'none', typ: 'JWT' }, valid(), hmacSha256(SECRET))],
      ['HS512 with the right secret', await signed(valid(), 'HS512')],
      ['RS256 signed with a real RSA key', await signed(valid(), 'RS256', rsa.privateKey)],
      [
        'HS256 forged with the RSA public key PEM as the HMAC secret',
        handMade({ alg: 'HS256', typ: 'JWT' }, valid(), hmacSha256(publicPem)),
      ],
      [
        'header says RS256, HMAC-signed with the right secret',
        handMade({ alg: 'RS256', typ: 'JWT' }, valid(), hmacSha256(SECRET)),
      ],
      ['expired', await signed({ sub, exp: now() - 60 })],
      ['nbf in the future', await signed({ ...valid(), nbf: now() + 3600 })],
      ['wrong secret', await signed(valid(), 'HS256', new TextEncoder().encode(randomBytes(32).toString('hex')))],
      ['missing exp', await signed({ sub })],
      ['exp not a number', handMade({ alg: 'HS256', typ: 'JWT' }, { sub, exp: String(now() + 300) }, hmacSha256(SECRET))],
      ['missing sub', await signed({ exp: now() + 300 })],
      ['an empty sub', await signed({ sub: '', exp: now() + 300 })],
      ['a sub over 255 characters', await signed({ sub: 'a'.repeat(256), exp: now() + 300 })],
      ['a sub that is not a string', handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 42, exp: now() + 300 }, hmacSha256(SECRET))],
      [
        'payload altered after signing',
        (() => {
          const [h, , s] = handMade({ alg: 'HS256', typ: 'JWT' }, valid(), hmacSha256(SECRET)).split('.');
          return `${h}.${b64url({ sub: randomUUID(), exp: now() + 300 })}.${s}`;
        })(),
      ],
      ['malformed: not three parts', 'abc.def'],
      ['malformed: garbage parts', 'not.a.jwt'],
    ];
    for (const [what, token] of flawed) isUnauthenticated(t, await list(bearer(token)), what);
  });

  t.test('bad Authorization headers are 401', async (t) => {
    const token = await signed(valid());
    const headers: [string, string][] = [
      ['empty bearer', 'Bearer '],
      ['bare scheme', 'Bearer'],
      ['empty header', ''],
      ['Basic scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
      ['a valid token without a scheme', token],
      ['garbage scheme', `Token ${token}`],
      ['two credentials', `Bearer ${token} ${token}`],
    ];
    for (const [what, authorization] of headers) isUnauthenticated(t, await list({ authorization }), what);
  });

  t.test('a bad token is never downgraded to the development principal header', async (t) => {
    const res = await list({ ...bearer(await signed({ sub, exp: now() - 60 })), ...asPrincipal(randomUUID()) });
    isUnauthenticated(t, res, 'expired JWT with X-Principal-Id');
    t.equal(
      (await list({ ...bearer(await signed(valid())), ...asPrincipal(randomUUID()) })).status,
      200,
      'a good token wins over the header',
    );
  });

  t.test('anonymous is 401 with WWW-Authenticate: Bearer; public routes answer', async (t) => {
    isUnauthenticated(t, await list({}), 'no credentials');
    t.equal((await request(d.url, 'GET', '/healthz')).status, 200);
  });
});

t.test('issuer and audience are enforced when configured', async (t) => {
  const d = await startTestDaemon(t, { JWT_SECRET: SECRET, SERVICE_JWT_ISSUER: ISSUER, SERVICE_JWT_AUDIENCE: AUDIENCE });
  const list = async (claims: JWTPayload) =>
    request(d.url, 'GET', '/v1/organizations', {
      headers: bearer(await signed({ sub: randomUUID(), exp: now() + 300, ...claims })),
    });
  t.equal((await list({ iss: ISSUER, aud: AUDIENCE })).status, 200, 'matching iss and aud');
  t.equal((await list({ iss: ISSUER, aud: ['other', AUDIENCE] })).status, 200, 'aud as a list containing ours');
  isUnauthenticated(t, await list({ iss: 'https://evil.example', aud: AUDIENCE }), 'wrong issuer');
  isUnauthenticated(t, await list({ iss: ISSUER, aud: 'other' }), 'wrong audience');
  isUnauthenticated(t, await list({ aud: AUDIENCE }), 'missing issuer');
  isUnauthenticated(t, await list({ iss: ISSUER }), 'missing audience');
});

t.test('JWTs are refused when JWT_SECRET is unset', async (t) => {
  const d = await startTestDaemon(t);
  const res = await request(d.url, 'GET', '/v1/organizations', {
    headers: bearer(await signed({ sub: randomUUID(), exp: now() + 300 })),
  });
  isUnauthenticated(t, res, 'valid-looking JWT without JWT_SECRET');
  t.match(res.body.error.message, /JWT_SECRET/);
});
