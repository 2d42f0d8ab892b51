import { AppError, notFound } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import type { Storage } from '../../storage/db.js';
import { compositeKey, newId, nowIso } from '../../storage/keys.js';
import { UnitOfWork } from '../../storage/unit-of-work.js';
import type { EventLog } from '../events/service.js';
import { isOperator, type Actor } from './caller.js';
import { atOrganization, type Action, type PermissionEngine } from './permissions.js';
import { highestRole, type Role } from './roles.js';
import type { IdentityStore } from './store.js';
import type { Grant, Membership, Organization, Principal, Team } from './types.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface CreateOrganizationInput {
  slug: string;
  display_name?: string;
  /** Operator only: who becomes the first owner (default: a new principal). */
  owner_principal_id?: string;
  owner_email?: string;
}

export interface AddMemberInput {
  principal_id?: string;
  email?: string;
  role: Role;
  team_id?: string | null;
}

export interface CreateGrantInput {
  principal_id: string;
  action: Action;
  resource_type: string;
  resource_id: string;
}

/** Organizations, teams, memberships and ACL grants. */
export class OrganizationService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly permissions: PermissionEngine,
    private readonly events: EventLog,
  ) {}

  // -- principals ------------------------------------------------------------------------------

  /** The principal for an email, created when absent. With `uow`, the caller holds `principal-email:<email>`. */
  async ensurePrincipalByEmail(email: string, uow?: UnitOfWork): Promise<Principal> {
    const normalized = normalizeEmail(email);
    const existing = await this.store.principals.findUnique('email', normalized);
    if (existing) return existing;
    const principal: Principal = { id: newId(), email: normalized, created_at: nowIso() };
    if (uow) {
      await uow.put(this.store.principals, principal);
      return principal;
    }
    return this.storage.locks.run(`principal-email:${normalized}`, async () => {
      const again = await this.store.principals.findUnique('email', normalized);
      if (again) return again;
      const w = new UnitOfWork(this.storage);
      await w.put(this.store.principals, principal);
      await w.commit();
      return principal;
    });
  }

  async getPrincipal(id: string): Promise<Principal | undefined> {
    return this.store.principals.get(id);
  }

  /** Sees principals queued in `uow` too, so one created by email in the same batch keeps its email. */
  private async ensurePrincipalRecord(uow: UnitOfWork, id: string): Promise<void> {
    if ((await uow.get(this.store.principals, id)) === undefined)
      await uow.put(this.store.principals, { id, email: null, created_at: nowIso() });
  }

  // -- organizations ---------------------------------------------------------------------------

  async createOrganization(
    actor: Actor,
    input: CreateOrganizationInput,
  ): Promise<{ organization: Organization; owner: Membership }> {
    if (!isOperator(actor) && actor.apiKey !== undefined) {
      throw new AppError('forbidden', 'API keys act inside their own organization and cannot create organizations');
    }
    const slug = input.slug.trim().toLowerCase();
    // A principal created for owner_email is written in this batch, so its email stays locked until then.
    const locks = [
      `org-slug:${slug}`,
      ...(isOperator(actor) && input.owner_email !== undefined ? [`principal-email:${normalizeEmail(input.owner_email)}`] : []),
    ];
    return this.storage.locks.runAll(locks, async () => {
      if (await this.store.organizations.findUnique('slug', slug)) {
        throw new AppError('conflict', `an organization with slug ${slug} already exists`, { details: { field: 'slug' } });
      }
      const uow = new UnitOfWork(this.storage);
      let ownerId: string;
      if (!isOperator(actor)) ownerId = actor.principalId;
      else if (input.owner_principal_id !== undefined) ownerId = input.owner_principal_id;
      else if (input.owner_email !== undefined) ownerId = (await this.ensurePrincipalByEmail(input.owner_email, uow)).id;
      else ownerId = newId();
      await this.ensurePrincipalRecord(uow, ownerId);

      const now = nowIso();
      const organization: Organization = {
        id: newId(),
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
      await uow.put(this.store.organizations, organization);
      await uow.put(this.store.memberships, owner);
      await this.events.append(uow, {
        kind: 'organization.created',
        organization_id: organization.id,
        payload: { organization_id: organization.id, slug, display_name: organization.display_name, owner_principal_id: ownerId },
      });
      await uow.commit();
      return { organization, owner };
    });
  }

  /** By id, or by slug for the operator's convenience. Throws not_found when the actor cannot see it. */
  async getOrganization(actor: Actor, idOrSlug: string): Promise<Organization> {
    const { organizations } = this.store;
    const org = organizations.read(idOrSlug) ?? organizations.readUnique('slug', idOrSlug.toLowerCase());
    if (org === undefined) throw notFound('organization');
    // The record is in hand: its location goes with the check, which then reads only memberships.
    const decision = this.permissions.authorizeAt(
      actor,
      'organization.read',
      { type: 'organization', id: org.id },
      atOrganization(org.id),
      'organization',
    );
    if (decision instanceof Promise) await decision;
    return org;
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

  async updateOrganization(actor: Actor, id: string, patch: { display_name?: string }): Promise<Organization> {
    await this.permissions.authorize(actor, 'organization.update', { type: 'organization', id }, 'organization');
    return this.storage.locks.run(`org:${id}`, async () => {
      const org = await this.store.organizations.get(id);
      if (org === undefined) throw notFound('organization');
      const next = { ...org, ...(patch.display_name === undefined ? {} : { display_name: patch.display_name.trim() }) };
      const uow = new UnitOfWork(this.storage);
      await uow.put(this.store.organizations, next);
      await uow.commit();
      return next;
    });
  }

  // -- teams -----------------------------------------------------------------------------------

  async createTeam(actor: Actor, organizationId: string, input: { name: string }): Promise<Team> {
    await this.permissions.authorize(actor, 'team.create', { type: 'organization', id: organizationId }, 'organization');
    const team: Team = { id: newId(), organization_id: organizationId, name: input.name.trim(), created_at: nowIso() };
    const uow = new UnitOfWork(this.storage);
    await uow.put(this.store.teams, team);
    await uow.commit();
    return team;
  }

  async listTeams(actor: Actor, organizationId: string, page: PageOptions = {}): Promise<Page<Team>> {
    await this.permissions.authorize(actor, 'organization.read', { type: 'organization', id: organizationId }, 'organization');
    return this.store.teams.listBy('organization', organizationId, page);
  }

  async getTeam(actor: Actor, organizationId: string, teamId: string): Promise<Team> {
    const team = await this.teamIn(organizationId, teamId);
    await this.permissions.authorize(actor, 'team.read', { type: 'team', id: team.id }, 'team');
    return team;
  }

  /** Deletes the team and its memberships in one batch. */
  async deleteTeam(actor: Actor, organizationId: string, teamId: string): Promise<Team> {
    const team = await this.teamIn(organizationId, teamId);
    await this.permissions.authorize(actor, 'team.delete', { type: 'team', id: team.id }, 'team');
    return this.storage.locks.run(`org-members:${organizationId}`, async () => {
      const uow = new UnitOfWork(this.storage);
      for (const id of await this.store.memberships.idsBy('team', [organizationId, team.id]))
        await uow.delete(this.store.memberships, id);
      // Grants on the team go with it, so nothing dangles in the grant list.
      for (const id of await this.store.grants.idsBy('resource', ['team', team.id])) await uow.delete(this.store.grants, id);
      await uow.delete(this.store.teams, team.id);
      await uow.commit();
      return team;
    });
  }

  private async teamIn(organizationId: string, teamId: string): Promise<Team> {
    const team = await this.store.teams.get(teamId);
    if (team === undefined || team.organization_id !== organizationId) throw notFound('team');
    return team;
  }

  // -- memberships -----------------------------------------------------------------------------

  async addMember(actor: Actor, organizationId: string, input: AddMemberInput): Promise<Membership> {
    await this.permissions.authorize(actor, 'member.create', { type: 'organization', id: organizationId }, 'organization');
    if (input.role === 'owner') await this.requireOwner(actor, organizationId, 'grant the owner role');
    const teamId = input.team_id ?? null;
    if (teamId !== null) await this.teamIn(organizationId, teamId);
    // Adding by email may create the principal in this batch: hold its email, so that two concurrent
    // adds of a new address (to two organizations) cannot create two principals for it.
    const locks = [
      `org-members:${organizationId}`,
      ...(input.email === undefined ? [] : [`principal-email:${normalizeEmail(input.email)}`]),
    ];
    return this.storage.locks.runAll(locks, async () => {
      const uow = new UnitOfWork(this.storage);
      let principalId: string;
      if (input.principal_id !== undefined) {
        principalId = input.principal_id;
        await this.ensurePrincipalRecord(uow, principalId);
      } else if (input.email !== undefined) {
        principalId = (await this.ensurePrincipalByEmail(input.email, uow)).id;
      } else
        throw new AppError('validation_failed', 'principal_id or email is required', {
          details: { fields: { principal_id: 'required' } },
        });
      const now = nowIso();
      const membership: Membership = {
        id: newId(),
        organization_id: organizationId,
        team_id: teamId,
        principal_id: principalId,
        role: input.role,
        created_at: now,
        updated_at: now,
      };
      await uow.put(this.store.memberships, membership);
      await uow.commit();
      return membership;
    });
  }

  /** Used by invitation acceptance: adds (or raises) the principal's organization-level membership inside `uow`. */
  async writeMembership(uow: UnitOfWork, organizationId: string, principalId: string, role: Role): Promise<Membership> {
    await this.ensurePrincipalRecord(uow, principalId);
    const existing = await this.store.memberships.findUnique('scope', compositeKey(organizationId, '-', principalId));
    const now = nowIso();
    const membership: Membership = existing
      ? { ...existing, role: highestRole([existing.role, role])!, updated_at: now }
      : {
          id: newId(),
          organization_id: organizationId,
          team_id: null,
          principal_id: principalId,
          role,
          created_at: now,
          updated_at: now,
        };
    await uow.put(this.store.memberships, membership);
    return membership;
  }

  async listMembers(
    actor: Actor,
    organizationId: string,
    options: PageOptions & { team_id?: string } = {},
  ): Promise<Page<Membership>> {
    await this.permissions.authorize(actor, 'member.read', { type: 'organization', id: organizationId }, 'organization');
    const { team_id: teamId, ...page } = options;
    return teamId === undefined
      ? this.store.memberships.listBy('organization', organizationId, page)
      : this.store.memberships.listBy('team', [organizationId, teamId], page);
  }

  async updateMember(actor: Actor, organizationId: string, membershipId: string, role: Role): Promise<Membership> {
    await this.permissions.authorize(actor, 'member.update', { type: 'organization', id: organizationId }, 'organization');
    return this.storage.locks.run(`org-members:${organizationId}`, async () => {
      const current = await this.membershipIn(organizationId, membershipId);
      if (current.role === 'owner' || role === 'owner') await this.requireOwner(actor, organizationId, 'change the owner role');
      if (current.role === 'owner' && role !== 'owner') await this.requireAnotherOwner(current);
      const next: Membership = { ...current, role, updated_at: nowIso() };
      const uow = new UnitOfWork(this.storage);
      await uow.put(this.store.memberships, next);
      await uow.commit();
      return next;
    });
  }

  async removeMember(actor: Actor, organizationId: string, membershipId: string): Promise<Membership> {
    await this.permissions.authorize(actor, 'member.delete', { type: 'organization', id: organizationId }, 'organization');
    return this.storage.locks.run(`org-members:${organizationId}`, async () => {
      const current = await this.membershipIn(organizationId, membershipId);
      if (current.role === 'owner') {
        await this.requireOwner(actor, organizationId, 'remove an owner');
        await this.requireAnotherOwner(current);
      }
      const uow = new UnitOfWork(this.storage);
      await uow.delete(this.store.memberships, current.id);
      await uow.commit();
      return current;
    });
  }

  /** The organization's owners (organization-level), oldest first. */
  async owners(organizationId: string): Promise<Membership[]> {
    const owners = await this.store.memberships.getMany(await this.store.memberships.idsBy('owner', organizationId));
    return owners.filter((m): m is Membership => m !== undefined);
  }

  private async membershipIn(organizationId: string, membershipId: string): Promise<Membership> {
    const m = await this.store.memberships.get(membershipId);
    if (m === undefined || m.organization_id !== organizationId) throw notFound('membership');
    return m;
  }

  private async requireOwner(actor: Actor, organizationId: string, what: string): Promise<void> {
    if (isOperator(actor)) return;
    const role = await this.permissions.effectiveRole(actor.principalId, atOrganization(organizationId));
    if (role !== 'owner') throw new AppError('forbidden', `only owners may ${what}`, { details: { reason: 'requires owner' } });
  }

  private async requireAnotherOwner(leaving: Membership): Promise<void> {
    if (leaving.team_id !== null) return;
    const others = (await this.owners(leaving.organization_id)).filter((m) => m.id !== leaving.id);
    if (others.length === 0) throw new AppError('invalid_state', 'an organization must keep at least one owner');
  }

  // -- ACL grants ------------------------------------------------------------------------------

  async createGrant(actor: Actor, organizationId: string, input: CreateGrantInput): Promise<Grant> {
    await this.permissions.authorize(actor, 'grant.create', { type: 'organization', id: organizationId }, 'organization');
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
    const uow = new UnitOfWork(this.storage);
    await this.ensurePrincipalRecord(uow, input.principal_id);
    await uow.put(this.store.grants, grant);
    await uow.commit();
    return grant;
  }

  async listGrants(actor: Actor, organizationId: string, page: PageOptions = {}): Promise<Page<Grant>> {
    await this.permissions.authorize(actor, 'grant.read', { type: 'organization', id: organizationId }, 'organization');
    return this.store.grants.listBy('organization', organizationId, page);
  }

  async deleteGrant(actor: Actor, organizationId: string, grantId: string): Promise<Grant> {
    await this.permissions.authorize(actor, 'grant.delete', { type: 'organization', id: organizationId }, 'organization');
    const grant = await this.store.grants.get(grantId);
    if (grant === undefined || grant.organization_id !== organizationId) throw notFound('grant');
    const uow = new UnitOfWork(this.storage);
    await uow.delete(this.store.grants, grant.id);
    await uow.commit();
    return grant;
  }
}
