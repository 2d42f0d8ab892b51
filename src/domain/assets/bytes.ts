import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../log.js';
import type { Tx } from '../../storage/port.js';
import { chunkId, type AssetStore } from './store.js';
import type { Asset } from './types.js';

// Where an asset's bytes live (docs/assets.md). LevelDB: a file per asset in <data dir>/assets,
// written before the record commits (a rolled-back transaction can leave one: the sweep removes it).
// PostgreSQL: base64 chunks in the database, inserted in the record's own transaction, so every
// daemon sharing the database serves every asset.

/** Bytes per chunk on PostgreSQL (before base64). */
export const CHUNK_BYTES = 256 * 1024;
const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Records looked up at once while looking for files without one. */
const ORPHAN_BATCH = 200;

/** An engine's home for asset bytes. */
export interface AssetBytes {
  /** Stores `bytes` for `asset`, inside `tx`: a file before the record commits, or chunks with it. */
  write(tx: Tx, asset: Asset, bytes: Buffer): Promise<void>;
  /** The bytes, in order, read as they are consumed; undefined when they are gone. */
  open(asset: Asset): Promise<AsyncIterable<Buffer> | undefined>;
  /** Removes the bytes with the record: chunks inside `tx`, a file once `tx` has committed. */
  remove(tx: Tx, asset: Asset): Promise<void>;
  /** Removes bytes whose record never committed, made more than `graceMs` ago; how many. */
  sweepOrphans(graceMs: number): Promise<number>;
}

const isMissing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** LevelDB: `<dir>/<asset id>`, mode 0600, in a 0700 directory. */
export class AssetFiles implements AssetBytes {
  private constructor(
    private readonly dir: string,
    private readonly store: AssetStore,
    /** SERVICE_STORAGE_SYNC=on: a file is on disk before its record commits. */
    private readonly sync: boolean,
    private readonly log: Logger,
  ) {}

  static async open(dir: string, store: AssetStore, sync: boolean, log: Logger): Promise<AssetFiles> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new AssetFiles(dir, store, sync, log);
  }

  private fileOf(id: string): string {
    if (!ASSET_ID.test(id)) throw new TypeError(`not an asset id: ${id}`);
    return path.join(this.dir, id);
  }

  async write(_tx: Tx, asset: Asset, bytes: Buffer): Promise<void> {
    const file = await open(this.fileOf(asset.id), 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      if (this.sync) await file.datasync();
    } finally {
      await file.close();
    }
  }

  async open(asset: Asset): Promise<AsyncIterable<Buffer> | undefined> {
    try {
      const file = await open(this.fileOf(asset.id), 'r');
      // Closed by the stream when it ends or is destroyed (a client gone mid-download).
      return file.createReadStream({ highWaterMark: 64 * 1024 });
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  remove(tx: Tx, asset: Asset): Promise<void> {
    const file = this.fileOf(asset.id);
    tx.afterCommit(() => void this.unlink(file));
    return Promise.resolve();
  }

  async sweepOrphans(graceMs: number): Promise<number> {
    const before = Date.now() - graceMs;
    const old: string[] = [];
    for (const name of await readdir(this.dir)) {
      if (!ASSET_ID.test(name)) continue;
      const written = await stat(path.join(this.dir, name)).then(
        (s) => s.mtimeMs,
        () => undefined,
      );
      if (written !== undefined && written < before) old.push(name);
    }
    let removed = 0;
    for (let i = 0; i < old.length; i += ORPHAN_BATCH) {
      const ids = old.slice(i, i + ORPHAN_BATCH);
      const records = await this.store.assets.getMany(ids);
      for (const [at, id] of ids.entries()) {
        if (records[at] !== undefined) continue;
        if (await this.unlink(path.join(this.dir, id))) removed++;
      }
    }
    return removed;
  }

  /** Whether it removed the file; a missing one is no failure, any other is logged (the sweep retries). */
  private async unlink(file: string): Promise<boolean> {
    try {
      await unlink(file);
      return true;
    } catch (err) {
      if (!isMissing(err)) this.log.warn({ err, file }, 'could not remove an asset file');
      return false;
    }
  }
}

/** PostgreSQL: `asset_chunks` records of CHUNK_BYTES each, in the record's own transaction. */
export class AssetChunks implements AssetBytes {
  constructor(private readonly store: AssetStore) {}

  write(tx: Tx, asset: Asset, bytes: Buffer): Promise<void> {
    for (let n = 0; n * CHUNK_BYTES < bytes.length; n++) {
      const data = bytes.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES).toString('base64');
      tx.insert(this.store.chunks, { id: chunkId(asset.id, n), asset_id: asset.id, n, data });
    }
    return Promise.resolve();
  }

  async open(asset: Asset): Promise<AsyncIterable<Buffer> | undefined> {
    const count = chunkCount(asset.size);
    if (count === 0) return (async function* () {})();
    // The first chunk is read now: an asset swept since its record was read is missing, not a broken stream.
    const first = await this.store.chunks.get(chunkId(asset.id, 0));
    if (first === undefined) return undefined;
    const chunks = this.store.chunks;
    return (async function* () {
      yield Buffer.from(first.data, 'base64');
      for (let n = 1; n < count; n++) {
        const chunk = await chunks.get(chunkId(asset.id, n));
        if (chunk === undefined) throw new Error(`asset ${asset.id} was removed while being sent`);
        yield Buffer.from(chunk.data, 'base64');
      }
    })();
  }

  async remove(tx: Tx, asset: Asset): Promise<void> {
    for (let n = 0; n < chunkCount(asset.size); n++) await tx.delete(this.store.chunks, chunkId(asset.id, n));
  }

  sweepOrphans(): Promise<number> {
    // Chunks commit or roll back with their record: none is ever left behind.
    return Promise.resolve(0);
  }
}

function chunkCount(size: number): number {
  return Math.ceil(size / CHUNK_BYTES);
}
