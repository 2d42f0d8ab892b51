import { AppError, notFound } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { EventLog } from '../events/service.js';
import { isOperator, type Actor } from './caller.js';
import { organizationRef, type PermissionEngine } from './permissions.js';
import { principalEmailLock, type PrincipalService } from './principals.js';
import { highestRole, type Role } from './roles.js';
import { removeDepartedAccess } from './departures.js';
import { deleteMembership, putMembership } from './membership-writes.js';
import { scopeKey, type IdentityStore } from './store.js';
import type { TeamService } from './teams.js';
import type { Membership } from './types.js';

export interface AddMemberInput {
  principal_id?: string;
  email?: string;
  role: Role;
  team_id?: string | null;
}

/** A membership with its principal's email (null for a principal known only by id). */
export type MemberWithEmail = Membership & { email: string | null };

/** Memberships: a principal's role in an organization, or on one of its teams. */
export class MembershipService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly permissions: PermissionEngine,
    private readonly principals: PrincipalService,
    private readonly teams: TeamService,
    private readonly audit: AuditLog,
    private readonly eventLog: EventLog,
  ) {}

  async addMember(actor: Actor, organizationId: string, input: AddMemberInput): Promise<Membership> {
    await this.permissions.authorize(actor, 'member.create', organizationRef(organizationId));
    // Nobody is made owner without consent: over /v1 an owner joins by accepting an invitation.
    if (input.role === 'owner' && !isOperator(actor))
      throw new AppError('forbidden', 'an owner joins by invitation: invite them instead', {
        details: { reason: 'owners are invited' },
      });
    await this.permissions.requireAssignable(actor, organizationId, input.role, 'add a member');
    const teamId = input.team_id ?? null;
    if (teamId !== null) await this.teams.requireTeam(organizationId, teamId);
    // Adding by email may create the principal in this transaction: hold its email, so that two
    // concurrent adds of a new address (to two organizations) cannot create two principals for it.
    const locks = [membersLock(organizationId), ...(input.email === undefined ? [] : [principalEmailLock(input.email)])];
    return this.storage.transaction({ locks }, async (tx) => {
      let principalId: string;
      if (input.principal_id !== undefined) {
        principalId = input.principal_id;
        await this.principals.ensurePrincipalRecord(tx, principalId);
      } else if (input.email !== undefined) {
        principalId = (await this.principals.ensurePrincipalByEmail(input.email, tx)).id;
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
      this.audit.recordChange(tx, actor, 'member.create', 'membership', undefined, membership);
      return putMembership(this.store, this.eventLog, tx, membership);
    });
  }

  /**
   * Used by invitation acceptance: adds (or raises) the principal's organization-level membership
   * inside `tx`, which holds membersLock(organizationId), with its event (none when nothing changes).
   */
  async writeMembership(tx: Tx, organizationId: string, principalId: string, role: Role): Promise<Membership> {
    await this.principals.ensurePrincipalRecord(tx, principalId);
    const existing = await tx.read(this.store.memberships).findUnique('scope', scopeKey(organizationId, null, principalId));
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
    return putMembership(this.store, this.eventLog, tx, membership, existing);
  }

  async listMembers(
    actor: Actor,
    organizationId: string,
    options: PageOptions & { team_id?: string } = {},
  ): Promise<Page<Membership>> {
    await this.permissions.authorize(actor, 'member.read', organizationRef(organizationId));
    const { team_id: teamId, ...page } = options;
    if (teamId === undefined) return this.store.memberships.listBy('organization', organizationId, page);
    // A deleted (or unknown) team has no members to list: it is not found, not empty.
    await this.teams.requireTeam(organizationId, teamId);
    return this.store.memberships.listBy('team', [organizationId, teamId], page);
  }

  /** listMembers() with each principal's email (null when it has none): who the members are, for people. */
  async listMembersWithEmails(
    actor: Actor,
    organizationId: string,
    options: PageOptions & { team_id?: string } = {},
  ): Promise<Page<MemberWithEmail>> {
    const page = await this.listMembers(actor, organizationId, options);
    return { items: await this.withEmails(page.items), nextCursor: page.nextCursor };
  }

  /** The memberships with their principals' emails (one read). */
  async withEmails(list: Membership[]): Promise<MemberWithEmail[]> {
    const principals = await this.store.principals.getMany(list.map((m) => m.principal_id));
    return list.map((m, i) => ({ ...m, email: principals[i]?.email ?? null }));
  }

  async updateMember(actor: Actor, organizationId: string, membershipId: string, role: Role): Promise<Membership> {
    await this.permissions.authorize(actor, 'member.update', organizationRef(organizationId));
    return this.storage.transaction({ locks: [membersLock(organizationId)] }, async (tx) => {
      const current = await this.membershipIn(tx, organizationId, membershipId);
      // The higher of the two roles: the caller may neither touch a member above it nor promote above it.
      await this.permissions.requireAssignable(actor, organizationId, highestRole([current.role, role])!, 'change a member');
      if (current.role === 'owner' && role !== 'owner') await this.requireAnotherOwner(tx, current);
      const next = { ...current, role, updated_at: nowIso() };
      this.audit.recordChange(tx, actor, 'member.update', 'membership', current, next);
      return putMembership(this.store, this.eventLog, tx, next, current);
    });
  }

  async removeMember(actor: Actor, organizationId: string, membershipId: string): Promise<Membership> {
    await this.permissions.authorize(actor, 'member.delete', organizationRef(organizationId));
    return this.storage.transaction({ locks: [membersLock(organizationId)] }, async (tx) => {
      const current = await this.membershipIn(tx, organizationId, membershipId);
      await this.permissions.requireAssignable(actor, organizationId, current.role, 'remove a member');
      if (current.role === 'owner') await this.requireAnotherOwner(tx, current);
      await deleteMembership(this.store, this.eventLog, tx, current);
      await removeDepartedAccess(this.store, tx, organizationId, [current.principal_id]);
      this.audit.recordChange(tx, actor, 'member.delete', 'membership', current, undefined);
      return current;
    });
  }

  /** The organization's owners (organization-level), oldest first. */
  async listOwners(organizationId: string, tx?: Tx): Promise<Membership[]> {
    return this.store.memberships.in(tx).allBy('owner', organizationId);
  }

  private async membershipIn(tx: Tx, organizationId: string, membershipId: string): Promise<Membership> {
    const m = await tx.get(this.store.memberships, membershipId);
    if (m === undefined || m.organization_id !== organizationId) throw notFound('membership');
    return m;
  }

  private async requireAnotherOwner(tx: Tx, leaving: Membership): Promise<void> {
    if (leaving.team_id !== null) return;
    const others = (await this.listOwners(leaving.organization_id, tx)).filter((m) => m.id !== leaving.id);
    if (others.length === 0) throw new AppError('invalid_state', 'an organization must keep at least one owner');
  }
}

/** The lock every change to an organization's memberships holds (owners counted, teams deleted, invitations accepted). */
export function membersLock(organizationId: string): string {
  return `org-members:${organizationId}`;
}
