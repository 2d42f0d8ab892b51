import { z } from 'zod';
import type { RouteDef } from './route.js';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
}

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['meta', 'error'],
  properties: {
    meta: { type: 'object', properties: { status: { type: 'integer' } } },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (schema === undefined) return [];
  const json = toSchema(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

/** OpenAPI 3.1 from the route table: the schemas that validate requests are the ones documented. */
export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const status = String(route.status ?? 200);
    const data = route.response === undefined ? {} : toSchema(route.response, 'output');
    const isV1 = route.path.startsWith('/v1');
    const success = isV1
      ? {
          type: 'object',
          required: ['meta', 'data'],
          properties: {
            meta: { type: 'object', properties: { status: { type: 'integer' }, next_cursor: { type: ['string', 'null'] } } },
            data,
          },
        }
      : data;
    const op: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      responses: {
        [status]: { description: 'success', content: { 'application/json': { schema: success } } },
        default: { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (route.body !== undefined) {
      const schema = toSchema(route.body, 'input');
      const content: Record<string, unknown> = { 'application/json': { schema } };
      if (route.bodyFormats?.includes('form') === true) content['application/x-www-form-urlencoded'] = { schema };
      op.requestBody = { required: true, content };
    }
    if (route.auth === 'public') op.security = [];
    if (route.scope !== undefined) op['x-required-scope'] = route.scope;
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Switchyard', version },
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (svc_...) or HS256 JWT' } },
    },
    security: [{ bearer: [] }],
  };
}
