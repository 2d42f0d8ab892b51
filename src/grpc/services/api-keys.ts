import { operator } from '../../domain/identity/caller.js';
import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { createApiKeyBody } from '../../domain/identity/schemas.js';
import type { ApiKeyServiceHandlers } from '../generated/switchyard/admin/v1/ApiKeyService.js';
import { pageOptions, parseRequest, resolveOrganization, resolvePrincipal, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

// The HTTP body's field rules; the organization is named by id or slug here, and the operator
// chooses which member the key acts as.
const { name, scopes, expires_in_seconds } = createApiKeyBody.shape;
const createRequest = z.object({ name, scopes, expires_in_seconds, principal_id: idSchema.optional() });
const keyRef = z.object({ id: z.string().trim().min(1, 'required: a key id or name') });

function implement({ services, log }: ServiceContext): ApiKeyServiceHandlers {
  const { apiKeys } = services;
  /** The key a request names by id (organization optional) or by name (organization required). */
  const findKey = async (req: { id: string; organization: string }) => {
    const org = req.organization.trim() === '' ? undefined : await resolveOrganization(services, req.organization);
    return apiKeys.findApiKey(operator, org?.id, parseRequest(keyRef, req).id);
  };
  return {
    CreateApiKey: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const principal = req.principal_id === undefined ? undefined : await resolvePrincipal(services, req.principal_id);
      const input = parseRequest(createRequest, { ...req, principal_id: principal });
      const { raw_key, ...key } = await apiKeys.createApiKey(actor, { ...input, organization_id: org.id });
      return { api_key: toMessage(key), raw_key };
    }),
    ListApiKeys: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const page = await apiKeys.listApiKeys(actor, org.id, { ...pageOptions(req), include_revoked: req.include_revoked });
      return { api_keys: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetApiKey: unary(log, async (req) => toMessage(await findKey(req))),
    RevokeApiKey: unary(log, async (req, { actor }) => toMessage(await apiKeys.revokeApiKey(actor, (await findKey(req)).id))),
  };
}

export const apiKeyService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/api_keys.proto',
  serviceName: 'switchyard.admin.v1.ApiKeyService',
  implement,
};
