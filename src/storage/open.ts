import type { Logger } from '../log.js';
import { LevelStorage } from './leveldb/engine.js';
import { migrate as migrateLevel } from './leveldb/migrate.js';
import { defaultMigrationContext, type MigrationContext } from './migration-context.js';
import type { Storage } from './port.js';

export interface StorageConfig {
  dataDir: string;
  /** SERVICE_DATABASE_URL: PostgreSQL instead of the embedded LevelDB. */
  databaseUrl?: string;
  /** SERVICE_STORAGE_SYNC (LevelDB only). */
  storageSync?: 'on' | 'off';
  /** SERVICE_DATABASE_POOL_SIZE (PostgreSQL only). */
  databasePoolSize?: number;
  /** SERVICE_DATABASE_CONNECT_TIMEOUT_MS (PostgreSQL only). */
  databaseConnectTimeoutMs?: number;
  /** SERVICE_RUN_WAIT_TIMEOUT_MS: data migrations date runs already waiting by it. */
  runWaitTimeoutMs?: number;
}

/** Opens the configured engine and brings its schema up to date (the daemon's one way in). */
export async function openStorage(config: StorageConfig, log: Logger): Promise<Storage> {
  const context: MigrationContext = {
    runWaitTimeoutMs: config.runWaitTimeoutMs ?? defaultMigrationContext.runWaitTimeoutMs,
  };
  if (config.databaseUrl !== undefined) {
    const { PostgresStorage } = await import('./postgres/engine.js');
    return PostgresStorage.open(config.databaseUrl, log, {
      poolSize: config.databasePoolSize,
      connectTimeoutMs: config.databaseConnectTimeoutMs,
      migrationContext: context,
    });
  }
  const storage = await LevelStorage.open(config.dataDir, log, { sync: config.storageSync === 'on' });
  try {
    await migrateLevel(storage, undefined, context);
  } catch (err) {
    await storage.close();
    throw err;
  }
  return storage;
}
