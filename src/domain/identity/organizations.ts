import { AppError, notFound } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventLog } from '../events/service.js';
import { isOperator, type Actor } from './caller.js';
import { putMembership } from './membership-writes.js';
import { atOrganization, organizationRef, type PermissionEngine } from './permissions.js';
import { principalEmailLock, type PrincipalService } from './principals.js';
import type { IdentityStore } from './store.js';
import type { Membership, Organization } from './types.js';

export interface CreateOrganizationInput {
  slug: string;
  display_name?: string;
  /** Operator only: who becomes the first owner (default: a new principal). */
  owner_principal_id?: string;
  owner_email?: string;
}

/** Organizations: create (the creator becomes owner), read, list the caller's, rename. */
export class OrganizationService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly permissions: PermissionEngine,
    private readonly principals: PrincipalService,
    private readonly events: EventLog,
    private readonly audit: AuditLog,
    /** SERVICE_ORG_CREATE_PER_HOUR: organizations one principal may create per hour over /v1 (not the operator). */
    private readonly createsPerHour: number,
  ) {}

  async createOrganization(
    actor: Actor,
    input: CreateOrganizationInput,
  ): Promise<{ organization: Organization; owner: Membership }> {
    if (!isOperator(actor) && actor.apiKey !== undefined) {
      throw new AppError('forbidden', 'API keys act inside their own organization and cannot create organizations');
    }
    const slug = input.slug.trim().toLowerCase();
    // A principal created for owner_email is written in this transaction, so its email stays locked until then.
    // A caller's creates are counted under its own lock, in the transaction that writes the organization.
    const locks = [
      `org-slug:${slug}`,
      ...(isOperator(actor) && input.owner_email !== undefined ? [principalEmailLock(input.owner_email)] : []),
      ...(isOperator(actor) ? [] : [`org-create:${actor.principalId}`]),
    ];
    return this.storage.transaction({ locks }, async (tx) => {
      if (await tx.read(this.store.organizations).findUnique('slug', slug)) {
        throw new AppError('conflict', `an organization with slug ${slug} already exists`, { details: { field: 'slug' } });
      }
      const organizationId = newId();
      if (!isOperator(actor)) {
        const max = this.createsPerHour;
        const wait = await this.store.organizationCreates.tryConsume(tx, actor.principalId, max, Date.now(), {
          organization_id: organizationId,
        });
        if (wait !== null) {
          const seconds = Math.max(1, Math.ceil(wait / 1000));
          throw new AppError(
            'rate_limited',
            `you have created ${max} organizations in the last hour, the most allowed; try again later`,
            {
              retryAfterSeconds: seconds,
              details: { limit: 'organizations_per_hour', max, retry_after_seconds: seconds },
            },
          );
        }
      }
      let ownerId: string;
      if (!isOperator(actor)) ownerId = actor.principalId;
      else if (input.owner_principal_id !== undefined) ownerId = input.owner_principal_id;
      else if (input.owner_email !== undefined)
        ownerId = (await this.principals.ensurePrincipalByEmail(input.owner_email, tx)).id;
      else ownerId = newId();
      await this.principals.ensurePrincipalRecord(tx, ownerId);

      const now = nowIso();
      const organization: Organization = {
        id: organizationId,
        slug,
        display_name: input.display_name?.trim() || slug,
        created_by: isOperator(actor) ? null : actor.principalId,
        created_at: now,
      };
      const owner: Membership = {
        id: newId(),
        organization_id: organization.id,
        team_id: null,
        principal_id: ownerId,
        role: 'owner',
        created_at: now,
        updated_at: now,
      };
      await tx.put(this.store.organizations, organization);
      this.events.append(tx, {
        kind: 'organization.created',
        organization_id: organization.id,
        payload: {
          organization_id: organization.id,
          slug,
          display_name: organization.display_name,
          owner_principal_id: ownerId,
        } satisfies EventPayload<'organization.created'>,
      });
      // The founding owner joins as any member does: member.added follows organization.created.
      await putMembership(this.store, this.events, tx, owner);
      this.audit.record(tx, actor, {
        organization_id: organization.id,
        action: 'organization.create',
        target: { type: 'organization', id: organization.id },
        after: { ...organization, owner_principal_id: ownerId },
      });
      return { organization, owner };
    });
  }

  /** By id, or by slug for the operator's convenience. Throws not_found when the actor cannot see it. */
  async getOrganization(actor: Actor, idOrSlug: string): Promise<Organization> {
    const { organizations } = this.store;
    const org = (await organizations.get(idOrSlug)) ?? (await organizations.findUnique('slug', idOrSlug.toLowerCase()));
    if (org === undefined) throw notFound('organization');
    // The record is in hand: its location goes with the check, which then reads only memberships.
    await this.permissions.authorizeAt(actor, 'organization.read', organizationRef(org.id), atOrganization(org.id));
    return org;
  }

  /** The record without an authorization check, for other areas' own reads (settings defaults). */
  async readOrganization(id: string, tx?: Tx): Promise<Organization | undefined> {
    return this.store.organizations.in(tx).get(id);
  }

  /** The organizations the actor belongs to (all of them for the operator). */
  async listOrganizations(actor: Actor, page: PageOptions = {}): Promise<Page<Organization>> {
    if (isOperator(actor)) return this.store.organizations.list(page);
    if (actor.apiKey !== undefined) {
      const org = await this.store.organizations.get(actor.apiKey.organizationId);
      return { items: org ? [org] : [], nextCursor: null };
    }
    // Organization- and team-level memberships of one organization sit side by side in the
    // principal's index (sorted by organization): each organization is listed once, in id order.
    const ids = await this.store.memberships.listDistinct('principal', actor.principalId, page);
    const orgs = await this.store.organizations.getMany(ids.items);
    return { items: orgs.filter((o): o is Organization => o !== undefined), nextCursor: ids.nextCursor };
  }

  /** Renames: a new slug (free, else conflict) and/or display name; what is left out stays. */
  async updateOrganization(actor: Actor, id: string, patch: { display_name?: string; slug?: string }): Promise<Organization> {
    await this.permissions.authorize(actor, 'organization.update', organizationRef(id));
    const slug = patch.slug?.trim().toLowerCase();
    const locks = [organizationLock(id), ...(slug === undefined ? [] : [`org-slug:${slug}`])];
    return this.storage.transaction({ locks }, async (tx) => {
      const organizations = tx.read(this.store.organizations);
      const org = await organizations.get(id);
      if (org === undefined) throw notFound('organization');
      if (slug !== undefined && slug !== org.slug && (await organizations.findUnique('slug', slug)))
        throw new AppError('conflict', `an organization with slug ${slug} already exists`, { details: { field: 'slug' } });
      const next = {
        ...org,
        ...(slug === undefined ? {} : { slug }),
        ...(patch.display_name === undefined ? {} : { display_name: patch.display_name.trim() }),
      };
      this.audit.record(tx, actor, {
        organization_id: id,
        action: 'organization.update',
        target: { type: 'organization', id },
        before: org,
        after: next,
      });
      return tx.put(this.store.organizations, next);
    });
  }

  /**
   * The display name as settings write it (spec 2.4 `display_name`): the record's own field, the one
   * name an organization has; null puts it back to the slug. `tx` holds organizationLock(id).
   * Answers the name before and after; the caller audits.
   */
  async setDisplayNameIn(tx: Tx, id: string, displayName: string | null): Promise<{ before: string; after: string }> {
    const org = await tx.read(this.store.organizations).get(id);
    if (org === undefined) throw notFound('organization');
    const after = displayName?.trim() || org.slug;
    if (after !== org.display_name) await tx.put(this.store.organizations, { ...org, display_name: after });
    return { before: org.display_name, after };
  }
}

/** The lock every write of an organization record holds. */
export function organizationLock(id: string): string {
  return `org:${id}`;
}
