import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { createTeamBody } from '../../domain/identity/schemas.js';
import type { TeamServiceHandlers } from '../generated/switchyard/admin/v1/TeamService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const teamRef = z.object({ team_id: idSchema });

function implement({ services, log }: ServiceContext): TeamServiceHandlers {
  const { teams } = services;
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
    GetTeam: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      return toMessage(await teams.getTeam(actor, org.id, parseRequest(teamRef, req).team_id));
    }),
    DeleteTeam: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      return toMessage(await teams.deleteTeam(actor, org.id, parseRequest(teamRef, req).team_id));
    }),
  };
}

export const teamService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/teams.proto',
  serviceName: 'switchyard.admin.v1.TeamService',
  implement,
};
