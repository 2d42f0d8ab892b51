import { createPortalSessionBody } from '../../domain/portal/schemas.js';
import type { PortalServiceHandlers } from '../generated/switchyard/admin/v1/PortalService.js';
import { parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

function implement({ services, log }: ServiceContext): PortalServiceHandlers {
  return {
    CreatePortalSession: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      // The HTTP body's rules; proto3 cannot tell an empty list from none, which means the default.
      const input = parseRequest(createPortalSessionBody, {
        ...(req.ttl_seconds === undefined ? {} : { ttl_seconds: req.ttl_seconds }),
        ...(req.capabilities.length === 0 ? {} : { capabilities: req.capabilities }),
      });
      return toMessage(await services.portal.createSession(actor, org.id, input));
    }),
  };
}

export const portalService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/portal.proto',
  serviceName: 'switchyard.admin.v1.PortalService',
  implement,
};
