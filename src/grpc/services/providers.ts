import { providerSettingsInput, routeQuery, usageQuery } from '../../domain/providers/schemas.js';
import type { ProviderRecord } from '../../domain/providers/types.js';
import type { Provider } from '../generated/switchyard/admin/v1/Provider.js';
import type { ProviderServiceHandlers } from '../generated/switchyard/admin/v1/ProviderService.js';
import { parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

function providerMessage(record: ProviderRecord): Provider {
  return { ...toMessage(record), health: toMessage(record.health) };
}

function implement({ services, log }: ServiceContext): ProviderServiceHandlers {
  const { providers } = services;
  return {
    ListProviders: unary(log, () => Promise.resolve({ providers: providers.listProviders().map(providerMessage) })),
    SetProvider: unary(log, async (req, { actor }) => {
      const input = parseRequest(providerSettingsInput, {
        ...(req.tier === undefined ? {} : { tier: req.tier }),
        ...(req.cost_usd === undefined ? {} : { cost_usd: req.cost_usd }),
        ...(req.clear_models ? { models: [] } : req.models.length > 0 ? { models: req.models } : {}),
        ...(req.enabled === undefined ? {} : { enabled: req.enabled }),
        ...(req.drained === undefined ? {} : { drained: req.drained }),
      });
      return providerMessage(await providers.setProvider(actor, req.name, input));
    }),
    RouteProvider: unary(log, (req) => {
      const query = parseRequest(routeQuery, {
        modality: req.modality,
        ...(req.tier === undefined ? {} : { tier: req.tier }),
        ...(req.model === undefined ? {} : { model: req.model }),
      });
      return Promise.resolve(toMessage(providers.explainRoute(query)));
    }),
    ProviderUsage: unary(log, async (req, { actor }) => {
      const org = await resolveOrganization(services, req.organization);
      const query = parseRequest(usageQuery, {
        ...(req.since === undefined ? {} : { since: req.since }),
        ...(req.until === undefined ? {} : { until: req.until }),
        ...(req.provider === undefined ? {} : { provider: req.provider }),
      });
      const rows = await providers.usageOf(actor, org.id, query);
      return {
        rows: rows.map((r) => ({
          ...r,
          calls: String(r.calls),
          failures: String(r.failures),
          input_tokens: String(r.input_tokens),
          output_tokens: String(r.output_tokens),
          latency_ms_avg: String(r.latency_ms_avg),
        })),
      };
    }),
  };
}

export const providerService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/providers.proto',
  serviceName: 'switchyard.admin.v1.ProviderService',
  implement,
};
