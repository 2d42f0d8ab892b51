import { availableParallelism } from 'node:os';
import type { Config } from '../../config/schema.js';
import type { Logger } from '../../log.js';
import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { createAnthropicAdapter } from './adapters/anthropic.js';
import { createComfyUiAdapter } from './adapters/comfyui.js';
import { createEchoAdapter } from './adapters/echo.js';
import { createOllamaAdapter, ollamaBaseUrl } from './adapters/ollama.js';
import { createOpenAiAdapter } from './adapters/openai.js';
import { createRuntimeAdapter, runtimes } from './adapters/optional-runtime.js';
import { createWhisperAdapter } from './adapters/whisper.js';
import { createHealthLoop } from './health-loop.js';
import { ProviderRegistry } from './registry.js';
import { ProviderService } from './service.js';
import { createProviderStore, PROVIDER_SETTINGS_TOPIC } from './store.js';
import type { Adapter, ProviderName } from './types.js';
import { closeUpstreams, Upstream } from './upstream.js';
import { UsageRecorder } from './usage.js';

export interface ProviderServices {
  providers: ProviderService;
}

/** Each provider whose setting is present (contract 8's table), in the spec's registration order; echo always. */
export function registerAdapters(config: Config, log: Logger): Adapter[] {
  // Timeouts per provider (SERVICE_PROVIDER_TIMEOUTS_MS, ..._CONNECT_...), else the global ones.
  const upstream = (name: ProviderName, baseUrl: string, secrets: string[] = []) =>
    new Upstream({
      baseUrl: baseUrl.replace(/\/+$/, ''),
      connectTimeoutMs: config.providerConnectTimeoutsMs?.[name] ?? config.providerConnectTimeoutMs,
      timeoutMs: config.providerTimeoutsMs?.[name] ?? config.providerTimeoutMs,
      secrets,
      maxAnswerBytes: config.providerMaxAnswerBytes,
    });
  const adapters: Adapter[] = [];
  if (config.openaiApiKey !== undefined)
    adapters.push(createOpenAiAdapter(upstream('openai', config.openaiBaseUrl, [config.openaiApiKey]), config.openaiApiKey));
  if (config.anthropicApiKey !== undefined)
    adapters.push(
      createAnthropicAdapter(upstream('anthropic', config.anthropicBaseUrl, [config.anthropicApiKey]), config.anthropicApiKey),
    );
  if (config.ollamaHost !== undefined || config.ollamaEnabled)
    adapters.push(createOllamaAdapter(upstream('ollama', ollamaBaseUrl(config.ollamaHost))));
  if (config.whisperUrl !== undefined) adapters.push(createWhisperAdapter(upstream('whisper', config.whisperUrl)));
  if (config.comfyuiUrl !== undefined || config.comfyuiEnabled)
    adapters.push(createComfyUiAdapter(upstream('comfyui', config.comfyuiUrl ?? 'http://127.0.0.1:8188'), config.comfyuiPollMs));
  // In-process generation spins its threads: by default it leaves half the cores to the daemon and the machine.
  const runtime = { log, threads: config.ggufThreads ?? Math.max(1, Math.floor(availableParallelism() / 2)) };
  if (config.ggufModelDir !== undefined) adapters.push(createRuntimeAdapter(runtimes.gguf, config.ggufModelDir, runtime));
  if (config.transformersModelDir !== undefined)
    adapters.push(createRuntimeAdapter(runtimes.transformers, config.transformersModelDir, runtime));
  adapters.push(createEchoAdapter());
  return adapters;
}

/** AI providers (spec 2.6, 4.4; contract 8): registry, router, execute and stream, usage, health probes. */
export async function createProviders({
  storage,
  config,
  log,
  audit,
  permissions,
  metrics,
}: AreaBase & Pick<IdentityServices, 'permissions'>): Promise<Area<ProviderServices>> {
  const providerLog = log.child({ module: 'providers' });
  const store = createProviderStore(storage);
  const registry = new ProviderRegistry(registerAdapters(config, providerLog));
  const usage = new UsageRecorder(storage, store, providerLog);
  const providers = new ProviderService(
    storage,
    store,
    registry,
    permissions,
    usage,
    audit,
    metrics,
    {
      breakerCooldownMs: config.providerBreakerCooldownMs,
      breaker: {
        windowMs: config.providerBreakerWindowMs,
        minCalls: config.providerBreakerMinCalls,
        failurePercent: config.providerBreakerFailurePercent,
      },
    },
    providerLog,
  );
  await providers.loadSettings();
  const unsubscribe = storage.onWake(PROVIDER_SETTINGS_TOPIC, () => void providers.refreshSettings());
  const healthLoop = createHealthLoop(
    providers,
    {
      intervalMs: config.providerHealthIntervalMs,
      probeTimeoutMs: Math.min(config.providerTimeoutMs, config.providerConnectTimeoutMs * 2),
    },
    providerLog,
  );
  return {
    services: { providers },
    loops: [healthLoop],
    count: async () => ({ provider_usage_batches: await store.usage.count() }),
    close: async () => {
      unsubscribe();
      await usage.flush();
      await closeUpstreams();
      for (const { adapter } of registry.all()) await adapter.close?.();
    },
  };
}
