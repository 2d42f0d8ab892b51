import { AppError, limitReached, notFound, validationFailed } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import { isOperator, type Actor } from './caller.js';
import { organizationRef, type Action, type PermissionEngine } from './permissions.js';
import { isMember } from './departures.js';
import { membersLock } from './memberships.js';
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
    private readonly audit: AuditLog,
    /** SERVICE_MAX_GRANTS_PER_PRINCIPAL: grants one principal may hold in one organization. */
    private readonly maxPerPrincipal: number,
  ) {}

  async createGrant(actor: Actor, organizationId: string, input: CreateGrantInput): Promise<Grant> {
    await this.permissions.authorize(actor, 'grant.create', organizationRef(organizationId));
    const resource = { type: input.resource_type, id: input.resource_id };
    // The membership is read under the organization's members lock, so a removal cannot slip in between
    // the check and the write; the count and the write share the grant lock, so concurrent creates never pass the cap.
    const locks = [membersLock(organizationId), `grants:${organizationId}:${input.principal_id}`];
    return this.storage.transaction({ locks }, async (tx) => {
      const location = await this.permissions.locate(resource.type, resource.id);
      const fields: Record<string, string> = {};
      if (location?.organizationId !== organizationId) fields.resource_id = 'not found in this organization';
      // Only a member holds grants: a grant must not open an organization to a stranger. The answer is the
      // same for an id that names no principal, so it tells nothing about principals elsewhere.
      if (!(await isMember(this.store, tx, organizationId, input.principal_id)))
        fields.principal_id = 'not a member of this organization';
      if (Object.keys(fields).length > 0)
        throw validationFailed(
          fields,
          fields.principal_id === undefined
            ? 'the resource must exist in this organization'
            : 'a grant goes to a member of this organization: add the principal as a member first',
        );
      // No one hands out what they do not hold: an admin cannot grant (even to themselves) an owner-only action.
      const own = await this.permissions.decideAt(actor, input.action, resource, location);
      if (!own.allowed) {
        throw new AppError('forbidden', `only a caller allowed to ${input.action} on this resource may grant it`, {
          details: { action: input.action, reason: own.reason },
        });
      }
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
