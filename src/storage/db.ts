import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Level } from 'level';
import type { AbstractSublevel } from 'abstract-level';
import type { Logger } from '../log.js';
import { collections, indexSublevelName, tables } from './keyspace.js';
import { KeyedLock } from './lock.js';

export type Db = Level<string, unknown>;
export type Sublevel = AbstractSublevel<Db, string | Buffer | Uint8Array, string, unknown>;
export interface BatchOp {
  type: 'put' | 'del';
  sublevel: Sublevel;
  key: string;
  value?: unknown;
}

/** Another process holds the database: the one clear message a second daemon prints. */
export class StorageLockedError extends Error {
  constructor(readonly location: string) {
    super(`the data directory ${path.dirname(location)} is in use by another switchyard process (LevelDB lock held)`);
    this.name = 'StorageLockedError';
  }
}

const declared = new Set<string>([
  ...Object.values(tables),
  ...Object.entries(collections).flatMap(([name, spec]) => [name, ...spec.indexes.map((i) => indexSublevelName(name, i))]),
]);

export class Storage {
  readonly locks = new KeyedLock();
  private readonly sublevels = new Map<string, Sublevel>();

  private constructor(
    readonly db: Db,
    readonly log: Logger,
  ) {}

  static async open(dataDir: string, log: Logger): Promise<Storage> {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const location = path.join(dataDir, 'db');
    const db: Db = new Level<string, unknown>(location, { valueEncoding: 'json' });
    try {
      await db.open();
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') throw new StorageLockedError(location);
      throw err;
    }
    log.debug({ location }, 'storage open');
    return new Storage(db, log);
  }

  /** A sublevel by its keyspace name; undeclared names are a programmer error. */
  sublevel(name: string): Sublevel {
    if (!declared.has(name)) throw new TypeError(`sublevel "${name}" is not declared in storage/keyspace.ts`);
    let sub = this.sublevels.get(name);
    if (sub === undefined) {
      sub = this.db.sublevel<string, unknown>(name, { valueEncoding: 'json' }) as Sublevel;
      this.sublevels.set(name, sub);
    }
    return sub;
  }

  get meta(): Sublevel {
    return this.sublevel(tables.meta);
  }

  async batch(ops: BatchOp[]): Promise<void> {
    if (ops.length === 0) return;
    await this.db.batch(ops as unknown as Parameters<typeof this.db.batch<string, unknown>>[0], {});
  }

  get isOpen(): boolean {
    return this.db.status === 'open';
  }

  async close(): Promise<void> {
    if (this.db.status === 'open' || this.db.status === 'opening') await this.db.close();
  }
}
