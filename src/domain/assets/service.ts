import { createHash } from 'node:crypto';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics.js';
import { newId } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { Output } from '../providers/types.js';
import type { AssetBytes } from './bytes.js';
import { DEFAULT_LINK_SECONDS, MAX_LINK_SECONDS } from './schemas.js';
import { signAssetLink, verifyAssetLink } from './signing.js';
import type { AssetStore } from './store.js';
import type { Artifact, Asset, AssetDownload, AssetFile, AssetOwner } from './types.js';

/** A link may expire this much later than a 24-hour one made now: another daemon's clock may run ahead. */
const CLOCK_SKEW_SECONDS = 300;
/** Expired assets removed per sweep batch, each in its own transaction. */
const SWEEP_BATCH = 100;
/** A file whose record has not committed this long after it was written never will (its transaction rolled back). */
const ORPHAN_GRACE_MS = 3_600_000;

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9_.+-]+=[a-z0-9_.+-]+)*$/i;
/** Path separators, control characters and quotes: a filename goes into a header and a user's disk. */
const UNSAFE_FILENAME = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069/\\"]/gu;

/** File name extensions of the content types providers answer with. */
const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'application/json': 'json',
  'text/plain': 'txt',
};

export interface AssetSettings {
  /** SERVICE_ASSET_RETENTION_MS: an asset older than this is gone (404), swept or not. */
  retentionMs: number;
  /** The absolute base of download links (SERVICE_PUBLIC_URL or the HTTP listener). */
  publicUrl: () => string;
}

/** The lock every change of one asset takes (the retention sweeps of several daemons, a job's purge). */
export function assetLock(id: string): string {
  return `asset:${id}`;
}

