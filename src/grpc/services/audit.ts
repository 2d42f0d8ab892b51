import { auditFilters } from '../../domain/audit/schemas.js';
import type { AuditRecord } from '../../domain/audit/types.js';
import type { AuditRecord as AuditRecordMessage } from '../generated/switchyard/admin/v1/AuditRecord.js';
import type { AuditServiceHandlers } from '../generated/switchyard/admin/v1/AuditService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import { toStruct } from '../json-value.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

/** A record as a message: the changed fields as Structs, an absent side left unset. */
function recordMessage(record: AuditRecord): AuditRecordMessage {
  const { changes, ...rest } = record;
  const { before, after } = changes;
  return {
    ...toMessage(rest),
    actor: record.actor,
    ...(before === null ? {} : { before: toStruct(before) }),
    ...(after === null ? {} : { after: toStruct(after) }),
  };
}

function implement({ services, log }: ServiceContext): AuditServiceHandlers {
  return {
    ListAuditLog: unary(log, async (req, { actor }) => {
      const org = req.organization === '' ? null : await resolveOrganization(services, req.organization);
      const filters = parseRequest(auditFilters, {
        ...(req.actor === undefined ? {} : { actor: req.actor }),
        ...(req.action === undefined ? {} : { action: req.action }),
        ...(req.since === undefined ? {} : { since: req.since }),
        ...(req.until === undefined ? {} : { until: req.until }),
      });
      const page = await services.auditReads.listAuditLog(actor, org?.id ?? null, filters, pageOptions(req));
      return { records: page.items.map(recordMessage), next_cursor: page.nextCursor ?? '' };
    }),
  };
}

export const auditService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/audit.proto',
  serviceName: 'switchyard.admin.v1.AuditService',
  implement,
};
