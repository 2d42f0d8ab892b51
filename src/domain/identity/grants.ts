import { AppError, limitReached, notFound } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import { isOperator, type Actor } from './caller.js';
import { organizationRef, type Action, type PermissionEngine } from './permissions.js';
import type { PrincipalService } from './principals.js';
import type { IdentityStore } from './store.js';
import type { Grant } from './types.js';

export interface CreateGrantInput {
  principal_id: string;
  action: Action;
  resource_type: string;
  resource_id: string;
}

/** ACL grants: one principal, one action, one resource. */
export class GrantService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly permissions: PermissionEngine,
    private readonly principals: PrincipalService,
    private readonly audit: AuditLog,
    /** SERVICE_MAX_GRANTS_PER_PRINCIPAL: grants one principal may hold in one organization. */
    private readonly maxPerPrincipal: number,
  ) {}

  async createGrant(actor: Actor, organizationId: string, input: CreateGrantInput): Promise<Grant> {
    await this.permissions.authorize(actor, 'grant.create', organizationRef(organizationId));
    const resource = { type: input.resource_type, id: input.resource_id };
    const location = await this.permissions.locate(resource.type, resource.id);
    if (location?.organizationId !== organizationId)
      throw new AppError('validation_failed', 'the resource must exist in this organization', {
        details: { fields: { resource_id: 'not found in this organization' } },
      });
    // No one hands out what they do not hold: an admin cannot grant (even to themselves) an owner-only action.
    const own = await this.permissions.decide(actor, input.action, resource);
    if (!own.allowed) {
      throw new AppError('forbidden', `only a caller allowed to ${input.action} on this resource may grant it`, {
        details: { action: input.action, reason: own.reason },
      });
    }
    // The count and the write share one lock and one transaction, so concurrent creates never pass the cap.
    return this.storage.transaction({ locks: [`grants:${organizationId}:${input.principal_id}`] }, async (tx) => {
      const held = await tx
        .read(this.store.grants)
        .countUpTo('principal', [input.principal_id, organizationId], this.maxPerPrincipal);
      if (held >= this.maxPerPrincipal)
        throw limitReached(
          'max_grants_per_principal',
          this.maxPerPrincipal,
          'principal_id',
          `holds ${this.maxPerPrincipal} grants in this organization (the maximum)`,
          `the principal already holds the maximum of ${this.maxPerPrincipal} grants in this organization; delete one first`,
        );
      const grant: Grant = {
        id: newId(),
        organization_id: organizationId,
        principal_id: input.principal_id,
        action: input.action,
        resource_type: input.resource_type,
        resource_id: input.resource_id,
        created_by: isOperator(actor) ? null : actor.principalId,
        created_at: nowIso(),
      };
      await this.principals.ensurePrincipalRecord(tx, input.principal_id);
      this.audit.recordChange(tx, actor, 'grant.create', 'grant', undefined, grant);
      return tx.put(this.store.grants, grant);
    });
  }

  async listGrants(actor: Actor, organizationId: string, page: PageOptions = {}): Promise<Page<Grant>> {
    await this.permissions.authorize(actor, 'grant.read', organizationRef(organizationId));
    return this.store.grants.listBy('organization', organizationId, page);
  }

  async deleteGrant(actor: Actor, organizationId: string, grantId: string): Promise<Grant> {
    await this.permissions.authorize(actor, 'grant.delete', organizationRef(organizationId));
    const grant = await this.store.grants.get(grantId);
    if (grant === undefined || grant.organization_id !== organizationId) throw notFound('grant');
    await this.storage.transaction({}, (tx) => {
      this.audit.recordChange(tx, actor, 'grant.delete', 'grant', grant, undefined);
      return tx.delete(this.store.grants, grant.id);
    });
    return grant;
  }
}
