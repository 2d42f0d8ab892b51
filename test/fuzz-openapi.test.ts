import { randomUUID } from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import t from 'tap';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Property-based fuzzing of every operation in /openapi.json against a live daemon: generated path
// values, query strings, bodies (schema-shaped and arbitrary, valid and not) and credentials. Whatever
// comes in, nothing answers 5xx, the daemon stays up, and every error is in the contract's envelope.
// Seeded and bounded for CI; FUZZ_RUNS=2000 FUZZ_SEED=<n> runs longer (docs/security.md).

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  required?: string[];
};
interface Operation {
  tags?: string[];
  method: string;
  path: string;
  parameters?: { name: string; in: 'path' | 'query'; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** A value shaped like the schema (right types, enum members), sometimes with wrong types mixed in. */
function fromSchema(schema: JsonSchema | undefined, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || depth > 4) return fc.jsonValue({ maxDepth: 2 });
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((s) => fromSchema(s, ids, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {}).map(
        ([name, s]) => [name, fc.option(fromSchema(s, ids, depth + 1), { nil: undefined })] as const,
      );
      return fc.record(Object.fromEntries(props), { requiredKeys: [] });
    }
    case 'array':
      return fc.array(fromSchema(schema.items, ids, depth + 1), { maxLength: 4 });
    case 'string':
      return fc.oneof(
        fc.constantFrom(...ids),
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.emailAddress(),
        fc.constant('a'.repeat(5000)),
      );
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 53, 1e308));
    case 'boolean':
      return fc.boolean();
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * One request on a connection of its own (no keep-alive), so that a loaded machine's timer races
 * between the client's and the server's idle timeouts cannot reset a reused connection mid-fuzz.
 */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  raw: string | undefined,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', (err) => reject(new Error(`${method} ${path.slice(0, 120)}: ${err.message}`)));
    req.end(raw);
  });
}

/**
 * The gateway's routes (contract 13) answer errors in OpenAI's or Anthropic's shape, with the
 * contract's code; a model no provider advertises is 503 no_provider there, as on execute.
 */
function checkGatewayError(where: string, res: { status: number; body: unknown }): void {
  if (res.status < 400) return;
  const body = res.body as { type?: unknown; error?: { code?: unknown; message?: unknown; type?: unknown } };
  const shaped =
    typeof body?.error?.message === 'string' && typeof body.error.type === 'string' && typeof body.error.code === 'string';
  if (!shaped)
    throw new Error(`${where}: ${res.status} outside the protocol's error shape: ${JSON.stringify(res.body).slice(0, 200)}`);
  if (res.status >= 500 && body.error!.code !== 'no_provider')
    throw new Error(`${where}: ${res.status} ${JSON.stringify(res.body)}`);
}

t.test('no input makes any /openapi.json operation answer 5xx or break the envelope', async (t) => {
  const d = await startTestDaemon(t);
  const owner = randomUUID();
  const asOwner = asPrincipal(owner);
  const org = await createOrganizationAs(d.url, asOwner, 'fuzzed');
  const team = (await request(d.url, 'POST', `/v1/organizations/${org.id}/teams`, { headers: asOwner, body: { name: 'red' } }))
    .body.data;
  const key = (await request(d.url, 'POST', '/v1/api-keys', { headers: asOwner, body: { name: 'k', organization_id: org.id } }))
    .body.data;
  const inv = (
    await request(d.url, 'POST', '/v1/invitations', {
      headers: asOwner,
      body: { organization_id: org.id, email: 'fuzz@example.com', role: 'viewer' },
    })
  ).body.data;
  const ids = [org.id, team.id, key.id, inv.id, owner, randomUUID(), 'fuzzed', 'not-a-uuid', ''];

  const doc = (await request(d.url, 'GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  };
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
  t.ok(operations.length >= 30, `${operations.length} operations`);

  const credentials = fc.constantFrom<Record<string, string>>(
    asOwner,
    asPrincipal(randomUUID()),
    { authorization: `Bearer ${key.raw_key as string}` },
    { authorization: 'Bearer svc_AAAAAAAA_forged' },
    { authorization: 'Basic Zm9vOmJhcg==' },
    { 'x-principal-id': 'not-a-uuid' },
    {},
  );
  let requests = 0;
  for (const op of operations) {
    const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
    const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    const input = fc.record({
      path: fc.record(
        Object.fromEntries(pathParams.map((p) => [p.name, fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 30 }))])),
      ),
      query: fc.record(
        Object.fromEntries(queryParams.map((p) => [p.name, fc.option(fromSchema(p.schema, ids), { nil: undefined })])),
        {
          requiredKeys: [],
        },
      ),
      extraQuery: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 2 }),
      body: fc.oneof(
        { weight: 3, arbitrary: fromSchema(bodySchema, ids).map((v) => ({ json: v })) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ json: v })) },
        { weight: 1, arbitrary: fc.string({ maxLength: 50 }).map((raw) => ({ raw })) },
        { weight: 1, arbitrary: fc.constant({ raw: '['.repeat(10_000) }) },
      ),
      headers: credentials,
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
    });
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        let path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(i.path[name] ?? '')));
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries({ ...i.extraQuery, ...i.query }))
          if (v !== undefined) search.append(k, typeof v === 'string' ? v : JSON.stringify(v));
        if ([...search].length > 0) path += `?${search.toString()}`;
        const headers: Record<string, string> = { ...i.headers };
        const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
        if (hasBody && i.contentType !== undefined) headers['content-type'] = i.contentType;
        const raw = !hasBody ? undefined : 'raw' in i.body ? i.body.raw : JSON.stringify(i.body.json ?? null);
        const res = await send(d.url, op.method, path, headers, raw);
        requests++;
        const where = `${op.method} ${path.slice(0, 120)}`;
        if (res.headers['x-request-id'] === undefined) throw new Error(`${where}: no X-Request-Id`);
        if (op.tags?.includes('gateway') === true) return checkGatewayError(where, res);
        if (res.status >= 500) throw new Error(`${where}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res.status >= 400 && path.startsWith('/v1')) {
          const body = res.body as { meta?: { status?: number }; error?: { code?: unknown; message?: unknown } };
          if (body?.meta?.status !== res.status || typeof body.error?.code !== 'string' || typeof body.error.message !== 'string')
            throw new Error(`${where}: ${res.status} outside the envelope: ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }
  t.ok(requests >= operations.length * RUNS, `${requests} requests`);
  t.equal((await request(d.url, 'GET', '/healthz')).status, 200, 'the daemon is still up');
});
