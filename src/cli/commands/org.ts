import { Option, type Command } from 'commander';
import type { Organization__Output } from '../../grpc/generated/switchyard/admin/v1/Organization.js';
import type { OrganizationServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/OrganizationService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { roleCell, shortTime } from '../format.js';
import { limitOption, requireSomeChange } from '../options.js';
import { execute, type RecordView, type TableView } from '../output.js';
import { registerOrgSettings } from './org-settings.js';

type Organization = Plain<Organization__Output>;

const organizations = (client: AdminClient) => client.service<OrganizationServiceDefinition>('OrganizationService');

function organizationRecord(org: Organization): RecordView {
  return {
    kind: 'record',
    fields: [
      ['id', org.id],
      ['slug', { text: org.slug, tone: 'accent' }],
      ['display name', org.display_name],
      ['created by', org.created_by ?? { text: 'operator', tone: 'muted' }],
      ['created', shortTime(org.created_at)],
    ],
  };
}

function organizationTable(list: Organization[]): TableView {
  return {
    kind: 'table',
    columns: ['ID', 'SLUG', 'DISPLAY NAME', 'CREATED'],
    rows: list.map((o) => [o.id, { text: o.slug, tone: 'accent' }, o.display_name, shortTime(o.created_at)]),
    empty: 'no organizations yet: create one with `switchyard org create <slug>`',
  };
}

export function registerOrg(program: Command): void {
  const org = program.command('org').description('organizations');

  org
    .command('create <slug>')
    .description('create an organization and its first owner')
    .option('--display-name <name>', 'display name (default: the slug)')
    .addOption(new Option('--owner-principal <uuid>', 'the first owner: an existing principal id').conflicts('ownerEmail'))
    .addOption(new Option('--owner-email <email>', 'the first owner: the principal of this email, created when absent'))
    .action((slug: string, opts: { displayName?: string; ownerPrincipal?: string; ownerEmail?: string }, command: Command) =>
      execute(command, {
        label: `creating organization ${slug}`,
        run: (client) =>
          organizations(client).CreateOrganization({
            slug,
            ...(opts.displayName === undefined ? {} : { display_name: opts.displayName }),
            ...(opts.ownerPrincipal === undefined ? {} : { owner_principal_id: opts.ownerPrincipal }),
            ...(opts.ownerEmail === undefined ? {} : { owner_email: opts.ownerEmail }),
          }),
        fields: { display_name: '--display-name', owner_principal_id: '--owner-principal', owner_email: '--owner-email' },
        view: ({ organization, owner }) => [
          { kind: 'message', text: `Created organization ${organization!.slug}.`, tone: 'good' },
          organizationRecord(organization!),
          {
            kind: 'record',
            title: 'Owner',
            fields: [
              ['principal', owner!.principal_id],
              ...(opts.ownerEmail === undefined ? [] : ([['email', opts.ownerEmail.trim()]] as [string, string][])),
              ['membership', owner!.id],
              ['role', roleCell(owner!.role)],
            ],
          },
        ],
      }),
    );

  org
    .command('list')
    .description('every organization, by slug')
    .addOption(limitOption())
    .action((opts: { limit?: number }, command: Command) =>
      execute(command, {
        label: 'listing organizations',
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await organizations(client).ListOrganizations({ cursor, limit });
            return [page.organizations, page.next_cursor];
          }).then((list) => list.sort((a, b) => a.slug.localeCompare(b.slug)).slice(0, opts.limit)),
        view: (list) => [organizationTable(list)],
      }),
    );

  org
    .command('show <org>')
    .description('one organization, by id or slug')
    .action((ref: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `looking up ${ref}`,
        run: (client) => organizations(client).GetOrganization({ organization: ref }),
        view: (o) => [organizationRecord(o)],
      }),
    );

  org
    .command('rename <org>')
    .description('change the slug and/or the display name of an organization')
    .option('--slug <slug>', 'the new slug (unique)')
    .option('--display-name <name>', 'the new display name')
    .action((ref: string, opts: { slug?: string; displayName?: string }, command: Command) => {
      requireSomeChange(command);
      return execute(command, {
        label: `renaming ${ref}`,
        run: (client) =>
          organizations(client).UpdateOrganization({
            organization: ref,
            ...(opts.slug === undefined ? {} : { slug: opts.slug }),
            ...(opts.displayName === undefined ? {} : { display_name: opts.displayName }),
          }),
        view: (o) => [{ kind: 'message', text: `Renamed the organization to ${o.slug}.`, tone: 'good' }, organizationRecord(o)],
      });
    });

  registerOrgSettings(org);
}