function cleanFilename(name: string): string {
  const cleaned = name.replace(UNSAFE_FILENAME, '_').trim().slice(0, 200);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

function cleanContentType(type: string): string {
  return CONTENT_TYPE.test(type) ? type.toLowerCase() : 'application/octet-stream';
}

function forbidden(message: string, reason: string): AppError {
  return new AppError('forbidden', message, { reason });
}

/**
 * Contract 12: files that runs and jobs make, stored with the caller's change, listed by owner, and
 * handed out through signed links that expire; removed after the retention period.
 */
export class AssetService {
  constructor(
    private readonly storage: Storage,
    readonly store: AssetStore,
    private readonly bytes: AssetBytes,
    private readonly signingKey: Buffer,
    private readonly settings: AssetSettings,
    private readonly log: Logger,
    private readonly metrics: Pick<Metrics, 'assetEvent'>,
  ) {}

  /** The last creation time handed out (epoch ms): each asset's is later, so an owner's list keeps save order. */
  private lastCreatedMs = 0;

  private nextCreatedAt(): string {
    this.lastCreatedMs = Math.max(Date.now(), this.lastCreatedMs + 1);
    return new Date(this.lastCreatedMs).toISOString();
  }

  /** Stores bytes as an asset inside the caller's transaction: the record commits with the caller's change. */
  async save(tx: Tx, owner: AssetOwner, file: AssetFile): Promise<Asset> {
    const asset: Asset = {
      id: newId(),
      organization_id: owner.organization_id,
      run_id: owner.run_id ?? null,
      job_id: owner.job_id ?? null,
      node_key: owner.node_key ?? null,
      filename: cleanFilename(file.filename),
      content_type: cleanContentType(file.content_type),
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      created_at: this.nextCreatedAt(),
    };
    await this.bytes.write(tx, asset, file.bytes);
    tx.insert(this.store.assets, asset);
    tx.afterCommit(() => this.metrics.assetEvent('stored'));
    return asset;
  }

  /**
   * Turns a provider output into stored assets: each `images[i]` becomes an asset named
   * `<prefix>-<i+1>.<ext>`, and the output returned holds `{images: [{asset_id, content_type}]}`
   * instead of the base64. Other outputs come back unchanged, with no assets.
   */
  async keepOutput(
    tx: Tx,
    owner: AssetOwner,
    output: Output,
    prefix: string,
  ): Promise<{ output: Record<string, unknown>; assets: Asset[] }> {
    if (!('images' in output)) return { output, assets: [] };
    const assets: Asset[] = [];
    for (const [i, image] of output.images.entries()) {
      const content_type = cleanContentType(image.content_type);
      const ext = extensions[content_type.split(';')[0]] ?? 'bin';
      const bytes = Buffer.from(image.base64, 'base64');
      assets.push(await this.save(tx, owner, { filename: `${prefix}-${i + 1}.${ext}`, content_type, bytes }));
    }
    return { output: { images: assets.map((a) => ({ asset_id: a.id, content_type: a.content_type })) }, assets };
  }

  /** An asset's whole bytes (a job's stored input), or undefined once retention removed it. */
  async readBytes(id: string): Promise<Buffer | undefined> {
    const asset = await this.store.assets.get(id);
    if (asset === undefined || this.isExpired(asset)) return undefined;
    const body = await this.bytes.open(asset);
    if (body === undefined) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** Assets of a run or of a job, oldest first. */
  async listFor(owner: { run_id: string } | { job_id: string }): Promise<Asset[]> {
    return this.store.listFor(owner);
  }

  /** The ids of a job's assets, oldest first (an index read: the records are not read). */
  async idsOfJob(jobId: string): Promise<string[]> {
    return this.store.assets.idsBy('job', jobId);
  }

  /**
   * Removes, inside `tx`, those of the assets `ids` that `which` picks, record and bytes (a purged
   * job's assets go with it). The caller's transaction holds their locks (assetLock); how many went.
   */
  async removeIn(tx: Tx, ids: readonly string[], which: (asset: Asset) => boolean): Promise<number> {
    let removed = 0;
    for (const asset of await tx.getMany(this.store.assets, ids))
      if (asset !== undefined && which(asset)) {
        await this.remove(tx, asset);
        removed++;
      }
    return removed;
  }

  /** A signed, expiring link (contract 12): `{publicUrl}/v1/assets/{id}?expires=<unix s>&signature=<hex>`. */
  artifact(asset: Asset, expiresInSeconds: number): Artifact {
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const base = this.settings.publicUrl();
    const url = new URL(`v1/assets/${encodeURIComponent(asset.id)}`, base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signAssetLink(this.signingKey, asset.id, expires));
    return {
      asset_id: asset.id,
      filename: asset.filename,
      content_type: asset.content_type,
      media_type: asset.content_type,
      bytes: asset.size,
      download_url: url.toString(),
      download_url_expires_at: new Date(expires * 1000).toISOString(),
    };
  }

  /** An `expires_in` value (seconds): 3600 when absent, 1..86400, else 422 naming expires_in. */
  expiresIn(value: number | undefined): number {
    if (value === undefined) return DEFAULT_LINK_SECONDS;
    if (!Number.isInteger(value) || value < 1 || value > MAX_LINK_SECONDS)
      throw validationFailed({ expires_in: `must be a whole number of seconds from 1 to ${MAX_LINK_SECONDS}` });
    return value;
  }

  /**
   * A signed download: 403 unless the link is one this service made and it has not expired; 404 when
   * the asset is unknown or past its retention (swept or about to be).
   */
  async openDownload(id: string, link: { expires?: string; signature?: string }): Promise<AssetDownload> {
    const expires = verifyAssetLink(this.signingKey, id, link.expires, link.signature);
    if (expires === undefined) throw forbidden('the download link is not valid', 'bad_signature');
    const now = Date.now() / 1000;
    if (expires <= now) throw forbidden('the download link has expired', 'expired');
    if (expires > now + MAX_LINK_SECONDS + CLOCK_SKEW_SECONDS)
      throw forbidden('the download link expires further ahead than a link may', 'too_far_ahead');
    const asset = await this.store.assets.get(id);
    if (asset === undefined || this.isExpired(asset)) throw notFound('asset');
    const body = await this.bytes.open(asset);
    if (body === undefined) throw notFound('asset');
    this.metrics.assetEvent('served');
    return { asset, body, remainingSeconds: Math.floor(expires - now) };
  }

  /** One retention batch: assets past the retention period, record and bytes, each in its own transaction. */
  async sweepExpired(limit = SWEEP_BATCH): Promise<{ swept: number; more: boolean }> {
    const cutoff = this.cutoff();
    const ids = await this.store.createdBefore(cutoff, limit);
    let swept = 0;
    for (const id of ids) if (await this.removeIfExpired(id, cutoff)) swept++;
    if (swept > 0) this.log.info({ swept }, 'expired assets removed');
    return { swept, more: ids.length === limit };
  }

  /** Bytes left by transactions that rolled back (files on LevelDB); how many were removed. */
  async sweepOrphans(): Promise<number> {
    // An asset never outlives the retention period, so neither need its orphan.
    const removed = await this.bytes.sweepOrphans(Math.min(ORPHAN_GRACE_MS, this.settings.retentionMs));
    if (removed > 0) this.log.info({ removed }, 'asset files without a record removed');
    return removed;
  }

  async countAssets(): Promise<Record<string, number>> {
    return { assets: await this.store.assets.count() };
  }

  private cutoff(): string {
    return new Date(Date.now() - this.settings.retentionMs).toISOString();
  }

  private isExpired(asset: Asset): boolean {
    return asset.created_at < this.cutoff();
  }

  /** Removes the asset when it is still there and past retention; whether it did. Another daemon's sweep waits on the lock, then finds it gone. */
  private async removeIfExpired(id: string, cutoff: string): Promise<boolean> {
    // The retention loop's work: the background lane's connections.
    return this.storage.background.transaction({ locks: [assetLock(id)] }, async (tx) => {
      const asset = await tx.get(this.store.assets, id);
      if (asset === undefined || asset.created_at >= cutoff) return false;
      await this.remove(tx, asset);
      return true;
    });
  }

  private async remove(tx: Tx, asset: Asset): Promise<void> {
    await this.bytes.remove(tx, asset);
    await tx.delete(this.store.assets, asset.id);
    tx.afterCommit(() => this.metrics.assetEvent('swept'));
  }
}
