import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { ProviderService } from './service.js';

export interface HealthLoopOptions {
  /** SERVICE_PROVIDER_HEALTH_INTERVAL_MS: each provider is probed this often. */
  intervalMs: number;
  /** How long one probe may take. */
  probeTimeoutMs: number;
}

/**
 * The active health probes (contract 8): at start and every interval each provider's health endpoint
 * is read, and sooner for one whose call failed (the breaker's cooldown wakes the loop). Settings are
 * re-read each round too, so a change notice lost with a dropped connection costs one interval.
 */
export function createHealthLoop(providers: ProviderService, options: HealthLoopOptions, log: Logger): Loop {
  const loop = new Loop({
    name: 'provider-health',
    intervalMs: options.intervalMs,
    immediate: true,
    log,
    tick: async () => {
      await providers.refreshSettings();
      return providers.probeDue(options.intervalMs, options.probeTimeoutMs);
    },
  });
  providers.onProbeDue = () => loop.wakeSoon();
  return loop;
}
