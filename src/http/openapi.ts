import { createHash } from 'node:crypto';
import { z } from 'zod';
import { eventCatalog, eventEnvelopeSchema } from '../domain/events/catalog.js';
import { eventKinds } from '../domain/events/types.js';
import type { ClientErrorStatus, RouteDef } from './route.js';

type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** The error envelope of every non-2xx answer (contract: `{meta: {status}, error: {code, message, details?}}`). */
const errorSchema: JsonSchema = {
  type: 'object',
  required: ['meta', 'error'],
  properties: {
    meta: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } } },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

/** The `meta` of a /v1 success answer: its status, and the next page's cursor on lists. */
const metaSchema: JsonSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'integer' }, next_cursor: { type: ['string', 'null'] } },
};

/** What each 4xx means when the route table says it can happen. */
const clientErrors: Record<ClientErrorStatus, string> = {
  400: 'invalid_request or invalid_json: a path, query or body that cannot be read',
  401: 'unauthenticated: credentials missing or not valid',
  403: 'forbidden or insufficient_scope: the caller may not do this',
  404: 'not_found: no such resource, or one of another organization',
  409: 'conflict or invalid_state: the resource is not in a state that allows this',
  410: 'expired or revoked',
  413: 'payload_too_large: the body is over its limit',
  415: 'unsupported_media_type: the body is not in an accepted format',
  422: 'validation_failed: the body does not match its schema (details.fields names each field)',
  429: 'rate_limited: try again after Retry-After seconds',
};

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 8);
}

/** Every `$ref` in `node` passed through `rename` (a new tree; the input is not changed). */
function mapRefs(node: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => mapRefs(item, rename));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === '$ref' && typeof value === 'string' ? rename(value) : mapRefs(value, rename);
  return out;
}

/**
 * The document's `components/schemas`, filled as route schemas are converted. zod puts the schemas a
 * conversion shares (an `id` in their metadata, or a cycle such as `z.json()`) in that conversion's own
 * `$defs`, which no `$ref` outside it can reach: they move here, under their id (an anonymous one under
 * a name from its content), and a same-named schema that differs (a record's input and output forms)
 * gets a suffix, so every `$ref` in the document resolves to exactly what zod meant.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = { Error: errorSchema, Meta: metaSchema };
  /** A component's name by its shape (its text with every reference blanked): a second `z.json()` reuses the first's. */
  private readonly byShape = new Map<string, string>();

  /** `schema` as JSON Schema whose references point into the components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = json;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const local = Object.keys(defs);
    if (local.length === 0) return root;
    const candidates = (id: string): string[] => {
      const shape = hash(mapRefs(defs[id], () => ''));
      const base = /^__schema\d+$/.test(id) ? (this.byShape.get(shape) ?? `Shared${shape}`) : id.replace(/[^\w.-]/g, '_');
      return [base, `${base}${io === 'input' ? 'Input' : 'Output'}`, `${base}_${hash(defs[id])}`];
    };
    // Names settle in a few rounds: renaming one def changes the text of those that refer to it.
    const choice = new Map(local.map((id) => [id, 0]));
    for (let round = 0; round < 4; round++) {
      const nameOf = (id: string) => candidates(id)[choice.get(id)!];
      const rename = (ref: string) => (ref.startsWith('#/$defs/') ? COMPONENTS + nameOf(decodeURIComponent(ref.slice(8))) : ref);
      const named = new Map(local.map((id) => [nameOf(id), mapRefs(defs[id], rename) as JsonSchema]));
      let settled = true;
      for (const id of local) {
        const existing = this.schemas[nameOf(id)];
        if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(named.get(nameOf(id))) && choice.get(id)! < 2) {
          choice.set(id, choice.get(id)! + 1);
          settled = false;
        }
      }
      if (settled) {
        for (const [name, def] of named) {
          this.schemas[name] ??= def;
          const shape = hash(mapRefs(def, () => ''));
          if (!this.byShape.has(shape)) this.byShape.set(shape, name);
        }
        return mapRefs(root, rename) as JsonSchema;
      }
    }
    throw new TypeError(`OpenAPI: cannot name the shared schemas ${local.join(', ')} without a clash`);
  }
}

function parameters(components: Components, schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (schema === undefined) return [];
  const json = components.convert(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

/** The 4xx answers a route can give, from what the route table says it reads. */
function clientErrorsOf(route: RouteDef): ClientErrorStatus[] {
  const codes = new Set<ClientErrorStatus>(route.errors);
  const hasBody = route.body !== undefined;
  const add = (...statuses: ClientErrorStatus[]) => statuses.forEach((status) => codes.add(status));
  if (route.params !== undefined || route.query !== undefined || hasBody) add(400);
  if (route.auth !== 'none') add(401);
  if (route.auth === undefined || route.auth === 'required') add(403);
  if (route.params !== undefined) add(404);
  if (hasBody) add(413, 415, 422);
  return [...codes].sort((a, b) => a - b);
}

