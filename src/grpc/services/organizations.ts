import { createOrganizationBody, updateOrganizationBody } from '../../domain/identity/schemas.js';
import { emailSchema, idSchema } from '../../domain/schemas.js';
import type { OrganizationServiceHandlers } from '../generated/switchyard/admin/v1/OrganizationService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const createRequest = createOrganizationBody.extend({
  owner_principal_id: idSchema.optional(),
  owner_email: emailSchema.optional(),
});

function implement({ services, log }: ServiceContext): OrganizationServiceHandlers {
  const orgs = services.organizations;
  return {
    CreateOrganization: unary(log, async (req, { actor }) => {
      const { organization, owner } = await orgs.createOrganization(actor, parseRequest(createRequest, req));
      return { organization: toMessage(organization), owner: toMessage(owner) };
    }),
    ListOrganizations: unary(log, async (req, { actor }) => {
      const page = await orgs.listOrganizations(actor, pageOptions(req));
      return { organizations: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetOrganization: unary(log, async (req) => toMessage(await resolveOrganization(services, req.organization))),
    UpdateOrganization: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const patch = parseRequest(updateOrganizationBody, { slug: req.slug, display_name: req.display_name });
      return toMessage(await orgs.updateOrganization(actor, org.id, patch));
    }),
  };
}

export const organizationService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/organizations.proto',
  serviceName: 'switchyard.admin.v1.OrganizationService',
  implement,
};
