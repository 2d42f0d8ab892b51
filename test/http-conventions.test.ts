import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import t, { type Test } from 'tap';
import { z } from 'zod';
import { AppError, type ErrorCode } from '../src/errors.js';
import { BODY_LIMIT_BYTES } from '../src/http/body.js';
import { defineRoute, pageQuery, Reply, type RouteDef } from '../src/http/route.js';
import { createHttpApp, listenHttp } from '../src/http/server.js';
import { createLogger } from '../src/log.js';
import { Loop } from '../src/loops/loop.js';
import { request, startTestDaemon, type JsonResponse } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The error envelope of CONTRACT.md section 3, with the given status and code. */
function assertError(t: Test, res: JsonResponse, status: number, code: string): void {
  t.equal(res.status, status, `status ${status}`);
  t.match(res.headers.get('content-type'), /^application\/json/, 'JSON');
  t.match(res.body, { meta: { status }, error: { code, message: String } }, `envelope with code ${code}`);
  t.notOk('data' in (res.body ?? {}), 'no data beside an error');
  t.match(res.headers.get('x-request-id'), /.+/, 'X-Request-Id');
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * A request written by hand with node:http, for what fetch hides: an exact content-length, a
 * chunked body, a body sent in pieces, header lines in a given case or repeated (`headers` as
 * raw lines, name then value).
 */
function rawRequest(
  base: string,
  options: { method: string; path: string; headers?: Record<string, string | number> | string[]; chunks: (string | Buffer)[] },
): Promise<RawResponse> {
  const url = new URL(options.path, base);
  // Given as raw lines, the headers get no Host from node: add it.
  const headers = Array.isArray(options.headers) ? ['Host', url.host, ...options.headers] : options.headers;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    // The server may answer (413) before the upload ends; a reset after the answer is not an error here.
    req.on('error', reject);
    for (const c of options.chunks) req.write(c);
    req.end();
  });
}

/** This process's random prefix (12 hex characters) and a base-36 counter. */
const GENERATED_REQUEST_ID = /^[0-9a-f]{12}-[0-9a-z]+$/;

