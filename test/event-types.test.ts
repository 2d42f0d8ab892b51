// Contract 13: GET /v1/event-types lists every event kind the daemon emits, each with a description,
// its payload's JSON Schema and an example; the OpenAPI document's `webhooks` and docs/webhooks.md
// show the same catalog (src/domain/events/catalog.ts).
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { z } from 'zod';
import { eventCatalog, listEventTypes } from '../src/domain/events/catalog.js';
import { eventKinds } from '../src/domain/events/types.js';
import { CATALOG_BEGIN, CATALOG_END, renderEventCatalog } from '../src/domain/events/catalog-doc.js';
import { asPrincipal, repoRoot, request, startTestDaemon } from './helpers.js';

/** Every .ts file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The kinds the code appends, read from every way it does: an append with a literal kind, an area's
 * emit(tx, record, kind), a schedule outcome's kind, and the run endings.
 */
function emittedKinds(): Set<string> {
  const patterns = [
    /\.append\(tx, \{\s*kind: '([a-z._]+)'/g,
    /\.emit\(\s*tx,\s*[\w.]+,\s*'([a-z._]+)'/g,
    /kind: 'workflow\.schedule\.[a-z]+'/g,
  ];
  const found = new Set<string>();
  const src = path.join(repoRoot, 'src');
  for (const file of sourceFiles(src)) {
    if (path.relative(src, file).startsWith(`domain${path.sep}events${path.sep}`)) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.add(m[1] ?? /'([^']+)'/.exec(m[0])![1]);
    // The run endings: `workflow.run.${status}` over finish()'s statuses.
    const ending = /finish\(tx: Tx, run: WorkflowRun, status: ((?:'[a-z]+' \| )*'[a-z]+')/.exec(text);
    if (ending !== null && text.includes('`workflow.run.${status}`'))
      for (const s of ending[1].matchAll(/'([a-z]+)'/g)) found.add(`workflow.run.${s[1]}`);
  }
  return found;
}

t.test('every kind the code emits is in the catalog, and the catalog has no kind nobody emits', async (t) => {
  const emitted = emittedKinds();
  const catalog = new Set(Object.keys(eventCatalog));
  t.same([...emitted].filter((k) => !catalog.has(k)).sort(), [], 'emitted but not in the catalog');
  t.same([...catalog].filter((k) => !emitted.has(k)).sort(), [], 'in the catalog but never emitted');
  t.same(Object.keys(eventCatalog).sort(), [...eventKinds].sort(), 'the catalog is the list of kinds');
});

t.test('each example validates against its JSON Schema, and a wrong payload does not', async (t) => {
  for (const type of listEventTypes()) {
    const fromJson = z.fromJSONSchema(type.payload_schema);
    t.ok(fromJson.safeParse(type.example).success, `${type.kind}: its example matches the served schema`);
    t.ok(eventCatalog[type.kind].payload.strict().safeParse(type.example).success, `${type.kind}: no undocumented field`);
    t.ok(type.description.length > 10 && !type.description.includes('\n'), `${type.kind}: a one-line description`);
    const required = (type.payload_schema.required ?? []) as string[];
    if (required.length > 0) {
      const { [required[0]]: _gone, ...broken } = type.example;
      t.notOk(fromJson.safeParse(broken).success, `${type.kind}: without ${required[0]} it fails`);
    }
  }
});

t.test('GET /v1/event-types: any authenticated caller; in the OpenAPI document as webhooks', async (t) => {
  const d = await startTestDaemon(t);
  t.equal((await request(d.url, 'GET', '/v1/event-types')).status, 401, 'anonymous is 401');
  // A principal with no organization at all may read it: it describes the daemon, not a tenant.
  const res = await request(d.url, 'GET', '/v1/event-types', { headers: asPrincipal(randomUUID()) });
  t.equal(res.status, 200);
  t.same(res.body.data, listEventTypes());
  t.same(
    res.body.data.map((e: { kind: string }) => e.kind),
    eventKinds,
  );
  const member = res.body.data.find((e: { kind: string }) => e.kind === 'member.role_changed');
  t.match(member.payload_schema, {
    type: 'object',
    properties: {
      membership_id: {},
      principal_id: {},
      role: { enum: ['viewer', 'member', 'admin', 'owner'] },
      previous_role: {},
    },
  });

  const doc = (await request(d.url, 'GET', '/openapi.json')).body;
  t.same(Object.keys(doc.webhooks), eventKinds, 'one webhook per kind');
  const ref = doc.webhooks['member.added'].post.requestBody.content['application/json'].schema.$ref as string;
  const envelope = doc.components.schemas[ref.replace('#/components/schemas/', '')];
  t.match(envelope.properties, { kind: { const: 'member.added' }, payload: { properties: { membership_id: {} } } });
  t.ok(doc.paths['/v1/event-types'].get, 'the route is documented');
});

t.test('docs/webhooks.md holds the catalog as the code renders it', async (t) => {
  const doc = readFileSync(path.join(repoRoot, 'docs', 'webhooks.md'), 'utf8');
  const from = doc.indexOf(CATALOG_BEGIN);
  const to = doc.indexOf(CATALOG_END);
  t.ok(from >= 0 && to > from, 'the catalog markers are there');
  t.equal(
    doc.slice(from + CATALOG_BEGIN.length, to).trim(),
    renderEventCatalog().trim(),
    'run `npm run docs:events` after changing the catalog',
  );
});
