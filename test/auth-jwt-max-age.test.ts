import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import t, { type Test } from 'tap';
import { JWT_IAT_LEEWAY_S } from '../src/domain/identity/authenticate.js';
import { bearer, request, startTestDaemon, type JsonResponse } from './helpers.js';

// Security issue, item 11 (second half): SERVICE_JWT_MAX_AGE_S bounds a JWT's age. A long-lived
// token (far `exp`) stolen once stops working after the bound; `iat` becomes required, and an `iat`
// in the future (a token minted to outlive the bound) is refused beyond a small leeway.

const SECRET = randomBytes(32).toString('base64url');
const key = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** Signs exactly `claims` (no iat unless given). */
function sign(claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

function refused(t: Test, res: JsonResponse, message: RegExp, what: string): void {
  t.equal(res.status, 401, `${what}: 401`);
  t.equal(res.headers.get('www-authenticate'), 'Bearer');
  t.match(res.body.error, { code: 'unauthenticated', message }, what);
}

t.test('SERVICE_JWT_MAX_AGE_S bounds the age of a JWT', async (t) => {
  const d = await startTestDaemon(t, { JWT_SECRET: SECRET, SERVICE_JWT_MAX_AGE_S: '300' });
  const sub = randomUUID();
  const list = async (claims: JWTPayload) => request(d.url, 'GET', '/v1/organizations', { headers: bearer(await sign(claims)) });
  const farExp = now() + 30 * 86_400;

  t.equal((await list({ sub, exp: farExp, iat: now() })).status, 200, 'a fresh token works');
  t.equal((await list({ sub, exp: farExp, iat: now() - 250 })).status, 200, 'one within the bound works');
  refused(t, await list({ sub, exp: farExp, iat: now() - 301 - 5 }), /JWT too old/, 'older than the bound, though exp is far');
  refused(t, await list({ sub, exp: farExp }), /no iat claim/, 'no iat');
  refused(t, await list({ sub, exp: farExp, iat: now() + JWT_IAT_LEEWAY_S + 60 }), /iat is in the future/, 'iat in the future');
  t.equal((await list({ sub, exp: farExp, iat: now() + 5 })).status, 200, 'a few seconds of clock skew are tolerated');
  refused(t, await list({ sub, exp: now() - 10, iat: now() - 20 }), /JWT expired/, 'exp still applies');
  refused(t, await list({ sub, exp: farExp, iat: 'yesterday' as unknown as number }), /invalid JWT/, 'a non-numeric iat');
});

t.test('without SERVICE_JWT_MAX_AGE_S, iat is optional and age is not bounded', async (t) => {
  const d = await startTestDaemon(t, { JWT_SECRET: SECRET });
  const sub = randomUUID();
  const list = async (claims: JWTPayload) => request(d.url, 'GET', '/v1/organizations', { headers: bearer(await sign(claims)) });
  t.equal((await list({ sub, exp: now() + 60 })).status, 200, 'no iat');
  t.equal((await list({ sub, exp: now() + 60, iat: now() - 30 * 86_400 })).status, 200, 'an old iat');
});