t.test('against a real daemon', async (t) => {
  const d = await startTestDaemon(t);
  const principal = randomUUID();
  const asP = { 'x-principal-id': principal };

  const created = await request(d.url, 'POST', '/v1/organizations', { headers: asP, body: { slug: 'acme' } });
  t.test('success envelope: {meta: {status}, data}', async (t) => {
    t.equal(created.status, 201);
    t.same(created.body.meta, { status: 201 });
    t.match(created.body.data, { id: UUID, slug: 'acme' });
    t.match(created.headers.get('content-type'), /^application\/json/);
    t.match(created.headers.get('x-request-id'), GENERATED_REQUEST_ID, 'a generated request id');
  });
  const orgId: string = created.body.data.id;

  t.test('list envelope: meta.next_cursor, ?limit= and ?cursor=', async (t) => {
    const second = await request(d.url, 'POST', '/v1/organizations', { headers: asP, body: { slug: 'beta' } });
    t.equal(second.status, 201);
    const all = await request(d.url, 'GET', '/v1/organizations', { headers: asP });
    t.equal(all.status, 200);
    t.same(all.body.meta, { status: 200, next_cursor: null }, 'null at the end');
    t.equal(all.body.data.length, 2);

    const p1 = await request(d.url, 'GET', '/v1/organizations?limit=1', { headers: asP });
    t.equal(p1.body.data.length, 1);
    t.type(p1.body.meta.next_cursor, 'string');
    const p2 = await request(d.url, 'GET', `/v1/organizations?limit=1&cursor=${encodeURIComponent(p1.body.meta.next_cursor)}`, {
      headers: asP,
    });
    t.equal(p2.body.data.length, 1);
    t.equal(p2.body.meta.next_cursor, null);
    t.same(
      [p1.body.data[0].id, p2.body.data[0].id].sort(),
      all.body.data.map((o: { id: string }) => o.id).sort(),
      'two pages, every organization once',
    );
  });

  t.test('X-Request-Id: a valid one is echoed, a bad one replaced', async (t) => {
    const echoed = await request(d.url, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-42.a:b@c' } });
    t.equal(echoed.headers.get('x-request-id'), 'trace-42.a:b@c');
    const onError = await request(d.url, 'GET', '/v1/nothing-here', { headers: { 'x-request-id': 'req-7' } });
    t.equal(onError.headers.get('x-request-id'), 'req-7', 'echoed on errors too');
    for (const bad of ['has spaces in it', 'x'.repeat(129), 'semi;colon']) {
      const res = await request(d.url, 'GET', '/healthz', { headers: { 'x-request-id': bad } });
      t.match(res.headers.get('x-request-id'), GENERATED_REQUEST_ID, `replaced: ${bad.slice(0, 20)}`);
    }
    const [a, b] = await Promise.all([request(d.url, 'GET', '/healthz'), request(d.url, 'GET', '/healthz')]);
    t.match(a.headers.get('x-request-id'), GENERATED_REQUEST_ID, 'generated when none is sent');
    t.not(a.headers.get('x-request-id'), b.headers.get('x-request-id'), 'and unique');
  });

  t.test('400 invalid_json: a body that is not JSON', async (t) => {
    const res = await request(d.url, 'POST', '/v1/organizations', {
      headers: { ...asP, 'content-type': 'application/json' },
      raw: '{"slug": ',
    });
    assertError(t, res, 400, 'invalid_json');
  });

  t.test('400 invalid_request: bad path or query value', async (t) => {
    const path = await request(d.url, 'GET', '/v1/organizations/not-a-uuid', { headers: asP });
    assertError(t, path, 400, 'invalid_request');
    t.match(path.body.error.details, { fields: { id: String } }, 'names the parameter');
    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'cursor=!!!', 'cursor=bm90LWEtY3Vyc29y']) {
      assertError(t, await request(d.url, 'GET', `/v1/organizations?${q}`, { headers: asP }), 400, 'invalid_request');
    }
  });

  t.test('401 unauthenticated, with WWW-Authenticate: Bearer', async (t) => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer svc_nothing_real' },
      { authorization: 'Basic dTpw' },
      { 'x-principal-id': 'not-a-uuid' },
    ];
    for (const headers of attempts) {
      const res = await request(d.url, 'GET', '/v1/organizations', { headers });
      assertError(t, res, 401, 'unauthenticated');
      t.equal(res.headers.get('www-authenticate'), 'Bearer');
    }
  });

  t.test('403 forbidden and insufficient_scope', async (t) => {
    const key = await request(d.url, 'POST', '/v1/api-keys', { headers: asP, body: { name: 'full', organization_id: orgId } });
    t.equal(key.status, 201, 'full-access key created');
    const scoped = await request(d.url, 'POST', '/v1/api-keys', {
      headers: asP,
      body: { name: 'reader', organization_id: orgId, scopes: ['workflows:read'] },
    });
    t.equal(scoped.status, 201, 'scoped key created');

    const forbidden = await request(d.url, 'POST', '/v1/organizations', {
      headers: { authorization: `Bearer ${key.body.data.raw_key}` },
      body: { slug: 'by-key' },
    });
    assertError(t, forbidden, 403, 'forbidden');

    const scope = await request(d.url, 'GET', '/v1/organizations', {
      headers: { authorization: `Bearer ${scoped.body.data.raw_key}` },
    });
    assertError(t, scope, 403, 'insufficient_scope');
    t.equal(scope.headers.get('www-authenticate'), null, 'not a credentials problem');
  });

  t.test('404 not_found: no such resource, and unknown routes in the same envelope', async (t) => {
    assertError(t, await request(d.url, 'GET', `/v1/organizations/${randomUUID()}`, { headers: asP }), 404, 'not_found');
    assertError(
      t,
      await request(d.url, 'GET', `/v1/organizations/${orgId}`, { headers: { 'x-principal-id': randomUUID() } }),
      404,
      'not_found',
    );
    assertError(t, await request(d.url, 'GET', '/v1/no-such-route'), 404, 'not_found');
    assertError(t, await request(d.url, 'GET', '/'), 404, 'not_found');
    assertError(t, await request(d.url, 'DELETE', '/healthz'), 404, 'not_found');
  });

  t.test('409 conflict', async (t) => {
    const res = await request(d.url, 'POST', '/v1/organizations', { headers: asP, body: { slug: 'acme' } });
    assertError(t, res, 409, 'conflict');
  });

  t.test('413 payload_too_large: body over 1 MiB, declared or chunked', async (t) => {
    const big = JSON.stringify({ slug: 'big', display_name: 'x'.repeat(BODY_LIMIT_BYTES) });
    const declared = await rawRequest(d.url, {
      method: 'POST',
      path: '/v1/organizations',
      headers: { ...asP, 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) },
      chunks: [big],
    });
    t.equal(declared.status, 413, 'with content-length');
    t.match(declared.body, { meta: { status: 413 }, error: { code: 'payload_too_large' } });
    t.ok(declared.headers['x-request-id']);

    const pieces: string[] = [];
    for (let i = 0; i < big.length; i += 64 * 1024) pieces.push(big.slice(i, i + 64 * 1024));
    const chunked = await rawRequest(d.url, {
      method: 'POST',
      path: '/v1/organizations',
      headers: { ...asP, 'content-type': 'application/json' },
      chunks: pieces,
    });
    t.equal(chunked.status, 413, 'chunked, no length given');
    t.match(chunked.body, { error: { code: 'payload_too_large' } });

    // Exactly at the limit is accepted (and then validated): the limit is inclusive.
    const prefix = '{"slug":"edge","display_name":"';
    const atLimit = prefix + 'y'.repeat(BODY_LIMIT_BYTES - prefix.length - 2) + '"}';
    t.equal(Buffer.byteLength(atLimit), BODY_LIMIT_BYTES);
    const edge = await rawRequest(d.url, {
      method: 'POST',
      path: '/v1/organizations',
      headers: { ...asP, 'content-type': 'application/json' },
      chunks: [atLimit],
    });
    t.equal(edge.status, 422, 'read in full and validated (display_name too long)');

    const after = await request(d.url, 'GET', '/healthz');
    t.equal(after.status, 200, 'the daemon serves on after refusing large bodies');
  });

  t.test('a 413 on the declared length is read whole by the client, and its connection serves on', async (t) => {
    // The daemon drops the rest of the body before it answers, so the client, still sending, is not
    // reset before it reads the answer, and the connection stays usable (no Connection: close).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    t.teardown(() => agent.destroy());
    const big = Buffer.alloc(8 * BODY_LIMIT_BYTES, 0x61);
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; connection: string | undefined; reused: boolean; text: string }>((resolve, reject) => {
        const req = http.request(
          new URL(path, d.url),
          { method, agent, headers: { ...asP, 'content-type': 'application/json' } },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () =>
              resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket, text }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    for (let i = 0; i < 3; i++) {
      const refused = await send('POST', '/v1/organizations', big);
      t.equal(refused.status, 413, `refused (${i + 1} of 3)`);
      t.match(JSON.parse(refused.text), { error: { code: 'payload_too_large' } });
      t.not(refused.connection, 'close', 'the body was read to its end: the connection is kept');
    }
    const next = await send('GET', '/healthz');
    t.equal(next.status, 200);
    t.ok(next.reused, 'the next request went over the same connection');
  });

  t.test('415 unsupported_media_type: a body that is not application/json', async (t) => {
    const text = await request(d.url, 'POST', '/v1/organizations', {
      headers: { ...asP, 'content-type': 'text/plain' },
      raw: '{"slug":"plain"}',
    });
    assertError(t, text, 415, 'unsupported_media_type');
    const none = await rawRequest(d.url, {
      method: 'POST',
      path: '/v1/organizations',
      headers: asP,
      chunks: ['{"slug":"untyped"}'],
    });
    t.equal(none.status, 415, 'no content-type at all');
    const withCharset = await request(d.url, 'POST', '/v1/organizations', {
      headers: { ...asP, 'content-type': 'application/json; charset=utf-8' },
      raw: '{"slug":"charset"}',
    });
    t.equal(withCharset.status, 201, 'application/json with a charset is JSON');
    const listed = await request(d.url, 'GET', '/v1/organizations?limit=200', { headers: asP });
    t.notOk(
      listed.body.data.some((o: { slug: string }) => o.slug === 'plain' || o.slug === 'untyped'),
      'refused bodies created nothing',
    );
  });

  t.test('422 validation_failed names every failing field', async (t) => {
    const res = await request(d.url, 'POST', '/v1/organizations', {
      headers: asP,
      body: { slug: 'Not A Slug!', display_name: '   ' },
    });
    assertError(t, res, 422, 'validation_failed');
    t.same(Object.keys(res.body.error.details.fields).sort(), ['display_name', 'slug']);
    for (const reason of Object.values(res.body.error.details.fields)) t.type(reason, 'string');

    const missing = await request(d.url, 'POST', '/v1/organizations', { headers: asP, body: {} });
    assertError(t, missing, 422, 'validation_failed');
    t.ok('slug' in missing.body.error.details.fields, 'a missing field is named');

    const empty = await request(d.url, 'POST', '/v1/organizations', { headers: asP });
    t.equal(empty.status, 422, 'an empty body is validated as {}');
  });

  t.test('/healthz and /readyz', async (t) => {
    const health = await request(d.url, 'GET', '/healthz');
    t.equal(health.status, 200);
    t.same(health.body, { status: 'ok' });

    const ready = await request(d.url, 'GET', '/readyz');
    t.equal(ready.status, 200);
    t.same(ready.body, { status: 'ready', checks: { storage: true, storage_writes: true, loops: true, accepting: true } });

    // A background loop that is not running makes the daemon not ready.
    const loop = d.loops.add(new Loop({ name: 'probe', intervalMs: 60_000, log: d.log, tick: async () => {} }));
    const notReady = await request(d.url, 'GET', '/readyz');
    t.equal(notReady.status, 503);
    t.same(notReady.body, {
      status: 'not_ready',
      checks: { storage: true, storage_writes: true, loops: false, accepting: true },
    });
    t.ok(notReady.headers.get('x-request-id'));
    loop.start();
    t.equal((await request(d.url, 'GET', '/readyz')).status, 200, 'ready again once it runs');
  });

  t.test('headers are matched case-insensitively, and repeated credentials are never a choice', async (t) => {
    const get = (path: string, lines: string[]) => rawRequest(d.url, { method: 'GET', path, headers: lines, chunks: [] });
    t.equal((await get('/healthz', ['X-REQUEST-ID', 'Upper-Case-1'])).headers['x-request-id'], 'Upper-Case-1');
    t.equal((await get(`/v1/organizations/${orgId}`, ['X-Principal-ID', principal])).status, 200, 'X-Principal-Id in any case');
    const twice = await get(`/v1/organizations/${orgId}`, ['x-principal-id', principal, 'x-principal-id', randomUUID()]);
    t.equal(twice.status, 401, 'two X-Principal-Id headers are one invalid value');
    t.match(twice.body, { error: { code: 'unauthenticated' } });
    // Authorization: the first line counts (node's rule for it); a second never rescues a bad first.
    const key = await request(d.url, 'POST', '/v1/api-keys', { headers: asP, body: { name: 'dup', organization_id: orgId } });
    t.equal(key.status, 201);
    const good = `Bearer ${String(key.body.data.raw_key)}`;
    t.equal(
      (await get(`/v1/organizations/${orgId}`, ['AUTHORIZATION', good, 'authorization', 'Bearer svc_junk'])).status,
      200,
      'the first Authorization counts',
    );
    t.equal(
      (await get(`/v1/organizations/${orgId}`, ['authorization', 'Bearer svc_junk', 'Authorization', good])).status,
      401,
      'a bad first one is not rescued',
    );
  });

  t.test('probes and the OpenAPI document ignore credentials; a public route still judges them', async (t) => {
    // A stale or broken header on a load balancer's probe must not take the daemon out of rotation.
    const junk = { authorization: 'Bearer svc_nonsense', 'x-principal-id': 'not-a-uuid' };
    for (const path of ['/healthz', '/readyz', '/openapi.json'])
      t.equal((await request(d.url, 'GET', path, { headers: junk })).status, 200, `${path} with junk credentials`);
    // The invitation accept link acts for a presented caller, so a bad credential there is 401.
    const accept = await request(d.url, 'GET', `/v1/invitations/${randomUUID()}/accept?token=x`, {
      headers: { authorization: 'Bearer svc_nonsense' },
    });
    t.equal(accept.status, 401);
    t.equal(accept.body.error.code, 'unauthenticated');
  });

  t.test('/openapi.json documents every route served, with its request schema', async (t) => {
    const res = await request(d.url, 'GET', '/openapi.json');
    t.equal(res.status, 200);
    const doc = res.body;
    t.equal(doc.openapi, '3.1.0');
    t.type(doc.info.version, 'string');
    t.ok(doc.components.schemas.Error, 'the error envelope is described');

    // The portal's HTML pages are left out of the document (document: false), and only they are.
    const undocumented = d.http.app.routes.filter((r) => r.document === false);
    t.ok(undocumented.length > 0 && undocumented.every((r) => r.path.startsWith('/portal')), 'only /portal pages are left out');
    const routes = d.http.app.routes.filter((r) => r.document !== false);
    const documented = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${p}`);
    }
    const served = new Set(routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`));
    t.same([...documented].sort(), [...served].sort(), 'the document and the route table list the same operations');
    for (const must of [
      'GET /healthz',
      'GET /readyz',
      'GET /openapi.json',
      'POST /v1/organizations',
      'GET /v1/organizations/{id}/events',
    ]) {
      t.ok(documented.has(must), `${must} is documented`);
    }

    const operationIds = new Set<string>();
    for (const route of routes) {
      const p = route.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[p][route.method.toLowerCase()];
      operationIds.add(op.operationId);
      const params = op.parameters as { name: string; in: string; required: boolean }[];
      for (const name of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        t.ok(
          params.some((x) => x.in === 'path' && x.name === name && x.required),
          `${route.method} ${p}: path parameter ${name}`,
        );
      }
      if (route.query instanceof z.ZodObject) {
        for (const name of Object.keys(route.query.shape)) {
          t.ok(
            params.some((x) => x.in === 'query' && x.name === name),
            `${route.method} ${p}: query parameter ${name}`,
          );
        }
      }
      if (route.body !== undefined) {
        const schema = op.requestBody?.content?.['application/json']?.schema;
        t.ok(schema, `${route.method} ${p}: request body schema`);
        if (route.body instanceof z.ZodObject)
          t.same(
            Object.keys(schema.properties).sort(),
            Object.keys(route.body.shape).sort(),
            `${route.method} ${p}: every body field`,
          );
      } else {
        t.notOk(op.requestBody, `${route.method} ${p}: no request body`);
      }
      if (route.auth === 'public') t.same(op.security, [], `${route.method} ${p} is public`);
    }
    t.equal(operationIds.size, routes.length, 'operation ids are unique');

    const create = doc.paths['/v1/organizations'].post;
    t.match(create.requestBody.content['application/json'].schema, {
      type: 'object',
      required: ['slug'],
      properties: { slug: { type: 'string' } },
    });
    t.ok(create.responses['201'], 'the success status is documented');
  });
});

