import { AppError, notFound } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { EventLog } from '../events/service.js';
import { idSchema } from '../schemas.js';
import type { Actor } from './caller.js';
import { organizationRef, type PermissionEngine } from './permissions.js';
import { removeDepartedAccess } from './departures.js';
import { deleteMembership } from './membership-writes.js';
import { membersLock } from './memberships.js';
import type { IdentityStore } from './store.js';
import type { Team } from './types.js';

/** Teams of an organization; deleting one takes its memberships and the grants on it along. */
export class TeamService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly permissions: PermissionEngine,
    private readonly audit: AuditLog,
    private readonly eventLog: EventLog,
  ) {}

  async createTeam(actor: Actor, organizationId: string, input: { name: string }): Promise<Team> {
    await this.permissions.authorize(actor, 'team.create', organizationRef(organizationId));
    const team: Team = { id: newId(), organization_id: organizationId, name: input.name.trim(), created_at: nowIso() };
    return this.storage.transaction({ locks: [teamNamesLock(organizationId)] }, async (tx) => {
      await this.requireFreeName(tx, organizationId, team.name);
      this.audit.recordChange(tx, actor, 'team.create', 'team', undefined, team);
      return tx.put(this.store.teams, team);
    });
  }

  /** Renames the team; its new name must be free in the organization. */
  async updateTeam(actor: Actor, organizationId: string, teamId: string, input: { name: string }): Promise<Team> {
    const team = await this.requireTeam(organizationId, teamId);
    await this.permissions.authorize(actor, 'team.update', { type: 'team', id: team.id });
    const name = input.name.trim();
    return this.storage.transaction({ locks: [teamNamesLock(organizationId)] }, async (tx) => {
      const current = await tx.get(this.store.teams, team.id);
      if (current === undefined) throw notFound('team');
      await this.requireFreeName(tx, organizationId, name, team.id);
      const next = { ...current, name };
      this.audit.recordChange(tx, actor, 'team.update', 'team', current, next);
      return tx.put(this.store.teams, next);
    });
  }

  /**
   * A team named by id, or by name within its organization (names compare case-insensitively). By
   * id, `organizationId` may be left out; given, a team of another organization is not_found.
   */
  async findTeam(actor: Actor, organizationId: string | undefined, ref: string): Promise<Team> {
    let team: Team | undefined;
    if (idSchema.safeParse(ref).success) {
      team = await this.store.teams.get(ref.toLowerCase());
      if (team !== undefined && organizationId !== undefined && team.organization_id !== organizationId) team = undefined;
    }
    if (team === undefined && organizationId !== undefined) {
      const named = await this.teamsNamed(organizationId, ref);
      if (named.length > 1)
        throw new AppError('invalid_request', `${named.length} teams are named ${ref.trim()}: name the team by its id`, {
          details: { team_ids: named.map((t) => t.id) },
        });
      team = named[0];
    }
    if (team === undefined) throw notFound('team');
    await this.permissions.authorize(actor, 'team.read', { type: 'team', id: team.id });
    return team;
  }

  async listTeams(actor: Actor, organizationId: string, page: PageOptions = {}): Promise<Page<Team>> {
    await this.permissions.authorize(actor, 'organization.read', organizationRef(organizationId));
    return this.store.teams.listBy('organization', organizationId, page);
  }

  async getTeam(actor: Actor, organizationId: string, teamId: string): Promise<Team> {
    const team = await this.requireTeam(organizationId, teamId);
    await this.permissions.authorize(actor, 'team.read', { type: 'team', id: team.id });
    return team;
  }

  /** Deletes the team and its memberships in one transaction. */
  async deleteTeam(actor: Actor, organizationId: string, teamId: string): Promise<Team> {
    const team = await this.requireTeam(organizationId, teamId);
    await this.permissions.authorize(actor, 'team.delete', { type: 'team', id: team.id });
    return this.storage.transaction({ locks: [membersLock(organizationId)] }, async (tx) => {
      const members: string[] = [];
      for (const id of await tx.read(this.store.memberships).idsBy('team', [organizationId, team.id])) {
        const membership = await tx.get(this.store.memberships, id);
        if (membership === undefined) continue;
        members.push(membership.principal_id);
        await deleteMembership(this.store, this.eventLog, tx, membership);
      }
      // A member whose only membership was this team leaves the organization with it.
      await removeDepartedAccess(this.store, tx, organizationId, members);
      // Grants on the team go with it, so nothing dangles in the grant list.
      for (const id of await tx.read(this.store.grants).idsBy('resource', ['team', team.id]))
        await tx.delete(this.store.grants, id);
      await tx.delete(this.store.teams, team.id);
      this.audit.recordChange(tx, actor, 'team.delete', 'team', { ...team, memberships_removed: members.length }, undefined);
      return team;
    });
  }

  /** Teams of the organization with this name (more than one only in data older than the rule). */
  private async teamsNamed(organizationId: string, name: string, tx?: Tx): Promise<Team[]> {
    const wanted = name.trim().toLowerCase();
    const all = await this.store.teams.in(tx).allBy('organization', organizationId);
    return all.filter((t) => t.name.toLowerCase() === wanted);
  }

  /** conflict when another team of the organization has the name; read under teamNamesLock. */
  private async requireFreeName(tx: Tx, organizationId: string, name: string, except?: string): Promise<void> {
    const taken = (await this.teamsNamed(organizationId, name, tx)).find((t) => t.id !== except);
    if (taken !== undefined)
      throw new AppError('conflict', `a team named ${taken.name} already exists in this organization`, {
        details: { field: 'name', team_id: taken.id },
      });
  }

  /** The team when it belongs to the organization; not_found otherwise. */
  async requireTeam(organizationId: string, teamId: string): Promise<Team> {
    const team = await this.store.teams.get(teamId);
    if (team === undefined || team.organization_id !== organizationId) throw notFound('team');
    return team;
  }
}

/** Held while a team name is chosen (create, rename), so two concurrent ones cannot pick the same. */
function teamNamesLock(organizationId: string): string {
  return `team-names:${organizationId}`;
}
