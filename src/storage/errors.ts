import path from 'node:path';

/** Another process holds the LevelDB data dir: the one clear message a second daemon prints. */
export class StorageLockedError extends Error {
  constructor(readonly location: string) {
    super(`the data directory ${path.dirname(location)} is in use by another switchyard process (LevelDB lock held)`);
    this.name = 'StorageLockedError';
  }
}

/** The database could not be opened (unwritable directory, corruption, unreachable server): one line. */
export class StorageOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageOpenError';
  }
}

/** The stored schema is newer than this build knows. */
export class NewerSchemaError extends Error {
  constructor(found: number, known: number, where = 'the data directory') {
    super(`${where} has schema version ${found}, newer than this switchyard knows (${known}); upgrade switchyard`);
    this.name = 'NewerSchemaError';
  }
}
