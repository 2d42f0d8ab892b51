import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { outboxStatuses, type OutboxEntryView } from '../../domain/email/types.js';
import type { OutboxEntry } from '../generated/switchyard/admin/v1/OutboxEntry.js';
import type { OutboxServiceHandlers } from '../generated/switchyard/admin/v1/OutboxService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const statusFilter = z.object({ status: z.enum(outboxStatuses, `must be one of ${outboxStatuses.join(', ')}`).optional() });
const entryRef = z.object({ id: idSchema });

/** Nested attempts too: their null fields are unset, and `interrupted` is false unless it happened. */
function entryMessage(entry: OutboxEntryView): OutboxEntry {
  return { ...toMessage(entry), attempts: entry.attempts.map((a) => toMessage({ ...a, interrupted: a.interrupted === true })) };
}

function implement({ services, log }: ServiceContext): OutboxServiceHandlers {
  return {
    ListOutbox: unary(log, async (req, { actor }) => {
      const org = req.organization === undefined ? undefined : await resolveOrganization(services, req.organization);
      const { status } = parseRequest(statusFilter, { status: req.status });
      const page = await services.outbox.listOutbox(actor, { ...pageOptions(req), organization_id: org?.id, status });
      return { entries: page.items.map(entryMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetOutboxEntry: unary(log, async (req, { actor }) =>
      entryMessage(await services.outbox.getOutboxEntry(actor, parseRequest(entryRef, req).id)),
    ),
    RetryOutboxEntry: unary(log, async (req, { actor }) =>
      entryMessage(await services.outbox.retryOutboxEntry(actor, parseRequest(entryRef, req).id)),
    ),
  };
}

export const outboxService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/outbox.proto',
  serviceName: 'switchyard.admin.v1.OutboxService',
  implement,
};
