import type { Command } from 'commander';
import type { GrantServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/GrantService.js';
import { allPages, CliError, type AdminClient } from '../client.js';
import { asTyped, shortTime } from '../format.js';
import { orgOption, limitOption, yesOption } from '../options.js';
import { execute } from '../output.js';

const grants = (client: AdminClient) => client.service<GrantServiceDefinition>('GrantService');

export function registerGrant(program: Command): void {
  const grant = program.command('grant').description('ACL grants: one principal, one action, one resource');

  grant
    .command('create')
    .description('give a principal one action on one resource')
    .addOption(orgOption())
    .requiredOption('--principal <id|email>', 'a principal id or registered email')
    .requiredOption('--action <action>', 'an action of the catalog, e.g. team.update')
    .requiredOption('--resource-type <type>', 'e.g. team, organization')
    .requiredOption('--resource-id <id>', 'the resource id')
    .action(
      (opts: { org: string; principal: string; action: string; resourceType: string; resourceId: string }, command: Command) =>
        execute(command, {
          label: `granting ${opts.action}`,
          run: (client) =>
            grants(client).CreateGrant({
              organization: opts.org,
              principal_id: opts.principal,
              action: opts.action,
              resource_type: opts.resourceType,
              resource_id: opts.resourceId,
            }),
          fields: {
            principal_id: '--principal',
            action: { flag: '--action', given: opts.action },
            resource_type: '--resource-type',
            resource_id: '--resource-id',
          },
          view: (g) => [
            {
              kind: 'message',
              text: `Granted ${g.action} on ${g.resource_type} ${g.resource_id} to ${asTyped(opts.principal, g.principal_id)}.`,
              tone: 'good',
            },
            {
              kind: 'record',
              fields: [
                ['grant', g.id],
                ['created', shortTime(g.created_at)],
              ],
            },
          ],
        }),
    );

  grant
    .command('list')
    .description('ACL grants of an organization')
    .addOption(orgOption())
    .addOption(limitOption())
    .action((opts: { org: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing grants of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await grants(client).ListGrants({ organization: opts.org, cursor, limit });
            return [page.grants, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'PRINCIPAL', 'ACTION', 'RESOURCE', 'CREATED'],
            rows: list.map((g) => [
              g.id,
              g.principal_id,
              { text: g.action, tone: 'accent' },
              `${g.resource_type} ${g.resource_id}`,
              shortTime(g.created_at),
            ]),
            empty: 'no grants',
          },
        ],
      }),
    );

  grant
    .command('delete <grant-id>')
    .description('remove an ACL grant')
    .addOption(orgOption())
    .addOption(yesOption())
    .action((grantId: string, opts: { org: string }, command: Command) =>
      execute(command, {
        label: `deleting grant ${grantId}`,
        confirm: async (client) => {
          const all = await allPages(async (cursor, limit) => {
            const page = await grants(client).ListGrants({ organization: opts.org, cursor, limit });
            return [page.grants, page.next_cursor];
          });
          const g = all.find((x) => x.id === grantId);
          if (g === undefined) throw new CliError('not_found', 'grant not found');
          return `This deletes the grant of ${g.action} on ${g.resource_type} ${g.resource_id} to ${g.principal_id}.`;
        },
        run: (client) => grants(client).DeleteGrant({ organization: opts.org, grant_id: grantId }),
        view: (g) => [{ kind: 'message', text: `Deleted the grant of ${g.action} to ${g.principal_id}.`, tone: 'good' }],
      }),
    );
}
