import { Option, type Command } from 'commander';
import type { ApiKeyServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/ApiKeyService.js';
import type { GrantServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/GrantService.js';
import type { MemberServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/MemberService.js';
import type { Membership__Output } from '../../grpc/generated/switchyard/admin/v1/Membership.js';
import { allPages, CliError, type AdminClient, type Plain } from '../client.js';
import { counted, roleCell, shortTime } from '../format.js';
import { orgOption, roleOption, limitOption, yesOption } from '../options.js';
import { execute, type Cell, type RecordView } from '../output.js';

type Membership = Plain<Membership__Output>;

const members = (client: AdminClient) => client.service<MemberServiceDefinition>('MemberService');

/** Who a membership belongs to, for people: the email when the principal has one. */
function who(m: Membership): string {
  return m.email ?? m.principal_id;
}

/** Every membership of the organization (of one team with `team`). */
function listMembers(client: AdminClient, organization: string, team?: string, max?: number): Promise<Membership[]> {
  return allPages(async (cursor, limit) => {
    const page = await members(client).ListMembers({
      organization,
      cursor,
      limit,
      ...(team === undefined ? {} : { team_id: team }),
    });
    return [page.memberships, page.next_cursor];
  }, max);
}

/** What `member remove` takes along: a principal's last membership takes its grants and API keys too. */
async function removalConsequences(client: AdminClient, organization: string, membershipId: string): Promise<string> {
  const all = await listMembers(client, organization);
  const m = all.find((x) => x.id === membershipId);
  if (m === undefined) throw new CliError('not_found', 'membership not found');
  const where = m.team_id === null ? `${m.role} of the whole organization` : `${m.role} on team ${m.team_id}`;
  const others = all.filter((x) => x.principal_id === m.principal_id && x.id !== m.id).length;
  if (others > 0) return `This removes ${who(m)} as ${where}; ${counted(others, 'other membership')} in ${organization} stay.`;
  const grants = await allPages(async (cursor, limit) => {
    const page = await client.service<GrantServiceDefinition>('GrantService').ListGrants({ organization, cursor, limit });
    return [page.grants, page.next_cursor];
  });
  const keys = await allPages(async (cursor, limit) => {
    const page = await client.service<ApiKeyServiceDefinition>('ApiKeyService').ListApiKeys({ organization, cursor, limit });
    return [page.api_keys, page.next_cursor];
  });
  const grantCount = grants.filter((g) => g.principal_id === m.principal_id).length;
  const keyCount = keys.filter((k) => k.principal_id === m.principal_id).length;
  return `This removes ${who(m)} (${where}) from ${organization}, their last membership there: it also deletes ${counted(grantCount, 'grant')} and revokes ${counted(keyCount, 'API key')}.`;
}

function membershipRecord(m: Membership): RecordView {
  return {
    kind: 'record',
    fields: [
      ['membership', m.id],
      ['organization', m.organization_id],
      ['team', m.team_id ?? { text: 'whole organization', tone: 'muted' }],
      ['principal', m.principal_id],
      ...(m.email === null ? [] : [['email', { text: m.email, tone: 'accent' }] as [string, Cell]]),
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
    .addOption(new Option('--principal <id|email>', 'principal id, or email (as --email)').conflicts('email'))
    .addOption(new Option('--email <email>', 'the principal of this email, created when absent'))
    .addOption(roleOption())
    .option('--team <team>', 'the role applies to this team only (id or name)')
    .action((opts: { org: string; principal?: string; email?: string; role: string; team?: string }, command: Command) =>
      execute(command, {
        label: `adding ${opts.principal ?? opts.email ?? 'member'} to ${opts.org}`,
        run: (client) =>
          members(client).AddMember({
            organization: opts.org,
            role: opts.role,
            ...(opts.principal === undefined || opts.principal.includes('@') ? {} : { principal_id: opts.principal }),
            ...(opts.email === undefined ? {} : { email: opts.email }),
            ...(opts.principal?.includes('@') === true ? { email: opts.principal } : {}),
            ...(opts.team === undefined ? {} : { team_id: opts.team }),
          }),
        fields: { principal_id: '--principal', email: '--email', role: '--role', team_id: '--team' },
        // The store's words ("memberships with this scope already exists") name its index, not the person.
        explain: (e) =>
          e.code === 'conflict'
            ? `${opts.principal ?? opts.email} is already a member of ${opts.team === undefined ? opts.org : `team ${opts.team} in ${opts.org}`} (member set-role changes the role)`
            : undefined,
        view: (m) => [{ kind: 'message', text: `Added ${who(m)} as ${m.role}.`, tone: 'good' }, membershipRecord(m)],
      }),
    );

  member
    .command('list')
    .description('members of an organization')
    .addOption(orgOption())
    .option('--team <team>', "only this team's memberships (id or name)")
    .addOption(limitOption())
    .action((opts: { org: string; team?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing members of ${opts.org}`,
        run: (client) => listMembers(client, opts.org, opts.team, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['MEMBERSHIP', 'EMAIL', 'PRINCIPAL', 'ROLE', 'TEAM', 'SINCE'],
            rows: list.map((m) => [
              m.id,
              m.email ?? { text: '-', tone: 'muted' },
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
    .description('remove a membership (a last membership takes the grants and API keys of its principal along)')
    .addOption(orgOption())
    .addOption(yesOption())
    .action((membershipId: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `removing ${membershipId}`,
        confirm: (client) => removalConsequences(client, opts.org, membershipId),
        run: (client) => members(client).RemoveMember({ organization: opts.org, membership_id: membershipId }),
        view: (m) => [{ kind: 'message', text: `Removed ${m.principal_id} (${m.role}).`, tone: 'good' }],
      }),
    );
}
