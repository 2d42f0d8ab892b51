import { Option, type Command } from 'commander';
import type { PermissionCheck__Output } from '../../grpc/generated/switchyard/admin/v1/PermissionCheck.js';
import type { PermissionServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/PermissionService.js';
import type { Plain } from '../client.js';
import { asTyped, roleCell } from '../format.js';
import { orgOption } from '../options.js';
import { execute, type Cell, type View } from '../output.js';

type PermissionCheck = Plain<PermissionCheck__Output>;

/** Why, in words: the role or grant that allows it, or what is missing. */
function why(check: PermissionCheck): Cell {
  if (check.reason === 'role')
    return { text: `the role ${check.role ?? '-'} (the action needs ${check.required_role})`, tone: 'good' };
  if (check.reason === 'grant')
    return { text: `an ACL grant of ${check.action} on the ${check.resource_type} or its organization`, tone: 'good' };
  return { text: check.reason, tone: 'bad' };
}

/** The answer; the message names the principal and the organization as the operator typed them. */
function checkViews(check: PermissionCheck, typed: { principal?: string; org: string }): View[] {
  const principal = asTyped(typed.principal, check.principal_id);
  const who =
    check.api_key_id !== null ? `API key ${check.api_key_id}` : principal.includes('@') ? principal : `principal ${principal}`;
  const on =
    check.resource_type === 'organization' && check.resource_id === check.organization_id
      ? `organization ${asTyped(typed.org, check.organization_id)}`
      : `${check.resource_type} ${check.resource_id}`;
  return [
    {
      kind: 'message',
      text: `${check.allowed ? 'Allowed' : 'Denied'}: ${who} ${check.allowed ? 'may' : 'may not'} ${check.action} on ${on}.`,
      tone: check.allowed ? 'good' : 'bad',
    },
    {
      kind: 'record',
      fields: [
        ['allowed', check.allowed ? { text: 'yes', tone: 'good' } : { text: 'no', tone: 'bad' }],
        ['why', why(check)],
        ['role', check.role === null ? { text: 'none', tone: 'muted' } : roleCell(check.role)],
        ['needs', `${check.required_role} or higher, or a grant of ${check.action}`],
        ['principal', check.principal_id],
        ...(check.api_key_id === null ? [] : ([['api key', check.api_key_id]] as Array<[string, string]>)),
        ['organization', check.organization_id],
        ['resource', `${check.resource_type} ${check.resource_id}`],
      ],
    },
  ];
}

export function registerPermissions(program: Command): void {
  const permissions = program.command('permissions').description('permission questions: why a caller gets a 403');

  permissions
    .command('check')
    .description('may this principal or API key do this action? answers as POST /v1/permissions/check would, and why')
    .addOption(orgOption())
    .addOption(new Option('--principal <uuid|email>', 'the principal asked about: its id or its email').conflicts('key'))
    .addOption(new Option('--key <key-id>', 'the API key asked about (its id): its principal, narrowed by its scopes'))
    .requiredOption('--action <action>', 'an action of the catalog, e.g. team.update (docs/permissions.md)')
    .option('--resource-type <type>', 'e.g. team, api_key (default: the organization)')
    .option('--resource-id <id>', 'the resource id (with --resource-type)')
    .action(
      (
        opts: { org: string; principal?: string; key?: string; action: string; resourceType?: string; resourceId?: string },
        command: Command,
      ) => {
        if ((opts.principal === undefined) === (opts.key === undefined))
          command.error('error: give --principal <uuid|email> or --key <key-id>', { exitCode: 2 });
        if ((opts.resourceType === undefined) !== (opts.resourceId === undefined))
          command.error('error: give --resource-type and --resource-id together', { exitCode: 2 });
        return execute(command, {
          label: `checking ${opts.action}`,
          run: (client) =>
            client.service<PermissionServiceDefinition>('PermissionService').CheckPermission({
              organization: opts.org,
              action: opts.action,
              ...(opts.principal === undefined ? {} : { principal: opts.principal }),
              ...(opts.key === undefined ? {} : { api_key_id: opts.key }),
              ...(opts.resourceType === undefined ? {} : { resource_type: opts.resourceType }),
              ...(opts.resourceId === undefined ? {} : { resource_id: opts.resourceId }),
            }),
          view: (check) => checkViews(check, opts),
        });
      },
    );
}
