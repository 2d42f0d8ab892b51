import { operator } from '../../domain/identity/caller.js';
import { z } from 'zod';
import { idSchema } from '../../domain/schemas.js';
import { addMemberBody, updateMemberBody } from '../../domain/identity/schemas.js';
import type { MemberServiceHandlers } from '../generated/switchyard/admin/v1/MemberService.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const membershipRef = z.object({ membership_id: idSchema });

function implement({ services, log }: ServiceContext): MemberServiceHandlers {
  const { memberships } = services;
  /** A team named by id or by name within the organization, as its id. */
  const teamId = async (organizationId: string, ref: string | undefined) =>
    ref === undefined ? undefined : (await services.teams.findTeam(operator, organizationId, ref)).id;
  return {
    AddMember: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const input = parseRequest(addMemberBody, {
        principal_id: req.principal_id,
        email: req.email,
        role: req.role,
        team_id: await teamId(org.id, req.team_id),
      });
      const [added] = await memberships.withEmails([await memberships.addMember(actor, org.id, input)]);
      return toMessage(added);
    }),
    ListMembers: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const team_id = await teamId(org.id, req.team_id);
      const page = await memberships.listMembersWithEmails(actor, org.id, { ...pageOptions(req), team_id });
      return { memberships: page.items.map(toMessage), next_cursor: page.nextCursor ?? '' };
    }),
    UpdateMemberRole: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const { membership_id, role } = parseRequest(membershipRef.extend(updateMemberBody.shape), req);
      return toMessage(await memberships.updateMember(actor, org.id, membership_id, role));
    }),
    RemoveMember: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const { membership_id } = parseRequest(membershipRef, req);
      return toMessage(await memberships.removeMember(actor, org.id, membership_id));
    }),
  };
}

export const memberService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/members.proto',
  serviceName: 'switchyard.admin.v1.MemberService',
  implement,
};
