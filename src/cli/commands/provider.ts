import { InvalidArgumentError, Option, type Command } from 'commander';
import { modalities, tiers } from '../../domain/providers/types.js';
import type { Provider__Output } from '../../grpc/generated/switchyard/admin/v1/Provider.js';
import type { ProviderServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/ProviderService.js';
import type { UsageRow__Output } from '../../grpc/generated/switchyard/admin/v1/UsageRow.js';
import type { AdminClient, Plain } from '../client.js';
import { shortTime } from '../format.js';
import { choiceOption, orgOption, requireSomeChange } from '../options.js';
import { execute, type Cell, type RecordView } from '../output.js';

type Provider = Plain<Provider__Output>;
type UsageRow = Plain<UsageRow__Output>;

const providers = (client: AdminClient) => client.service<ProviderServiceDefinition>('ProviderService');

const healthTones: Record<string, Cell['tone']> = { healthy: 'good', unhealthy: 'bad', unknown: 'muted' };

function healthCell(p: Provider): Cell {
  const status = p.health?.status ?? 'unknown';
  return {
    text: p.health?.reason === null || p.health?.reason === undefined ? status : `${status}: ${p.health.reason}`,
    tone: healthTones[status],
  };
}

function stateCell(p: Provider): Cell {
  if (!p.enabled) return { text: 'disabled', tone: 'bad' };
  return p.drained ? { text: 'drained', tone: 'warn' } : { text: 'enabled', tone: 'good' };
}

function costText(p: Provider): string {
  const costs = [...new Set(p.capabilities.map((c) => c.estimated_cost_per_request))];
  return costs.length === 1
    ? `$${costs[0]}`
    : p.capabilities.map((c) => `${c.modality} $${c.estimated_cost_per_request}`).join(', ');
}

function providerRecord(p: Provider): RecordView {
  return {
    kind: 'record',
    fields: [
      ['name', { text: p.name, tone: 'accent' }],
      ['kind', p.kind],
      ['tier', p.tier],
      ['modalities', p.modalities.join(', ')],
      ['cost per request', costText(p)],
      ['models', p.models.length === 0 ? { text: 'none advertised', tone: 'muted' } : p.models.join(', ')],
      ...(p.unavailable_models.length === 0
        ? []
        : ([['cannot load', { text: unavailableText(p), tone: 'bad' }]] satisfies RecordView['fields'])),
      ['streaming', p.streaming ?? { text: 'no', tone: 'muted' }],
      ['state', stateCell(p)],
      ['health', healthCell(p)],
      ['checked', p.health?.checked_at ? shortTime(p.health.checked_at) : { text: 'not yet', tone: 'muted' }],
    ],
  };
}

/** Model files the provider cannot load, each with why. */
function unavailableText(p: Provider): string {
  return p.unavailable_models.map((u) => `${u.model} (${u.reason})`).join(', ');
}

/** The list's MODELS column: the first few advertised, then the files that cannot load, with why. */
function modelsCell(p: Provider): Cell {
  const shown = p.models.slice(0, 4).join(',') + (p.models.length > 4 ? ` +${p.models.length - 4}` : '');
  if (p.unavailable_models.length === 0) return p.models.length === 0 ? { text: '-', tone: 'muted' } : { text: shown };
  const bad = `cannot load: ${unavailableText(p)}`;
  return { text: p.models.length === 0 ? bad : `${shown}; ${bad}`, tone: 'warn' };
}

/** `--cost 0.002`: USD per request, 0 or more. */
function parseCost(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new InvalidArgumentError('expected a cost in USD, 0 or more (e.g. 0.002)');
  return value;
}

/** `--models a,b`: a comma list; an empty string clears the extra models. */
function parseModels(text: string): string[] {
  return text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

/** Usage as HTTP shows it: counts as numbers. */
const usageJson = (rows: UsageRow[]) =>
  rows.map((r) => ({
    ...r,
    calls: Number(r.calls),
    failures: Number(r.failures),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    latency_ms_avg: Number(r.latency_ms_avg),
  }));

export function registerProvider(program: Command): void {
  const provider = program.command('provider').description('AI providers: registry, routing settings, routing decisions, usage');

  provider
    .command('list')
    .description('every registered provider with its tier, costs, models and health')
    .action((_opts: object, command: Command) =>
      execute(command, {
        label: 'listing providers',
        run: async (client) => (await providers(client).ListProviders({})).providers,
        view: (list) => [
          {
            kind: 'table',
            columns: ['NAME', 'TIER', 'MODALITIES', 'COST', 'STATE', 'HEALTH', 'MODELS'],
            rows: list.map((p) => [
              { text: p.name, tone: 'accent' },
              p.tier,
              p.modalities.join(','),
              costText(p),
              stateCell(p),
              healthCell(p),
              modelsCell(p),
            ]),
            empty: 'no providers',
          },
        ],
      }),
    );

  provider
    .command('set <name>')
    .description('change routing settings; they persist and apply on every daemon at once')
    .option('--cost <usd>', 'cost per request in USD, every modality of the provider', parseCost)
    .addOption(choiceOption('--tier <tier>', 'routing tier', tiers))
    .option('--models <a,b>', 'models advertised beyond the provider\'s own list ("" clears them)', parseModels)
    .addOption(new Option('--enable', 'route to it again').conflicts('disable'))
    .addOption(new Option('--disable', 'never route to it'))
    .addOption(new Option('--drain', 'take no new work (calls in flight finish)').conflicts('undrain'))
    .addOption(new Option('--undrain', 'take new work again'))
    .action(
      (
        name: string,
        opts: {
          cost?: number;
          tier?: string;
          models?: string[];
          enable?: boolean;
          disable?: boolean;
          drain?: boolean;
          undrain?: boolean;
        },
        command: Command,
      ) => {
        requireSomeChange(command);
        return execute(command, {
          label: `changing ${name}`,
          run: (client) =>
            providers(client).SetProvider({
              name,
              ...(opts.cost === undefined ? {} : { cost_usd: opts.cost }),
              ...(opts.tier === undefined ? {} : { tier: opts.tier }),
              ...(opts.models === undefined ? {} : opts.models.length === 0 ? { clear_models: true } : { models: opts.models }),
              ...(opts.enable === true ? { enabled: true } : opts.disable === true ? { enabled: false } : {}),
              ...(opts.drain === true ? { drained: true } : opts.undrain === true ? { drained: false } : {}),
            }),
          view: (p) => [providerRecord(p)],
        });
      },
    );

  provider
    .command('route')
    .description('which provider the router picks for a request of this shape, and why each other lost')
    .addOption(choiceOption('--modality <modality>', 'what the request asks for', modalities).makeOptionMandatory())
    .addOption(choiceOption('--tier <tier>', 'the tier asked', tiers))
    .option('--model <model>', 'the model asked')
    .action((opts: { modality: string; tier?: string; model?: string }, command: Command) =>
      execute(command, {
        label: 'asking the router',
        run: (client) =>
          providers(client).RouteProvider({
            modality: opts.modality,
            ...(opts.tier === undefined ? {} : { tier: opts.tier }),
            ...(opts.model === undefined ? {} : { model: opts.model }),
          }),
        view: (r) => [
          r.winner === null
            ? { kind: 'message', text: `no provider can serve ${opts.modality}`, tone: 'bad' }
            : { kind: 'message', text: `${r.winner} wins (model ${r.model ?? '-'})`, tone: 'good' },
          {
            kind: 'table',
            columns: ['PROVIDER', 'WHY NOT'],
            rows: r.rejected.map((x) => [x.provider, x.reason]),
            empty: 'no other provider is registered',
          },
        ],
      }),
    );

  provider
    .command('usage')
    .description("an organization's provider usage by day, provider and model")
    .addOption(orgOption())
    .option('--since <iso>', 'start of the window (default: 30 days ago)')
    .option('--until <iso>', 'end of the window (default: now)')
    .option('--provider <name>', 'only this provider')
    .action((opts: { org: string; since?: string; until?: string; provider?: string }, command: Command) =>
      execute(command, {
        label: `reading usage of ${opts.org}`,
        run: async (client) =>
          usageJson(
            (
              await providers(client).ProviderUsage({
                organization: opts.org,
                ...(opts.since === undefined ? {} : { since: opts.since }),
                ...(opts.until === undefined ? {} : { until: opts.until }),
                ...(opts.provider === undefined ? {} : { provider: opts.provider }),
              })
            ).rows,
          ),
        view: (rows) => [
          {
            kind: 'table',
            columns: ['DAY', 'PROVIDER', 'MODEL', 'CALLS', 'FAILED', 'TOKENS IN', 'TOKENS OUT', 'COST USD', 'AVG MS'],
            rows: rows.map((r) => [
              r.day,
              r.provider,
              r.model,
              String(r.calls),
              r.failures > 0 ? { text: String(r.failures), tone: 'bad' } : '0',
              String(r.input_tokens),
              String(r.output_tokens),
              r.cost_usd.toFixed(6),
              String(r.latency_ms_avg),
            ]),
            empty: 'no usage in this window',
          },
        ],
      }),
    );
}
