import { z } from 'zod';
import { listEventTypes } from '../../domain/events/catalog.js';
import { eventIdSchema, eventKindSchema } from '../../domain/events/schemas.js';
import type { Services } from '../../areas.js';
import { defineRoute, idParams, pageQuery, Reply } from '../route.js';

const eventSchema = z.object({
  id: z.string(),
  kind: eventKindSchema,
  organization_id: z.string(),
  workflow_id: z.string().nullable(),
  run_id: z.string().nullable(),
  node_key: z.string().nullable(),
  job_id: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  timestamp: z.string(),
});

const eventTypeSchema = z.object({
  kind: eventKindSchema,
  description: z.string(),
  payload_schema: z.record(z.string(), z.unknown()).meta({ description: "the payload's JSON Schema (draft 2020-12)" }),
  example: z.record(z.string(), z.unknown()).meta({ description: 'an example payload' }),
});

export function eventRoutes({ events }: Services) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/event-types',
      summary: 'Every event kind the daemon emits: a description, its payload JSON Schema and an example (any caller)',
      tag: 'events',
      scope: 'any',
      response: z.array(eventTypeSchema),
      handler: () => listEventTypes(),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/events',
      summary: "The organization's domain events in order; resume with ?after=<event id> or ?cursor=",
      tag: 'events',
      params: idParams('id'),
      query: pageQuery.extend({
        after: eventIdSchema.optional(),
        kind: eventKindSchema.optional(),
      }),
      response: z.array(eventSchema),
      handler: async (ctx) => Reply.page(await events.listEvents(ctx.caller, ctx.params.id, ctx.query)),
    }),
  ];
}
