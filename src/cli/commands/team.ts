import type { Command } from 'commander';
import type { GrantServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/GrantService.js';
import type { MemberServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/MemberService.js';
import type { Team__Output } from '../../grpc/generated/switchyard/admin/v1/Team.js';
import type { TeamServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/TeamService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { counted, shortTime } from '../format.js';
import { orgOption, limitOption, yesOption } from '../options.js';
import { execute, type RecordView } from '../output.js';

type Team = Plain<Team__Output>;

const optionalOrg = 'organization id or slug (required when the team is named by name)';

const teams = (client: AdminClient) => client.service<TeamServiceDefinition>('TeamService');

function teamRecord(team: Team): RecordView {
  return {
    kind: 'record',
    fields: [
      ['id', team.id],
      ['name', { text: team.name, tone: 'accent' }],
      ['organization', team.organization_id],
      ['created', shortTime(team.created_at)],
    ],
  };
}

/** A team named by id (--org optional) or by name (--org required). */
function teamRef(team: string, org: string | undefined): { organization: string; team_id: string } {
  return { organization: org ?? '', team_id: team };
}

/** What `team delete` takes along: the team's memberships and the grants on it. */
async function deletionConsequences(client: AdminClient, ref: { organization: string; team_id: string }): Promise<string> {
  const team = await teams(client).GetTeam(ref);
  const organization = team.organization_id;
  const memberships = await allPages(async (cursor, limit) => {
    const page = await client
      .service<MemberServiceDefinition>('MemberService')
      .ListMembers({ organization, team_id: team.id, cursor, limit });
    return [page.memberships, page.next_cursor];
  });
  const grants = await allPages(async (cursor, limit) => {
    const page = await client.service<GrantServiceDefinition>('GrantService').ListGrants({ organization, cursor, limit });
    return [page.grants, page.next_cursor];
  });
  const onTeam = grants.filter((g) => g.resource_type === 'team' && g.resource_id === team.id).length;
  return `This deletes team ${team.name} and removes ${counted(memberships.length, 'membership')} and ${counted(onTeam, 'grant')} on it.`;
}

export function registerTeam(program: Command): void {
  const team = program.command('team').description('teams inside an organization');

  team
    .command('create <name>')
    .description('create a team')
    .addOption(orgOption())
    .action((name: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `creating team ${name}`,
        run: (client) => teams(client).CreateTeam({ organization: opts.org, name }),
        view: (t) => [{ kind: 'message', text: `Created team ${t.name}.`, tone: 'good' }, teamRecord(t)],
      }),
    );

  team
    .command('list')
    .description('teams of an organization')
    .addOption(orgOption())
    .addOption(limitOption())
    .action((opts: { org: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing teams of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await teams(client).ListTeams({ organization: opts.org, cursor, limit });
            return [page.teams, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'NAME', 'CREATED'],
            rows: list.map((t) => [t.id, { text: t.name, tone: 'accent' }, shortTime(t.created_at)]),
            empty: 'no teams',
          },
        ],
      }),
    );

  team
    .command('show <team>')
    .description('one team, by id, or by name with --org')
    .addOption(orgOption(optionalOrg))
    .action((ref: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `looking up team ${ref}`,
        run: (client) => teams(client).GetTeam(teamRef(ref, opts.org)),
        view: (t) => [teamRecord(t)],
      }),
    );

  team
    .command('rename <team>')
    .description('rename a team (names are unique within an organization)')
    .addOption(orgOption(optionalOrg))
    .requiredOption('--name <name>', 'the new name')
    .action((ref: string, opts: { org?: string; name: string }, command: Command) =>
      execute(command, {
        label: `renaming team ${ref}`,
        run: (client) => teams(client).UpdateTeam({ ...teamRef(ref, opts.org), name: opts.name }),
        view: (t) => [{ kind: 'message', text: `Renamed the team to ${t.name}.`, tone: 'good' }, teamRecord(t)],
      }),
    );

  team
    .command('delete <team>')
    .description('delete a team with its memberships and the grants on it')
    .addOption(orgOption(optionalOrg))
    .addOption(yesOption())
    .action((ref: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `deleting team ${ref}`,
        confirm: (client) => deletionConsequences(client, teamRef(ref, opts.org)),
        run: (client) => teams(client).DeleteTeam(teamRef(ref, opts.org)),
        view: (t) => [{ kind: 'message', text: `Deleted team ${t.name}.`, tone: 'good' }],
      }),
    );
}
