import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { createGrantBody } from '../../domain/identity/schemas.js';
import type { GrantServiceHandlers } from '../generated/switchyard/admin/v1/GrantService.js';
import { pageOptions, parseRequest, resolveOrganization, resolvePrincipal, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const grantRef = z.object({ grant_id: idSchema });

function implement({ services, log }: ServiceContext): GrantServiceHandlers {
  const { grants } = services;
  return {
    CreateGrant: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const input = parseRequest(createGrantBody, { ...req, principal_id: await resolvePrincipal(services, req.principal_id) });
      return toMessage(await grants.createGrant(actor, org.id, input));
    }),
    ListGrants: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const page = await grants.listGrants(actor, org.id, pageOptions(req));
      return { grants: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    DeleteGrant: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      return toMessage(await grants.deleteGrant(actor, org.id, parseRequest(grantRef, req).grant_id));
    }),
  };
}

export const grantService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/grants.proto',
  serviceName: 'switchyard.admin.v1.GrantService',
  implement,
};
