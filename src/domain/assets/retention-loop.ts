import type { Logger } from '../../log.js';
import { Loop } from '../../loops/loop.js';
import type { AssetService } from './service.js';

/** Full batches in a row per tick before yielding to the next interval. */
const MAX_BATCHES_PER_TICK = 20;

/**
 * Asset retention (spec 8): every SERVICE_ASSET_SWEEP_MS, assets older than SERVICE_ASSET_RETENTION_MS
 * are removed, record and bytes; then files that no committed record owns.
 */
export function createAssetRetentionLoop(assets: AssetService, intervalMs: number, log: Logger): Loop {
  return new Loop({
    name: 'asset-retention',
    intervalMs,
    log,
    tick: async () => {
      for (let i = 0; i < MAX_BATCHES_PER_TICK; i++) {
        if (!(await assets.sweepExpired()).more) break;
      }
      await assets.sweepOrphans();
    },
  });
}
