import { z } from 'zod';
import { operator } from '../../domain/identity/caller.js';
import type { Action } from '../../domain/identity/permissions.js';
import { createGrantBody } from '../../domain/identity/schemas.js';
import type { GrantServiceHandlers } from '../generated/switchyard/admin/v1/GrantService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const grantRef = z.object({ grant_id: z.uuid('must be a UUID') });

function implement({ identity, log }: ServiceContext): GrantServiceHandlers {
  const orgs = identity.organizations;
  return {
    CreateGrant: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      const input = parseRequest(createGrantBody, req);
      return toMessage(await orgs.createGrant(operator, org.id, { ...input, action: input.action as Action }));
    }),
    ListGrants: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      const page = await orgs.listGrants(operator, org.id, pageOptions(req));
      return { grants: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    DeleteGrant: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      return toMessage(await orgs.deleteGrant(operator, org.id, parseRequest(grantRef, req).grant_id));
    }),
  };
}

export const grantService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/grants.proto',
  serviceName: 'switchyard.admin.v1.GrantService',
  implement,
};
