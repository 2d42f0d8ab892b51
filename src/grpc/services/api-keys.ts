import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { createApiKeyBody } from '../../domain/identity/schemas.js';
import type { ApiKeyServiceHandlers } from '../generated/switchyard/admin/v1/ApiKeyService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

// The HTTP body's field rules; the organization is named by id or slug here, and the operator
// chooses which member the key acts as.
const { name, scopes, expires_in_seconds } = createApiKeyBody.shape;
const createRequest = z.object({ name, scopes, expires_in_seconds, principal_id: idSchema.optional() });
const keyRef = z.object({ id: idSchema });

function implement({ services, log }: ServiceContext): ApiKeyServiceHandlers {
  const { apiKeys } = services;
  return {
    CreateApiKey: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const input = parseRequest(createRequest, req);
      const { raw_key, ...key } = await apiKeys.createApiKey(actor, { ...input, organization_id: org.id });
      return { api_key: toMessage(key), raw_key };
    }),
    ListApiKeys: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const page = await apiKeys.listApiKeys(actor, org.id, pageOptions(req));
      return { api_keys: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    RevokeApiKey: unary(log, async (req, { actor }) =>
      toMessage(await apiKeys.revokeApiKey(actor, parseRequest(keyRef, req).id)),
    ),
  };
}

export const apiKeyService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/api_keys.proto',
  serviceName: 'switchyard.admin.v1.ApiKeyService',
  implement,
};
