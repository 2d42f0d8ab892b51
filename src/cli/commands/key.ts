import type { Command } from 'commander';
import { apiKeyScopes } from '../../domain/identity/caller.js';
import type { ApiKey__Output } from '../../grpc/generated/switchyard/admin/v1/ApiKey.js';
import type { ApiKeyServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/ApiKeyService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { asTyped, parseDuration, shortTime } from '../format.js';
import { orgOption, repeatableChoiceOption, limitOption, yesOption } from '../options.js';
import { execute, type Cell, type RecordView } from '../output.js';

type ApiKey = Plain<ApiKey__Output>;

const apiKeys = (client: AdminClient) => client.service<ApiKeyServiceDefinition>('ApiKeyService');

function keyState(key: ApiKey): Cell {
  if (key.revoked_at !== null) return { text: 'revoked', tone: 'bad' };
  if (key.expires_at !== null && Date.parse(key.expires_at) <= Date.now()) return { text: 'expired', tone: 'warn' };
  return { text: 'active', tone: 'good' };
}

function scopesText(key: ApiKey): Cell {
  return key.scopes.length === 0 ? { text: 'full access', tone: 'warn' } : { text: key.scopes.join(',') };
}

/** A key's fields; `principal` is who the operator said it acts as (an email shows beside the id). */
function keyRecord(key: ApiKey, principal?: string): RecordView {
  const actsAs = asTyped(principal, key.principal_id);
  return {
    kind: 'record',
    fields: [
      ['id', key.id],
      ['name', key.name],
      ['prefix', key.prefix],
      ['state', keyState(key)],
      ['organization', key.organization_id],
      ['acts as', actsAs],
      ...(actsAs === key.principal_id ? [] : ([['principal', key.principal_id]] as [string, string][])),
      ['scopes', scopesText(key)],
      ['expires', key.expires_at === null ? { text: 'never', tone: 'muted' } : shortTime(key.expires_at)],
    ],
  };
}

export function registerKey(program: Command): void {
  const key = program.command('key').description('API keys');

  key
    .command('create')
    .description("create an API key; it acts as --principal (default: the organization's first owner)")
    .addOption(orgOption())
    .requiredOption('--name <name>', 'what the key is for')
    .addOption(
      repeatableChoiceOption('--scope <scope>', 'limit the key to this scope (repeatable; none: full access)', apiKeyScopes),
    )
    .option(
      '--expires-in <duration>',
      'lifetime: a number and a unit, s m h d w or y (calendar years), e.g. 30d, 12h, 1y; 60s to 10y (default: no expiry)',
      parseDuration,
    )
    .option('--principal <id|email>', 'the member the key acts as (principal id or email)')
    .action((opts: { org: string; name: string; scope?: string[]; expiresIn?: number; principal?: string }, command: Command) =>
      execute(command, {
        label: `creating key ${opts.name}`,
        run: (client) =>
          apiKeys(client).CreateApiKey({
            organization: opts.org,
            name: opts.name,
            scopes: opts.scope ?? [],
            ...(opts.expiresIn === undefined ? {} : { expires_in_seconds: opts.expiresIn }),
            ...(opts.principal === undefined ? {} : { principal_id: opts.principal }),
          }),
        fields: { name: '--name', scopes: '--scope', expires_in_seconds: '--expires-in', principal_id: '--principal' },
        json: ({ api_key, raw_key }) => ({ ...api_key, raw_key }),
        view: ({ api_key, raw_key }) => [
          keyRecord(api_key!, opts.principal),
          { kind: 'message', text: 'The key, shown this once (only its hash is stored):' },
          { kind: 'message', text: raw_key, tone: 'accent' },
        ],
      }),
    );

  key
    .command('list')
    .description('active keys of an organization (--all: revoked ones too)')
    .addOption(orgOption())
    .option('--all', 'revoked keys too')
    .addOption(limitOption())
    .action((opts: { org: string; all?: boolean; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing keys of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await apiKeys(client).ListApiKeys({
              organization: opts.org,
              cursor,
              limit,
              include_revoked: opts.all === true,
            });
            return [page.api_keys, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'NAME', 'PREFIX', 'STATE', 'SCOPES', 'EXPIRES', 'LAST USED'],
            rows: list.map((k) => [
              k.id,
              k.name,
              k.prefix,
              keyState(k),
              scopesText(k),
              shortTime(k.expires_at),
              shortTime(k.last_used_at),
            ]),
            empty: opts.all === true ? 'no keys' : 'no active keys',
          },
        ],
      }),
    );

  key
    .command('revoke <key>')
    .description('revoke a key (by id, or by name with --org); it stops working on the next request')
    .addOption(orgOption('organization id or slug (required when the key is named by name)'))
    .addOption(yesOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `revoking ${id}`,
        confirm: async (client) => {
          const k = await apiKeys(client).GetApiKey({ id, organization: opts.org ?? '' });
          return `This revokes API key ${k.name} (svc_${k.prefix}_..., acting as ${k.principal_id}): requests with it fail from then on.`;
        },
        run: (client) => apiKeys(client).RevokeApiKey({ id, organization: opts.org ?? '' }),
        view: (k) => [{ kind: 'message', text: `Revoked ${k.name} (${k.prefix}).`, tone: 'good' }, keyRecord(k)],
      }),
    );
}
