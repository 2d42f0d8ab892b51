// Who is acting: an authenticated HTTP caller, or the operator (gRPC admin socket / CLI).

import { validationFailed } from '../../errors.js';

export const apiKeyScopes = ['jobs:write', 'jobs:read', 'providers:execute', 'workflows:write', 'workflows:read'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** The request a change arrived with: what the audit log records beside the actor. */
export interface Origin {
  source: 'http' | 'grpc';
  requestId: string;
}

export interface Caller {
  principalId: string;
  method: 'api_key' | 'jwt' | 'dev' | 'portal';
  /** Set when the caller authenticated with an API key: it acts only inside its organization. */
  apiKey?: { id: string; organizationId: string; scopes: ApiKeyScope[] };
  /**
   * Set for a portal browser session (docs/portal.md): it acts inside its organization only, and only
   * for the actions its capabilities allow (`portalActions` in permissions.ts).
   */
  portal?: { sessionId: string; organizationId: string; capabilities: readonly ('read' | 'manage_webhooks')[] };
  /** Set by the transport for the request at hand (authentication results are shared between requests). */
  origin?: Origin;
}

/** The operator holds the admin socket: every permission check passes for it. */
export interface Operator {
  readonly operator: true;
  readonly origin?: Origin;
}
/** The operator with no request (the daemon's own work, reads). */
export const operator: Operator = Object.freeze({ operator: true as const });
export type Actor = Caller | Operator;

/** The operator acting through one admin API call. */
export function operatorAt(origin: Origin): Operator {
  return { operator: true, origin };
}

/** The caller as it acts in one request. */
export function callerAt(caller: Caller, origin: Origin): Caller {
  return { principalId: caller.principalId, method: caller.method, apiKey: caller.apiKey, portal: caller.portal, origin };
}

export function isOperator(actor: Actor): actor is Operator {
  return 'operator' in actor;
}

/**
 * Where an organization-level request acts (contract 12, and the provider layer): the organization
 * the body or query names, else the API key's own; a person or the operator must name one (422).
 */
export function organizationOf(actor: Actor, given: string | undefined): string {
  const organizationId = given ?? (isOperator(actor) ? undefined : actor.apiKey?.organizationId);
  if (organizationId === undefined)
    throw validationFailed({ organization_id: 'required: the organization to act in (an API key names its own)' });
  return organizationId;
}
