import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import t from 'tap';
import ts from 'typescript';
import { asPrincipal, repoRoot, request, runOwned, startTestDaemon } from './helpers.js';

// Contract 13: /openapi.json is one self-contained OpenAPI 3.1 document that the tools clients use
// take as it is: redocly's recommended rules pass, openapi-typescript makes types of it, and a
// client typed by them (openapi-fetch) works against the daemon.

const PUBLIC_URL = 'https://switchyard.example.com';

/** Every `$ref` in a JSON tree. */
function refsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, found);
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsOf(value, found);
    }
  return found;
}

/** The value a local `$ref` (`#/a/b~1c`) points at, or undefined. */
function resolvePointer(doc: unknown, ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

t.test('the document is self-contained, names the public URL and lists each operation’s 4xx answers', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_PUBLIC_URL: PUBLIC_URL });
  const doc = (await request(d.url, 'GET', '/openapi.json')).body;
  t.equal(doc.openapi, '3.1.0');
  t.same(doc.servers, [{ url: PUBLIC_URL, description: 'SERVICE_PUBLIC_URL' }]);
  const refs = refsOf(doc);
  t.ok(refs.length > 10, `${refs.length} references`);
  t.same(
    refs.filter((ref) => !ref.startsWith('#/components/schemas/') || resolvePointer(doc, ref) === undefined),
    [],
    'every $ref resolves under components/schemas',
  );
  t.notMatch(JSON.stringify(doc), /"\$defs"/, 'no schema keeps definitions of its own');
  t.ok(doc.components.schemas.JsonValue, 'shared schemas have names of their own');

  const gatewayErrors: Record<string, string> = {
    '/v1/chat/completions': 'OpenAIError',
    '/v1/embeddings': 'OpenAIError',
    '/v1/images/generations': 'OpenAIError',
    '/v1/audio/transcriptions': 'OpenAIError',
    '/v1/models': 'OpenAIError',
    '/v1/messages': 'AnthropicError',
  };
  t.match(doc.components.schemas.OpenAIError, { properties: { error: { required: ['message', 'type', 'param', 'code'] } } });
  t.match(doc.components.schemas.AnthropicError, { properties: { type: { const: 'error' } } });
  const missing: string[] = [];
  type Op = { responses: Record<string, any>; security?: unknown[] };
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>))
    for (const [method, op] of Object.entries(ops)) {
      const fourXX = Object.keys(op.responses).filter((status) => status.startsWith('4'));
      // The probes and this document take any request; every other operation has a 4xx answer.
      if (!['/healthz', '/readyz', '/openapi.json'].includes(p) && fourXX.length === 0) missing.push(`${method} ${p}: no 4xx`);
      if (op.security === undefined && !fourXX.includes('401')) missing.push(`${method} ${p}: no 401`);
      // The gateway's routes answer errors in their protocol's shape; every other route in the contract's.
      const errorSchema = gatewayErrors[p] ?? 'Error';
      for (const status of [...fourXX, 'default'])
        if (op.responses[status].content['application/json'].schema.$ref !== `#/components/schemas/${errorSchema}`)
          missing.push(`${method} ${p} ${status}: not the ${errorSchema} schema`);
    }
  t.same(missing, []);
  const createOrg = doc.paths['/v1/organizations'].post.responses;
  t.same(Object.keys(createOrg).sort(), ['201', '400', '401', '403', '413', '415', '422', 'default']);
});

t.test('redocly lint with the recommended rules finds no error in the served document', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_PUBLIC_URL: PUBLIC_URL });
  const served = await request(d.url, 'GET', '/openapi.json');
  const dir = t.testdir({ 'openapi.json': JSON.stringify(served.body) });
  const cli = path.join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const run = await runOwned(
    t,
    process.execPath,
    [cli, 'lint', path.join(dir, 'openapi.json'), '--config', path.join(repoRoot, 'redocly.yaml'), '--format', 'summary'],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
  const output = run.stdout + run.stderr;
  t.equal(run.code, 0, output);
  t.notMatch(output, /^error\s/m, 'no rule reports an error');
  t.match(output, /valid/i);
});

t.test('openapi-typescript types a client (openapi-fetch) that works against the daemon', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_PUBLIC_URL: PUBLIC_URL });
  const doc = (await request(d.url, 'GET', '/openapi.json')).body;
  const types = astToString(await openapiTS(doc));
  t.match(types, /"\/v1\/organizations": \{/);

  // A client as a user would write it, compiled by tsc against the generated types: a wrong call
  // (marked @ts-expect-error) must not compile, or tsc reports the unused directive.
  const client = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

export async function run(baseUrl: string, principal: string) {
  const asOwner = createClient<paths>({ baseUrl, headers: { 'x-principal-id': principal } });
  const created = await asOwner.POST('/v1/organizations', { body: { slug: 'typed-client' } });
  if (created.data === undefined) throw new Error(JSON.stringify(created.error));
  const org: { id: string; slug: string } = created.data.data;
  // @ts-expect-error: slug is required
  void asOwner.POST('/v1/organizations', { body: {} });
  const key = await asOwner.POST('/v1/api-keys', { body: { name: 'typed', organization_id: org.id } });
  if (key.data === undefined) throw new Error(JSON.stringify(key.error));
  const rawKey: string = key.data.data.raw_key;
  const readKey = await asOwner.GET('/v1/api-keys/{id}', { params: { path: { id: key.data.data.id } } });
  const keys = await asOwner.GET('/v1/api-keys', { params: { query: { organization_id: org.id } } });
  const withKey = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + rawKey } });
  const readOrg = await withKey.GET('/v1/organizations/{id}', { params: { path: { id: org.id } } });
  const missing = await withKey.GET('/v1/organizations/{id}', { params: { path: { id: '${randomUUID()}' } } });
  return {
    org,
    keyId: key.data.data.id,
    readKeyName: readKey.data?.data.name,
    listed: keys.data?.data.map((k) => k.id),
    readOrgSlug: readOrg.data?.data.slug,
    missingCode: missing.error?.error.code,
    missingStatus: missing.response.status,
  };
}
`;
  const dir = t.testdir({ 'api.d.ts': types, 'client.ts': client, 'package.json': JSON.stringify({ type: 'module' }) });
  const program = ts.createProgram([path.join(dir, 'client.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: dir,
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diag) =>
    ts.flattenDiagnosticMessageText(diag.messageText, '\n'),
  );
  t.same(diagnostics, [], 'the client compiles against the generated types');

  const { run } = (await import(pathToFileURL(path.join(dir, 'client.js')).href)) as {
    run: (baseUrl: string, principal: string) => Promise<Record<string, unknown>>;
  };
  const owner = randomUUID();
  const result = await run(d.url, owner);
  t.match(result, {
    org: { slug: 'typed-client' },
    readKeyName: 'typed',
    readOrgSlug: 'typed-client',
    missingCode: 'not_found',
    missingStatus: 404,
  });
  t.same(result.listed, [result.keyId]);
  // The organization the typed client made is the daemon's own.
  const check = await request(d.url, 'GET', '/v1/organizations', { headers: asPrincipal(owner) });
  t.same(
    check.body.data.map((o: { slug: string }) => o.slug),
    ['typed-client'],
  );
});
