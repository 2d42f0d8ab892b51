import { z } from 'zod';
import { operator } from '../../domain/identity/caller.js';
import { createTeamBody, updateTeamBody } from '../../domain/identity/schemas.js';
import type { TeamServiceHandlers } from '../generated/switchyard/admin/v1/TeamService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const teamRef = z.object({ team_id: z.string().trim().min(1, 'required: a team id or name') });

function implement({ services, log }: ServiceContext): TeamServiceHandlers {
  const { teams } = services;
  /** The team a request names by id (organization optional) or by name (organization required). */
  const findTeam = async (req: { organization: string; team_id: string }) => {
    const org = req.organization.trim() === '' ? undefined : await resolveOrganization(services, req.organization);
    return teams.findTeam(operator, org?.id, parseRequest(teamRef, req).team_id);
  };
  return {
    CreateTeam: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      return toMessage(await teams.createTeam(actor, org.id, parseRequest(createTeamBody, req)));
    }),
    ListTeams: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const page = await teams.listTeams(actor, org.id, pageOptions(req));
      return { teams: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetTeam: unary(log, async (req) => toMessage(await findTeam(req))),
    DeleteTeam: unary(log, async (req, { actor }) => {
      const team = await findTeam(req);
      return toMessage(await teams.deleteTeam(actor, team.organization_id, team.id));
    }),
    UpdateTeam: unary(log, async (req, { actor }) => {
      const team = await findTeam(req);
      return toMessage(await teams.updateTeam(actor, team.organization_id, team.id, parseRequest(updateTeamBody, req)));
    }),
  };
}

export const teamService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/teams.proto',
  serviceName: 'switchyard.admin.v1.TeamService',
  implement,
};
