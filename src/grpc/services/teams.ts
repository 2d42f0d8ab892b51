import { z } from 'zod';
import { operator } from '../../domain/identity/caller.js';
import { createTeamBody } from '../../domain/identity/schemas.js';
import type { TeamServiceHandlers } from '../generated/switchyard/admin/v1/TeamService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const teamRef = z.object({ team_id: z.uuid('must be a UUID') });

function implement({ identity, log }: ServiceContext): TeamServiceHandlers {
  const orgs = identity.organizations;
  return {
    CreateTeam: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      return toMessage(await orgs.createTeam(operator, org.id, parseRequest(createTeamBody, req)));
    }),
    ListTeams: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      const page = await orgs.listTeams(operator, org.id, pageOptions(req));
      return { teams: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetTeam: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      return toMessage(await orgs.getTeam(operator, org.id, parseRequest(teamRef, req).team_id));
    }),
    DeleteTeam: unary(log, async (req) => {
      const org = await resolveOrganization(identity, req.organization);
      return toMessage(await orgs.deleteTeam(operator, org.id, parseRequest(teamRef, req).team_id));
    }),
  };
}

export const teamService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/teams.proto',
  serviceName: 'switchyard.admin.v1.TeamService',
  implement,
};
