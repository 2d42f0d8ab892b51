import path from 'node:path';
import type { Area, AreaBase } from '../area.js';
import { openSecretKey } from '../secrets.js';
import { AssetChunks, AssetFiles } from './bytes.js';
import { createAssetRetentionLoop } from './retention-loop.js';
import { AssetService } from './service.js';
import { AssetStore } from './store.js';

export type { Artifact, Asset, AssetOwner } from './types.js';
export { expiresInQuery, artifactSchema } from './schemas.js';

export interface AssetServices {
  assets: AssetService;
}

/** The generated signing key's name in the meta table (shared by every daemon of one PostgreSQL database). */
const ASSET_SIGNING_KEY = 'asset_signing_key';

/** Assets (spec 2.10, 4.6, 8; contract 12): files of runs and jobs, signed download links, retention. */
export async function createAssets({ storage, config, log, publicUrl, metrics }: AreaBase): Promise<Area<AssetServices>> {
  const assetLog = log.child({ module: 'assets' });
  // A configured key is any string of 32 characters or more, used as it is; else 32 random bytes, kept.
  const signingKey =
    config.assetSigningKey !== undefined
      ? Buffer.from(config.assetSigningKey, 'utf8')
      : await openSecretKey(storage, ASSET_SIGNING_KEY, undefined);
  const store = new AssetStore(storage);
  const bytes =
    storage.engine === 'leveldb'
      ? await AssetFiles.open(path.join(config.dataDir, 'assets'), store, config.storageSync === 'on', assetLog)
      : new AssetChunks(store);
  const assets = new AssetService(
    storage,
    store,
    bytes,
    signingKey,
    { retentionMs: config.assetRetentionMs, publicUrl },
    assetLog,
    metrics,
  );
  return {
    services: { assets },
    loops: [createAssetRetentionLoop(assets, config.assetSweepMs, assetLog)],
    count: () => assets.countAssets(),
  };
}
