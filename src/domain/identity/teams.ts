import { notFound } from '../../errors.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { Actor } from './caller.js';
import { organizationRef, type PermissionEngine } from './permissions.js';
import { removeDepartedAccess } from './departures.js';
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
  ) {}

  async createTeam(actor: Actor, organizationId: string, input: { name: string }): Promise<Team> {
    await this.permissions.authorize(actor, 'team.create', organizationRef(organizationId));
    const team: Team = { id: newId(), organization_id: organizationId, name: input.name.trim(), created_at: nowIso() };
    return this.storage.transaction({}, (tx) => {
      this.audit.record(tx, actor, {
        organization_id: organizationId,
        action: 'team.create',
        target: teamRef(team),
        after: team,
      });
      return tx.put(this.store.teams, team);
    });
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
      for (const id of await this.store.memberships.idsBy('team', [organizationId, team.id])) {
        const membership = await tx.get(this.store.memberships, id);
        if (membership !== undefined) members.push(membership.principal_id);
        await tx.delete(this.store.memberships, id);
      }
      // A member whose only membership was this team leaves the organization with it.
      await removeDepartedAccess(this.store, tx, organizationId, members);
      // Grants on the team go with it, so nothing dangles in the grant list.
      for (const id of await this.store.grants.idsBy('resource', ['team', team.id])) await tx.delete(this.store.grants, id);
      await tx.delete(this.store.teams, team.id);
      this.audit.record(tx, actor, {
        organization_id: organizationId,
        action: 'team.delete',
        target: teamRef(team),
        before: { ...team, memberships_removed: members.length },
      });
      return team;
    });
  }

  /** The team when it belongs to the organization; not_found otherwise. */
  async requireTeam(organizationId: string, teamId: string): Promise<Team> {
    const team = await this.store.teams.get(teamId);
    if (team === undefined || team.organization_id !== organizationId) throw notFound('team');
    return team;
  }
}

function teamRef(team: Team): { type: string; id: string } {
  return { type: 'team', id: team.id };
}
