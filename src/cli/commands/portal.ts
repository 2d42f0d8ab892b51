import type { Command } from 'commander';
import { portalCapabilities } from '../../domain/portal/types.js';
import type { PortalServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/PortalService.js';
import type { AdminClient } from '../client.js';
import { parseDuration, shortTime } from '../format.js';
import { orgOption, repeatableChoiceOption } from '../options.js';
import { execute } from '../output.js';

const portal = (client: AdminClient) => client.service<PortalServiceDefinition>('PortalService');

/** `switchyard portal link`: a single-use link to an organization's tenant portal (docs/portal.md). */
export function registerPortal(program: Command): void {
  const group = program.command('portal').description("the tenant portal: web pages of one organization's integration");

  group
    .command('link')
    .description('mint a single-use portal link for an organization (read only unless --capability manage_webhooks)')
    .addOption(orgOption())
    .option('--ttl <duration>', 'how long the session lasts: e.g. 30m, 2h, 1d; 60s to 24h (default 1h)', parseDuration)
    .addOption(
      repeatableChoiceOption(
        '--capability <capability>',
        'what the session may do besides read (repeatable)',
        portalCapabilities,
      ),
    )
    .action((opts: { org: string; ttl?: number; capability?: string[] }, command: Command) =>
      execute(command, {
        label: `minting a portal link for ${opts.org}`,
        run: (client) =>
          portal(client).CreatePortalSession({
            organization: opts.org,
            capabilities: opts.capability ?? [],
            ...(opts.ttl === undefined ? {} : { ttl_seconds: opts.ttl }),
          }),
        fields: { ttl_seconds: '--ttl', capabilities: '--capability' },
        view: (s) => [
          {
            kind: 'record',
            fields: [
              ['organization', s.organization_id],
              ['capabilities', s.capabilities.join(', ')],
              ['expires', shortTime(s.expires_at)],
            ],
          },
          { kind: 'message', text: 'The link, shown this once; it works once:' },
          { kind: 'message', text: s.url, tone: 'accent' },
        ],
      }),
    );
}
