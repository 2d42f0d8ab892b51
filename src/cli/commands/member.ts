import { Option, type Command } from 'commander';
import type { MemberServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/MemberService.js';
import type { Membership__Output } from '../../grpc/generated/switchyard/admin/v1/Membership.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { roleCell, shortTime } from '../format.js';
import { orgOption, roleOption, limitOption } from '../options.js';
import { execute, type RecordView } from '../output.js';

type Membership = Plain<Membership__Output>;

const members = (client: AdminClient) => client.service<MemberServiceDefinition>('MemberService');

function membershipRecord(m: Membership): RecordView {
  return {
    kind: 'record',
    fields: [
      ['membership', m.id],
      ['organization', m.organization_id],
      ['team', m.team_id ?? { text: 'whole organization', tone: 'muted' }],
      ['principal', m.principal_id],
      ['role', roleCell(m.role)],
      ['updated', shortTime(m.updated_at)],
    ],
  };
}

export function registerMember(program: Command): void {
  const member = program.command('member').description("memberships: a principal's role in an organization or one of its teams");

  member
    .command('add')
    .description('add a member with a role (organization-wide, or on one team with --team)')
    .addOption(orgOption())
    .addOption(new Option('--principal <uuid>', 'principal id').conflicts('email'))
    .addOption(new Option('--email <email>', 'the principal of this email, created when absent'))
    .addOption(roleOption())
    .option('--team <team-id>', 'the role applies to this team only')
    .action((opts: { org: string; principal?: string; email?: string; role: string; team?: string }, command: Command) =>
      execute(command, {
        label: `adding ${opts.principal ?? opts.email ?? 'member'} to ${opts.org}`,
        run: (client) =>
          members(client).AddMember({
            organization: opts.org,
            role: opts.role,
            ...(opts.principal === undefined ? {} : { principal_id: opts.principal }),
            ...(opts.email === undefined ? {} : { email: opts.email }),
            ...(opts.team === undefined ? {} : { team_id: opts.team }),
          }),
        fields: { principal_id: '--principal', email: '--email', role: '--role', team_id: '--team' },
        // The store's words ("memberships with this scope already exists") name its index, not the person.
        explain: (e) =>
          e.code === 'conflict'
            ? `${opts.principal ?? opts.email} is already a member of ${opts.team === undefined ? opts.org : `team ${opts.team} in ${opts.org}`} (member set-role changes the role)`
            : undefined,
        view: (m) => [{ kind: 'message', text: `Added ${m.principal_id} as ${m.role}.`, tone: 'good' }, membershipRecord(m)],
      }),
    );

  member
    .command('list')
    .description('members of an organization')
    .addOption(orgOption())
    .option('--team <team-id>', "only this team's memberships")
    .addOption(limitOption())
    .action((opts: { org: string; team?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing members of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await members(client).ListMembers({
              organization: opts.org,
              cursor,
              limit,
              ...(opts.team === undefined ? {} : { team_id: opts.team }),
            });
            return [page.memberships, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['MEMBERSHIP', 'PRINCIPAL', 'ROLE', 'TEAM', 'SINCE'],
            rows: list.map((m) => [
              m.id,
              m.principal_id,
              roleCell(m.role),
              m.team_id ?? { text: '-', tone: 'muted' },
              shortTime(m.created_at),
            ]),
            empty: 'no members',
          },
        ],
      }),
    );

  member
    .command('set-role <membership-id>')
    .description("change a member's role")
    .addOption(orgOption())
    .addOption(roleOption())
    .action((membershipId: string, opts: { org: string; role: string }, command: Command) =>
      execute(command, {
        label: `changing the role of ${membershipId}`,
        run: (client) =>
          members(client).UpdateMemberRole({ organization: opts.org, membership_id: membershipId, role: opts.role }),
        view: (m) => [{ kind: 'message', text: `${m.principal_id} is now ${m.role}.`, tone: 'good' }, membershipRecord(m)],
      }),
    );

  member
    .command('remove <membership-id>')
    .description('remove a membership')
    .addOption(orgOption())
    .action((membershipId: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `removing ${membershipId}`,
        run: (client) => members(client).RemoveMember({ organization: opts.org, membership_id: membershipId }),
        view: (m) => [{ kind: 'message', text: `Removed ${m.principal_id} (${m.role}).`, tone: 'good' }],
      }),
    );
}
