import type { Command } from 'commander';
import type { Principal__Output } from '../../grpc/generated/switchyard/admin/v1/Principal.js';
import type { PrincipalDetails__Output } from '../../grpc/generated/switchyard/admin/v1/PrincipalDetails.js';
import type { PrincipalServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/PrincipalService.js';
import type { AdminClient, Plain } from '../client.js';
import { roleCell, shortTime } from '../format.js';
import { execute, type Cell, type View } from '../output.js';

type PrincipalDetails = Plain<PrincipalDetails__Output>;
type Principal = Plain<Principal__Output>;

const principals = (client: AdminClient) => client.service<PrincipalServiceDefinition>('PrincipalService');

const none: Cell = { text: '-', tone: 'muted' };

function principalRecord(principal: Principal): View {
  return {
    kind: 'record',
    fields: [
      ['id', principal.id],
      [
        'email',
        principal.email === null ? { text: 'none (known by id only)', tone: 'muted' } : { text: principal.email, tone: 'accent' },
      ],
      [
        'subject',
        principal.external_id === null ? { text: 'none (not bound to a JWT sub)', tone: 'muted' } : principal.external_id,
      ],
      ['since', shortTime(principal.created_at)],
    ],
  };
}

function principalViews({ principal, organizations }: PrincipalDetails): View[] {
  return [
    principalRecord(principal!),
    {
      kind: 'table',
      title: 'Organizations',
      columns: ['ORGANIZATION', 'ROLE', 'TEAM', 'MEMBERSHIP'],
      // One row for the organization-level role, one per team.
      rows: organizations.flatMap((o) => {
        const org: Cell = { text: o.slug, tone: 'accent' };
        return [
          ...(o.role === null ? [] : [[org, roleCell(o.role), none, o.membership_id ?? none]]),
          ...o.teams.map((t) => [org, roleCell(t.role), t.team_name, t.membership_id]),
        ];
      }),
      empty: 'member of no organization',
    },
  ];
}

export function registerPrincipal(program: Command): void {
  const principal = program.command('principal').description('principals: the people (and programs) that hold roles');

  principal
    .command('show <principal>')
    .description('a principal, by email or id, with its organizations and roles (organization and team memberships)')
    .action((ref: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `looking up ${ref}`,
        run: (client) => principals(client).GetPrincipal({ principal: ref }),
        view: principalViews,
      }),
    );

  principal
    .command('link')
    .description("bind the principal an invitation registered for an email to an identity provider's subject (JWT sub)")
    .requiredOption('--email <email>', 'the email the principal is registered with')
    .requiredOption('--subject <sub>', 'the JWT sub, e.g. auth0|64f1c2...')
    .action((opts: { email: string; subject: string }, command: Command) =>
      execute(command, {
        label: `linking ${opts.email}`,
        run: (client) => principals(client).LinkPrincipal({ email: opts.email, subject: opts.subject }),
        view: (p) => [principalRecord(p)],
      }),
    );
}