t.test('against the HTTP layer with routes that fail in every documented way', async (t) => {
  const failing = (path: string, code: ErrorCode, options: ConstructorParameters<typeof AppError>[2] = {}) =>
    defineRoute({
      method: 'GET',
      path,
      summary: `fails with ${code}`,
      tag: 'test',
      auth: 'public',
      handler: async () => {
        throw new AppError(code, `failed with ${code}`, options);
      },
    });
  const routes: RouteDef[] = [
    failing('/forbidden', 'forbidden'),
    failing('/invalid-state', 'invalid_state', { details: { state: 'revoked' } }),
    failing('/rate-limited', 'rate_limited', { retryAfterSeconds: 2.2 }),
    failing('/rate-limited-soon', 'rate_limited', { retryAfterSeconds: 0.01 }),
    failing('/upstream-error', 'upstream_error'),
    failing('/no-provider', 'no_provider'),
    failing('/upstream-timeout', 'upstream_timeout'),
    failing('/unauthenticated', 'unauthenticated'),
    defineRoute({
      method: 'GET',
      path: '/crash',
      summary: 'a bug',
      tag: 'test',
      auth: 'public',
      handler: async () => {
        throw new Error('db password hunter2 at /srv/secret');
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/crash-text',
      summary: 'a bug throwing a string',
      tag: 'test',
      auth: 'public',
      handler: async () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a non-Error throw is the case under test
        throw 'raw string hunter2';
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/private',
      summary: 'needs credentials',
      tag: 'test',
      handler: async () => ({ secret: true }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/things',
      summary: 'a list',
      tag: 'test',
      auth: 'public',
      query: pageQuery,
      handler: async (ctx) => Reply.page({ items: [{ n: ctx.query.limit ?? 50 }], nextCursor: 'next' }),
    }),
  ];
  // An app without an identity system: no request carries credentials.
  const app = createHttpApp({ log: createLogger('silent'), routes, authenticate: async () => null, version: 'test' });
  const server = await listenHttp(app, '127.0.0.1:0');
  t.teardown(() => server.close(0));
  t.equal(server.address.address, '127.0.0.1');
  const get = (path: string) => request(server.url, 'GET', path);

  t.test('403 forbidden', async (t) => assertError(t, await get('/forbidden'), 403, 'forbidden'));

  t.test('409 invalid_state keeps its details', async (t) => {
    const res = await get('/invalid-state');
    assertError(t, res, 409, 'invalid_state');
    t.same(res.body.error.details, { state: 'revoked' });
    t.equal(res.body.error.message, 'failed with invalid_state');
  });

  t.test('429 rate_limited with Retry-After in whole seconds', async (t) => {
    const res = await get('/rate-limited');
    assertError(t, res, 429, 'rate_limited');
    t.equal(res.headers.get('retry-after'), '3', 'rounded up');
    t.equal((await get('/rate-limited-soon')).headers.get('retry-after'), '1', 'at least one second');
    t.equal((await get('/forbidden')).headers.get('retry-after'), null, 'only when given');
  });

  t.test('502, 503, 504 from the provider layer', async (t) => {
    assertError(t, await get('/upstream-error'), 502, 'upstream_error');
    assertError(t, await get('/no-provider'), 503, 'no_provider');
    assertError(t, await get('/upstream-timeout'), 504, 'upstream_timeout');
  });

  t.test('401 from a handler carries WWW-Authenticate; a non-public route refuses anonymous callers', async (t) => {
    const res = await get('/unauthenticated');
    assertError(t, res, 401, 'unauthenticated');
    t.equal(res.headers.get('www-authenticate'), 'Bearer');
    const anon = await get('/private');
    assertError(t, anon, 401, 'unauthenticated');
    t.equal(anon.headers.get('www-authenticate'), 'Bearer');
  });

  t.test('500 internal never carries a stack trace or the thrown message', async (t) => {
    for (const path of ['/crash', '/crash-text']) {
      const res = await get(path);
      assertError(t, res, 500, 'internal');
      t.same(res.body, { meta: { status: 500 }, error: { code: 'internal', message: 'internal error' } });
      const text = JSON.stringify(res.body);
      t.notOk(/hunter2|secret|\bat\s|\.ts:\d/.test(text), 'nothing of the error leaks');
    }
  });

  t.test('a list route answers with meta.next_cursor and validates its query', async (t) => {
    const res = await get('/v1/things?limit=7');
    t.same(res.body, { meta: { status: 200, next_cursor: 'next' }, data: [{ n: 7 }] });
    assertError(t, await get('/v1/things?limit=-1'), 400, 'invalid_request');
  });

  t.test('unknown routes are a JSON 404', async (t) => {
    assertError(t, await get('/nowhere'), 404, 'not_found');
  });
});

/** One answer read off a raw connection: its status line's code, its headers (lower-cased names) and its body. */
interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A client on a raw socket, so a test decides exactly what goes over which connection and when.
 * `next()` is the next whole answer; it rejects if the connection ends or is reset first.
 */
function wireClient(url: string): Promise<{ socket: net.Socket; next: () => Promise<WireAnswer>; ended: Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let buffered = Buffer.alloc(0);
    let waiting: { resolve: (a: WireAnswer) => void; reject: (e: Error) => void } | undefined;
    let gone: string | undefined;
    const ended = new Promise<string>((resolveEnded) => {
      socket.on('end', () => resolveEnded((gone ??= 'end')));
      socket.on('error', (err: NodeJS.ErrnoException) => resolveEnded((gone ??= err.code ?? err.message)));
      socket.on('close', () => resolveEnded((gone ??= 'close')));
    });
    const take = (): void => {
      if (waiting === undefined) return;
      const headEnd = buffered.indexOf('\r\n\r\n');
      if (headEnd >= 0) {
        const [statusLine, ...lines] = buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffered.length >= headEnd + 4 + length) {
          const body = buffered.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
          buffered = buffered.subarray(headEnd + 4 + length);
          const w = waiting;
          waiting = undefined;
          w.resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
          return;
        }
      }
      if (gone !== undefined) {
        const w = waiting;
        waiting = undefined;
        w.reject(new Error(`the connection ended (${gone}) before a whole answer`));
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      take();
    });
    void ended.then(take);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve({
        socket,
        next: () =>
          new Promise<WireAnswer>((res, rej) => {
            waiting = { resolve: res, reject: rej };
            take();
          }),
        ended,
      });
    });
  });
}

