// Who is acting: an authenticated HTTP caller, or the operator (gRPC admin socket / CLI).

export const apiKeyScopes = ['jobs:write', 'jobs:read', 'providers:execute', 'workflows:write', 'workflows:read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export interface Caller {
  principalId: string;
  method: 'api_key' | 'jwt' | 'dev';
  /** Set when the caller authenticated with an API key: it acts only inside its organization. */
  apiKey?: { id: string; organizationId: string; scopes: ApiKeyScope[] };
}

/** The operator holds the admin socket: every permission check passes for it. */
export const operator = Object.freeze({ operator: true as const });
export type Operator = typeof operator;
export type Actor = Caller | Operator;

export function isOperator(actor: Actor): actor is Operator {
  return 'operator' in actor;
}
