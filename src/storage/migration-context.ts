/**
 * What data migrations need from the daemon's configuration, on both engines: a migration that dates
 * stored records by a configured duration reads it here, as the daemon that opens the storage has it.
 */
export interface MigrationContext {
  /** SERVICE_RUN_WAIT_TIMEOUT_MS: the deadline of runs already waiting (LevelDB 13, PostgreSQL 23). */
  runWaitTimeoutMs: number;
}

/** The configuration's defaults (tools that open storage without a daemon's configuration). */
export const defaultMigrationContext: MigrationContext = { runWaitTimeoutMs: 604_800_000 };
