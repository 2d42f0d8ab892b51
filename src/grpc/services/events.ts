import { z } from 'zod';
import { eventIdSchema, eventKindSchema } from '../../domain/events/schemas.js';
import type { DomainEvent } from '../../domain/events/types.js';
import { operator } from '../../domain/identity/caller.js';
import type { Event } from '../generated/switchyard/admin/v1/Event.js';
import type { EventServiceHandlers } from '../generated/switchyard/admin/v1/EventService.js';
import { pageOptions, parseRequest, resolveOrganization, serverStream, toMessage, unary } from '../handler.js';
import { toStruct } from '../json-value.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const tailRequest = z.object({ kind: eventKindSchema.optional(), since: eventIdSchema.optional() });
const listRequest = z.object({ kind: eventKindSchema.optional(), after: eventIdSchema.optional() });

/** An event as a message: null fields unset, the payload as a Struct. */
export function eventMessage(event: DomainEvent): Event {
  return { ...toMessage(event), payload: toStruct(event.payload) };
}

function implement({ services, log, closing }: ServiceContext): EventServiceHandlers {
  return {
    TailEvents: serverStream(log, closing, async (req, { send, ready, signal }) => {
      const org = await resolveOrganization(services, req.organization);
      const { kind, since } = parseRequest(tailRequest, { kind: req.kind, since: req.since });
      const events = await services.events.openTail(operator, org.id, { kind, since, signal });
      ready(); // listening: the client may count on every event committed from now on
      for await (const event of events) await send(eventMessage(event));
    }),
    ListEvents: unary(log, async (req) => {
      const org = await resolveOrganization(services, req.organization);
      const { kind, after } = parseRequest(listRequest, { kind: req.kind, after: req.after });
      const page = await services.events.listEvents(operator, org.id, { ...pageOptions(req), kind, after });
      return { events: page.items.map(eventMessage), next_cursor: page.nextCursor ?? '' };
    }),
  };
}

export const eventService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/events.proto',
  serviceName: 'switchyard.admin.v1.EventService',
  implement,
};
