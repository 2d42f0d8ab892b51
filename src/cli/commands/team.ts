import type { Command } from 'commander';
import type { Team__Output } from '../../grpc/generated/switchyard/admin/v1/Team.js';
import type { TeamServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/TeamService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { shortTime } from '../format.js';
import { orgOption, limitOption } from '../options.js';
import { execute, type RecordView } from '../output.js';

type Team = Plain<Team__Output>;

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
    .command('show <team-id>')
    .description('one team')
    .addOption(orgOption())
    .action((teamId: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `looking up team ${teamId}`,
        run: (client) => teams(client).GetTeam({ organization: opts.org, team_id: teamId }),
        view: (t) => [teamRecord(t)],
      }),
    );

  team
    .command('delete <team-id>')
    .description('delete a team with its memberships')
    .addOption(orgOption())
    .action((teamId: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `deleting team ${teamId}`,
        run: (client) => teams(client).DeleteTeam({ organization: opts.org, team_id: teamId }),
        view: (t) => [{ kind: 'message', text: `Deleted team ${t.name}.`, tone: 'good' }],
      }),
    );
}