/**
 * OpenAPI 3.1 `webhooks`: each event kind as the POST a webhook receives (the body is the event, its
 * payload from the event catalog), so generated clients get a type per kind.
 */
function eventWebhooks(components: Components): Record<string, unknown> {
  const webhooks: Record<string, unknown> = {};
  for (const kind of eventKinds) {
    const name = kind
      .split(/[._]/)
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join('');
    components.schemas[`${name}Event`] = components.convert(eventEnvelopeSchema(kind), 'input');
    webhooks[kind] = {
      post: {
        summary: eventCatalog[kind].description,
        operationId: `on${name}`,
        tags: ['events'],
        security: [],
        requestBody: {
          description: 'the event (`{"event": ..., "state": ...}` when the webhook has state); docs/webhooks.md',
          required: true,
          content: { 'application/json': { schema: { $ref: `${COMPONENTS}${name}Event` } } },
        },
        responses: {
          '2XX': { description: 'received: the delivery is done' },
          '4XX': { description: 'refused: a failed attempt, retried with backoff (contract 7)' },
          default: { description: 'any other answer, a redirect or none: a failed attempt, retried' },
        },
      },
    };
  }
  return webhooks;
}

export interface OpenApiOptions {
  version: string;
  /** SERVICE_PUBLIC_URL (else the daemon's own address): the document's one server. */
  publicUrl: string;
}

/** OpenAPI 3.1 from the route table: the schemas that validate requests are the ones documented. */
export function buildOpenApi(routes: readonly RouteDef[], options: OpenApiOptions): Record<string, unknown> {
  const components = new Components();
  const errorRef = { $ref: `${COMPONENTS}Error` };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.document === false) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const status = String(route.status ?? 200);
    const data = route.response === undefined ? {} : components.convert(route.response, 'output');
    const success = route.path.startsWith('/v1')
      ? { type: 'object', required: ['meta', 'data'], properties: { meta: { $ref: `${COMPONENTS}Meta` }, data } }
      : data;
    const content: Record<string, unknown> =
      route.produces === undefined
        ? { 'application/json': { schema: success } }
        : Object.fromEntries(route.produces.map((media) => [media, { schema: { type: 'string' } }]));
    const responses: Record<string, unknown> = { [status]: { description: 'success', content } };
    for (const also of route.alsoAnswers ?? []) responses[also] = { description: 'the same answer, not a success', content };
    const shape = route.errorBody;
    if (shape !== undefined) components.schemas[shape.name] ??= components.convert(shape.schema, 'output');
    const error = shape === undefined ? errorRef : { $ref: `${COMPONENTS}${shape.name}` };
    for (const code of clientErrorsOf(route))
      responses[code] = { description: clientErrors[code], content: { 'application/json': { schema: error } } };
    responses.default = { description: 'any other error', content: { 'application/json': { schema: error } } };
    const op: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      parameters: [...parameters(components, route.params, 'path'), ...parameters(components, route.query, 'query')],
      responses,
    };
    if (route.body !== undefined) {
      const schema = components.convert(route.body, 'input');
      const content: Record<string, unknown> = { 'application/json': { schema } };
      if (route.bodyFormats?.includes('form') === true) content['application/x-www-form-urlencoded'] = { schema };
      op.requestBody = { required: true, content };
    }
    if (route.auth === 'public' || route.auth === 'none') op.security = [];
    if (route.scope !== undefined) op['x-required-scope'] = route.scope;
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  const webhooks = eventWebhooks(components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard',
      version: options.version,
      description: 'The HTTP API of a Switchyard daemon, generated from the schemas that validate its requests.',
    },
    servers: [{ url: options.publicUrl, description: 'SERVICE_PUBLIC_URL' }],
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (svc_...) or HS256 JWT' } },
    },
    security: [{ bearer: [] }],
  };
}