/** Holds this thread for `ms`: the daemon (in this process) does nothing meanwhile, as a busy one would not. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

t.test('a refused body, then the next request on its connection as the keep-alive runs out', async (t) => {
  const app = createHttpApp({
    log: createLogger('silent'),
    routes: [
      defineRoute({ method: 'POST', path: '/echo', summary: 'echo', tag: 'test', auth: 'public', handler: () => ({ ok: true }) }),
    ],
    authenticate: () => null,
    version: 'test',
  });
  // Node closes an idle keep-alive connection 1 s after the advertised timeout.
  const keepAliveTimeoutMs = 100;
  const closesAfterMs = keepAliveTimeoutMs + 1000;
  const server = await listenHttp(app, '127.0.0.1:0', { keepAliveTimeoutMs });
  t.teardown(() => server.close(0));
  const post = (length: number) =>
    `POST /echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  t.test('a request already sent when the idle timer runs out is answered, not reset', async (t) => {
    const client = await wireClient(server.url);
    t.teardown(() => client.socket.destroy());
    const big = 2 * BODY_LIMIT_BYTES;
    client.socket.write(post(big));
    client.socket.write(Buffer.alloc(big, 0x20));
    const refused = await client.next();
    t.equal(refused.status, 413);
    t.match(refused.headers['keep-alive'], /timeout=/, 'the connection is kept, with its idle timeout advertised');
    t.not(refused.headers.connection, 'close');
    // The next request goes out at once, and the daemon is busy past the keep-alive deadline before it
    // reads it (a loaded machine): its idle timer is then due with the request unread on the socket.
    // From a setImmediate callback, so the loop's next phase is the timers', before it polls the socket.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setImmediate(resolve));
    client.socket.write(`${post(2)}{}`);
    blockFor(closesAfterMs + 300);
    const next = await client.next();
    t.equal(next.status, 200, 'answered on the same connection');
    t.same(JSON.parse(next.body), { meta: { status: 200 }, data: { ok: true } });
  });

  t.test('a refused body that stops arriving: the answer says Connection: close, then a FIN', async (t) => {
    // The daemon waits 2 s for the rest of a refused body; this one never comes, so the answer cannot
    // leave the connection usable. It must say so, arrive whole, and only then the connection ends.
    const client = await wireClient(server.url);
    t.teardown(() => client.socket.destroy());
    client.socket.write(post(2 * BODY_LIMIT_BYTES));
    client.socket.write(Buffer.alloc(64 * 1024, 0x20));
    const refused = await client.next();
    t.equal(refused.status, 413);
    t.equal(refused.headers.connection, 'close', 'the client is told not to send another request on it');
    t.match(JSON.parse(refused.body), { error: { code: 'payload_too_large' } });
    t.equal(await client.ended, 'end', 'closed after the answer, with a FIN, not a reset');
  });

  t.test('an idle connection is still closed once its keep-alive has run out', async (t) => {
    const client = await wireClient(server.url);
    t.teardown(() => client.socket.destroy());
    client.socket.write(`${post(2)}{}`);
    t.equal((await client.next()).status, 200);
    const started = Date.now();
    t.equal(await client.ended, 'end', 'closed by the daemon with a FIN, not a reset');
    t.ok(Date.now() - started >= keepAliveTimeoutMs, 'not before the advertised timeout');
  });
});
