// Who is calling: the result of authentication, handed to services for permission decisions.

export const apiKeyScopes = ['jobs:write', 'jobs:read', 'providers:execute', 'workflows:write', 'workflows:read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export interface Caller {
  principalId: string;
  method: 'api_key' | 'jwt' | 'dev';
  /** Set when the caller authenticated with an API key: it acts only inside its organization. */
  apiKey?: { id: string; organizationId: string; scopes: ApiKeyScope[] };
}
