import { AppError, notFound, validationFailed } from '../../errors.js';
import { outsideTx } from '../../storage/tx-check.js';
import { emailSchema, idSchema } from '../schemas.js';
import { isOperator, type Actor, type Caller } from './caller.js';
import { actionCatalog, type Action, type PermissionEngine } from './permissions.js';
import type { PrincipalService } from './principals.js';
import type { Role } from './roles.js';
import type { IdentityStore } from './store.js';

export interface CheckInput {
  action: Action;
  resource_type?: string;
  resource_id?: string;
}

/** The answer of POST /v1/permissions/check: allowed, the caller's role, and why. */
export interface CheckAnswer {
  allowed: boolean;
  role: Role | null;
  reason: string;
}

/** Whom the operator asks about: a principal (id, or the email of a registered one) or else an API key. */
export interface CheckSubject {
  principal?: string;
  api_key_id?: string;
}

/** A check for someone else: the answer, what was asked, and what the action needs. */
export interface SubjectCheckAnswer extends CheckAnswer {
  organization_id: string;
  principal_id: string;
  api_key_id: string | null;
  action: Action;
  resource_type: string;
  resource_id: string;
  required_role: Role;
}

/**
 * Permission questions asked over the API. They are answered by the same decide() that guards the
 * routes, on the same resource, so a check and the route it asks about agree.
 */
export class PermissionCheckService {
  constructor(
    private readonly permissions: PermissionEngine,
    private readonly principals: PrincipalService,
    private readonly store: IdentityStore,
  ) {}

  async checkPermission(actor: Actor, input: CheckInput): Promise<CheckAnswer> {
    let type = input.resource_type;
    let id = input.resource_id;
    // An API key asks about its own organization when it names no resource.
    if (type === undefined && id === undefined && 'apiKey' in actor && actor.apiKey !== undefined) {
      type = 'organization';
      id = actor.apiKey.organizationId;
    }
    if (type === undefined || id === undefined)
      return { allowed: false, role: null, reason: 'resource_type and resource_id are required' };
    if (!this.permissions.resourceTypes.includes(type))
      return { allowed: false, role: null, reason: `unknown resource type ${type}` };
    const { allowed, role, reason } = await this.permissions.decide(actor, input.action, { type, id });
    return { allowed, role, reason };
  }

  /** Up to 100 checks, answered in order. */
  async checkPermissions(actor: Actor, inputs: CheckInput[]): Promise<CheckAnswer[]> {
    return Promise.all(inputs.map((input) => this.checkPermission(actor, input)));
  }

  /**
   * What checkPermission answers `subject` in an organization (the operator debugging a 403): a
   * principal acts with its roles and grants, an API key as its principal narrowed by its scopes.
   * Without a resource, the organization itself.
   */
  async checkPermissionFor(
    actor: Actor,
    organizationId: string,
    subject: CheckSubject,
    input: CheckInput,
  ): Promise<SubjectCheckAnswer> {
    if (!isOperator(actor)) throw new AppError('forbidden', "only the operator may check someone else's permissions");
    const { caller, refusal } = await this.callerOf(organizationId, subject);
    const resource = { type: input.resource_type ?? 'organization', id: input.resource_id ?? organizationId };
    const asked = {
      organization_id: organizationId,
      principal_id: caller.principalId,
      api_key_id: caller.apiKey?.id ?? null,
      action: input.action,
      resource_type: resource.type,
      resource_id: resource.id,
      required_role: actionCatalog[input.action].role,
    };
    if (refusal !== undefined) return { ...asked, allowed: false, role: null, reason: refusal };
    // A resource of another organization is not this organization's question.
    const location = this.permissions.resourceTypes.includes(resource.type)
      ? await this.permissions.locate(resource.type, resource.id)
      : undefined;
    if (location !== undefined && location.organizationId !== organizationId)
      return { ...asked, allowed: false, role: null, reason: 'resource not found in this organization' };
    return {
      ...asked,
      ...(await this.checkPermission(caller, { ...input, resource_type: resource.type, resource_id: resource.id })),
    };
  }

  /** The caller a subject would be over HTTP; a revoked or expired key is refused before any check (401). */
  private async callerOf(organizationId: string, subject: CheckSubject): Promise<{ caller: Caller; refusal?: string }> {
    if (subject.principal === undefined) {
      const keyId = subject.api_key_id;
      // A permission check's own read, like the engine's (outsideTx): inside a transaction too.
      const key = keyId === undefined ? undefined : await outsideTx(() => this.store.apiKeys.get(keyId));
      if (key === undefined || key.organization_id !== organizationId) throw notFound('api key');
      const caller: Caller = {
        principalId: key.principal_id,
        method: 'api_key',
        apiKey: { id: key.id, organizationId: key.organization_id, scopes: key.scopes },
      };
      if (key.revoked_at !== null) return { caller, refusal: 'the API key is revoked: requests with it get 401' };
      if (key.expires_at !== null && Date.parse(key.expires_at) <= Date.now())
        return { caller, refusal: 'the API key has expired: requests with it get 401' };
      return { caller };
    }
    // As a JWT or the development header acts: the principal's own roles and grants, no key's scopes.
    if (idSchema.safeParse(subject.principal).success) return { caller: { principalId: subject.principal, method: 'jwt' } };
    if (!emailSchema.safeParse(subject.principal).success)
      throw validationFailed(
        { principal: 'a principal id (UUID) or an email' },
        'invalid principal: a principal id (UUID) or an email',
      );
    const email = subject.principal;
    const principal = await outsideTx(() => this.principals.findPrincipalByEmail(email));
    if (principal === undefined) throw notFound('principal');
    return { caller: { principalId: principal.id, method: 'jwt' } };
  }
}
