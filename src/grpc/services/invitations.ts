import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { createInvitationBody, invitationStatusSchema } from '../../domain/invitations/schemas.js';
import type { InvitationServiceHandlers } from '../generated/switchyard/admin/v1/InvitationService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

// The HTTP body's field rules; the organization is named by id or slug here.
const { email, role } = createInvitationBody.shape;
const createRequest = z.object({ email, role });
const statusFilter = z.object({ status: invitationStatusSchema.optional() });
const invitationRef = z.object({ id: idSchema });

function implement({ services, log }: ServiceContext): InvitationServiceHandlers {
  return {
    CreateInvitation: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const input = parseRequest(createRequest, { email: req.email, role: req.role });
      return toMessage(await services.invitations.createInvitation(actor, { ...input, organization_id: org.id }));
    }),
    ListInvitations: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const { status } = parseRequest(statusFilter, { status: req.status });
      const page = await services.invitations.listInvitations(actor, org.id, { ...pageOptions(req), status });
      return { invitations: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetInvitation: unary(log, async (req, { actor }) =>
      toMessage(await services.invitations.getInvitation(actor, parseRequest(invitationRef, req).id)),
    ),
    RevokeInvitation: unary(log, async (req, { actor }) =>
      toMessage(await services.invitations.revokeInvitation(actor, parseRequest(invitationRef, req).id)),
    ),
    ResendInvitation: unary(log, async (req, { actor }) =>
      toMessage(await services.invitations.resendInvitation(actor, parseRequest(invitationRef, req).id)),
    ),
  };
}

export const invitationService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/invitations.proto',
  serviceName: 'switchyard.admin.v1.InvitationService',
  implement,
};
