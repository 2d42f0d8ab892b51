import { operator } from '../../domain/identity/caller.js';
import { permissionCheckFor } from '../../domain/identity/schemas.js';
import type { PermissionServiceHandlers } from '../generated/switchyard/admin/v1/PermissionService.js';
import { parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

function implement({ services, log }: ServiceContext): PermissionServiceHandlers {
  return {
    CheckPermission: unary(log, async (req) => {
      const org = await resolveOrganization(services, req.organization);
      const { principal, api_key_id, ...check } = parseRequest(permissionCheckFor, req);
      return toMessage(await services.permissionChecks.checkPermissionFor(operator, org.id, { principal, api_key_id }, check));
    }),
  };
}

export const permissionService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/permissions.proto',
  serviceName: 'switchyard.admin.v1.PermissionService',
  implement,
};
