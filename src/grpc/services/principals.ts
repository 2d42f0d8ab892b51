import type { PrincipalServiceHandlers } from '../generated/switchyard/admin/v1/PrincipalService.js';
import { parseRequest, toMessage, unary } from '../handler.js';
import { z } from 'zod';
import { emailSchema } from '../../domain/schemas.js';
import { viewPrincipal } from '../../domain/identity/types.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const principalRef = z.object({ principal: z.string().trim().min(1, 'required: a principal id or email') });
const linkRequest = z.object({ email: emailSchema, subject: z.string().min(1, 'required: the JWT sub') });

function implement({ services, log }: ServiceContext): PrincipalServiceHandlers {
  return {
    GetPrincipal: unary(log, async (req, { actor }) => {
      const { principal, organizations } = await services.principals.describePrincipal(
        actor,
        parseRequest(principalRef, req).principal,
      );
      return { principal: toMessage(viewPrincipal(principal)), organizations: organizations.map(toMessage) };
    }),
    LinkPrincipal: unary(log, async (req, { actor }) => {
      const { email, subject } = parseRequest(linkRequest, req);
      return toMessage(viewPrincipal(await services.principals.linkSubject(actor, email, subject)));
    }),
  };
}

export const principalService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/principals.proto',
  serviceName: 'switchyard.admin.v1.PrincipalService',
  implement,
};
