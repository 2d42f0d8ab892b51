import { Collection } from '../../storage/collection.js';
import type { Storage } from '../../storage/port.js';
import type { Asset, AssetChunk } from './types.js';

/** The one value of the `created` index: every asset, in creation-time order. */
const ALL = 'all';

/** Assets, their bytes on PostgreSQL (chunks), and the named queries of the retention sweep. */
export class AssetStore {
  readonly assets: Collection<Asset>;
  readonly chunks: Collection<AssetChunk>;

  constructor(storage: Storage) {
    this.assets = new Collection<Asset>(storage, 'assets', (a) => a.id, [
      // A run's or a job's assets in creation order.
      { name: 'run', value: (a) => a.run_id ?? undefined, sort: (a) => a.created_at },
      { name: 'job', value: (a) => a.job_id ?? undefined, sort: (a) => a.created_at },
      { name: 'created', value: () => ALL, sort: (a) => a.created_at },
    ]);
    this.chunks = new Collection<AssetChunk>(storage, 'asset_chunks', (c) => c.id);
  }

  /** Ids of the assets created before `beforeIso`, oldest first. */
  async createdBefore(beforeIso: string, limit: number): Promise<string[]> {
    return (await this.assets.range('created', ALL, { before: beforeIso, limit })).map((e) => e.id);
  }

  /** A run's or a job's assets, oldest first. */
  async listFor(owner: { run_id: string } | { job_id: string }): Promise<Asset[]> {
    const ids = 'run_id' in owner ? await this.assets.idsBy('run', owner.run_id) : await this.assets.idsBy('job', owner.job_id);
    return (await this.assets.getMany(ids)).filter((a): a is Asset => a !== undefined);
  }
}

/** The id of an asset's n-th chunk. */
export function chunkId(assetId: string, n: number): string {
  return `${assetId}:${n}`;
}
