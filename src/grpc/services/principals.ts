import type { PrincipalServiceHandlers } from '../generated/switchyard/admin/v1/PrincipalService.js';
import { parseRequest, toMessage, unary } from '../handler.js';
import { z } from 'zod';
import type { AdminServiceModule, ServiceContext } from './context.js';

const principalRef = z.object({ principal: z.string().trim().min(1, 'required: a principal id or email') });

function implement({ services, log }: ServiceContext): PrincipalServiceHandlers {
  return {
    GetPrincipal: unary(log, async (req, { actor }) => {
      const { principal, organizations } = await services.principals.describePrincipal(
        actor,
        parseRequest(principalRef, req).principal,
      );
      return { principal: toMessage(principal), organizations: organizations.map(toMessage) };
    }),
  };
}

export const principalService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/principals.proto',
  serviceName: 'switchyard.admin.v1.PrincipalService',
  implement,
};
