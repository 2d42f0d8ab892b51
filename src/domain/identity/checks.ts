import type { Actor } from './caller.js';
import type { Action, PermissionEngine } from './permissions.js';
import type { Role } from './roles.js';

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

/**
 * Permission questions asked over the API. They are answered by the same decide() that guards the
 * routes, on the same resource, so a check and the route it asks about agree.
 */
export class PermissionCheckService {
  constructor(private readonly permissions: PermissionEngine) {}

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
}
