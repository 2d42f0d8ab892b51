import type { Logger } from '../../log.js';
import type { Storage } from '../../storage/db.js';
import type { EventLog } from '../events/service.js';
import { ApiKeyService } from './api-keys.js';
import { AuthenticationService, type AuthenticationSettings } from './authenticate.js';
import type { Actor } from './caller.js';
import { OrganizationService } from './organizations.js';
import { PermissionEngine, type Action, type Decision } from './permissions.js';
import { createIdentityStore, type IdentityStore } from './store.js';

export interface CheckInput {
  action: Action;
  resource_type?: string;
  resource_id?: string;
}

export type CheckAnswer = Omit<Decision, 'visible'>;

export interface Identity {
  store: IdentityStore;
  permissions: PermissionEngine;
  organizations: OrganizationService;
  apiKeys: ApiKeyService;
  authentication: AuthenticationService;
  /** A permission question answered for the actor; a resource it cannot see is simply not allowed. */
  check: (actor: Actor, input: CheckInput) => Promise<CheckAnswer>;
}

export function createIdentity(storage: Storage, events: EventLog, settings: AuthenticationSettings, log: Logger): Identity {
  const store = createIdentityStore(storage);
  const permissions = new PermissionEngine(store);
  const organizations = new OrganizationService(storage, store, permissions, events);
  const apiKeys = new ApiKeyService(storage, store, permissions, organizations, log);
  const authentication = new AuthenticationService(apiKeys, settings);

  const check = async (actor: Actor, input: CheckInput): Promise<CheckAnswer> => {
    let type = input.resource_type;
    let id = input.resource_id;
    if (type === undefined && id === undefined && 'apiKey' in actor && actor.apiKey !== undefined) {
      type = 'organization';
      id = actor.apiKey.organizationId;
    }
    if (type === undefined || id === undefined)
      return { allowed: false, role: null, reason: 'resource_type and resource_id are required' };
    if (!permissions.resourceTypes.includes(type)) return { allowed: false, role: null, reason: `unknown resource type ${type}` };
    const { visible: _visible, ...answer } = await permissions.decide(actor, input.action, { type, id });
    return answer;
  };

  return { store, permissions, organizations, apiKeys, authentication, check };
}
