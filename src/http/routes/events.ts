import { z } from 'zod';
import type { EventLog } from '../../domain/events/service.js';
import { eventKinds } from '../../domain/events/types.js';
import type { PermissionEngine } from '../../domain/identity/permissions.js';
import { defineRoute, pageQuery, Reply, uuidParam } from '../route.js';

const eventSchema = z.object({
  id: z.string(),
  kind: z.enum(eventKinds),
  organization_id: z.string(),
  workflow_id: z.string().nullable(),
  run_id: z.string().nullable(),
  node_key: z.string().nullable(),
  job_id: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  timestamp: z.string(),
});

export function eventRoutes(events: EventLog, permissions: PermissionEngine) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/events',
      summary: "The organization's domain events in order; resume with ?after=<event id> or ?cursor=",
      tag: 'events',
      params: z.object({ id: uuidParam }),
      query: pageQuery.extend({
        after: z
          .string()
          .regex(/^evt_[0-9A-Z]{26}$/, 'must be an event id')
          .optional(),
        kind: z.enum(eventKinds).optional(),
      }),
      response: z.array(eventSchema),
      handler: async (ctx) => {
        await permissions.authorize(ctx.caller!, 'event.read', { type: 'organization', id: ctx.params.id }, 'organization');
        const { after, kind, limit, cursor } = ctx.query;
        return Reply.page(await events.read({ organizationId: ctx.params.id, after, kind, limit, cursor }));
      },
    }),
  ];
}
