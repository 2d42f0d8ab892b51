import type { Logger } from '../../log.js';
import { Loop, sweepBatches } from '../../loops/loop.js';
import type { AssetService } from './service.js';

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
      await sweepBatches(() => assets.sweepExpired());
      await assets.sweepOrphans();
    },
  });
}
