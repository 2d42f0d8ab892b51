import { z } from 'zod';
import { operator } from '../../domain/identity/caller.js';
import { createApiKeyBody } from '../../domain/identity/schemas.js';
import type { ApiKeyServiceHandlers } from '../generated/switchyard/admin/v1/ApiKeyService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

// The HTTP body's field rules; the organization is named by id or slug here, and the operator
// chooses which member the key acts as.
const { name, scopes, expires_in_seconds } = createApiKeyBody.shape;
const createRequest = z.object({ name, scopes, expires_in_seconds, principal_id: z.uuid('must be a UUID').optional() });
const keyRef = z.object({ id: z.uuid('must be a UUID') });

function implement({ identity, log }: ServiceContext): ApiKeyServiceHandlers {
  const { apiKeys } = identity;
  return {
    CreateApiKey: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      const input = parseRequest(createRequest, req);
      const { raw_key, ...key } = await apiKeys.create(operator, { ...input, organization_id: org.id });
      return { api_key: toMessage(key), raw_key };
    }),
    ListApiKeys: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      const page = await apiKeys.list(operator, org.id, pageOptions(req));
      return { api_keys: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    RevokeApiKey: unary(log, async (req) => toMessage(await apiKeys.revoke(operator, parseRequest(keyRef, req).id))),
  };
}

export const apiKeyService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/api_keys.proto',
  serviceName: 'switchyard.admin.v1.ApiKeyService',
  implement,
};
