// Online backups and offline restores (docs/operations.md). A backup is NDJSON: a header line naming
// the engine and schema version, one line per stored item as the engine keeps it (one consistent
// snapshot: a LevelDB iterator, a PostgreSQL REPEATABLE READ transaction), and a trailer with the count,
// so a cut-off file is refused. It holds every secret the data holds (key hashes, sealed webhook
// secrets, generated keys): it is written 0600, and with SERVICE_BACKUP_KEY set it is sealed
// (storage/backup-seal.ts), so that a copy that leaves the machine shows nothing and cannot be altered.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from '../log.js';
import { BackupSealError, openSealed, sealedHeaderOf, type SealedHeader } from './backup-seal.js';
import { WRITE_PROBE_KEY } from './engine.js';
import { LevelStorage } from './leveldb/engine.js';
import { migrations } from './leveldb/migrate.js';
import type { BackupEntry, Storage } from './port.js';
import { PostgresStorage } from './postgres/engine.js';

export const BACKUP_FORMAT = 'switchyard-backup';
/** A first line longer than this is not a backup's header. */
const MAX_HEADER_BYTES = 64 * 1024;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: 1;
  engine: Storage['engine'];
  schema_version: number;
  created_at: string;
  switchyard: string;
}

interface BackupTrailer {
  end: true;
  entries: number;
}

/** The backup's lines, header first and trailer last, each ending in a newline. */
export async function* backupLines(storage: Storage, switchyardVersion: string): AsyncIterable<string> {
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: 1,
    engine: storage.engine,
    schema_version: await storage.schemaVersion(),
    created_at: new Date().toISOString(),
    switchyard: switchyardVersion,
  };
  yield `${JSON.stringify(header)}\n`;
  let entries = 0;
  for await (const entry of storage.backupEntries()) {
    entries++;
    yield `${JSON.stringify(entry)}\n`;
  }
  const trailer: BackupTrailer = { end: true, entries };
  yield `${JSON.stringify(trailer)}\n`;
}

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

export interface RestoreTarget {
  dataDir: string;
  /** Restore a PostgreSQL backup into this (empty) database. */
  databaseUrl?: string;
}

export interface RestoreReport {
  engine: Storage['engine'];
  schema_version: number;
  entries: number;
  created_at: string;
}

/** How a restore opens a backup: the key sealed backups need, and whether a clear one may pass when it is set. */
export interface BackupKey {
  /** SERVICE_BACKUP_KEY. */
  secret?: string;
  /** Restore a backup that is not encrypted although a key is set (refused otherwise: a downgrade). */
  allowUnencrypted?: boolean;
}

/** The file's bytes. */
async function* bytesOf(file: string): AsyncIterable<Buffer> {
  for await (const chunk of createReadStream(file)) yield chunk as Buffer;
}

/** The backup's NDJSON lines, opened (and verified frame by frame) when it is sealed. */
async function* readLines(file: string, key: BackupKey): AsyncIterable<string> {
  const source = bytesOf(file)[Symbol.asyncIterator]();
  let head: Buffer = Buffer.alloc(0);
  let newline = -1;
  while (newline < 0) {
    const next = await source.next();
    if (next.done === true) break;
    head = Buffer.concat([head, next.value]);
    newline = head.indexOf(0x0a);
    if (newline < 0 && head.length > MAX_HEADER_BYTES) throw new RestoreRefusedError(`${file} is not a Switchyard backup`);
  }
  const firstLine = newline < 0 ? head : head.subarray(0, newline + 1);
  const rest = (async function* () {
    if (newline >= 0 && head.length > newline + 1) yield head.subarray(newline + 1);
    for (;;) {
      const next = await source.next();
      if (next.done === true) return;
      yield next.value;
    }
  })();
  let sealed: SealedHeader | undefined;
  try {
    sealed = sealedHeaderOf(JSON.parse(firstLine.toString('utf8')));
  } catch (err) {
    if (err instanceof BackupSealError) throw new RestoreRefusedError(err.message);
    sealed = undefined;
  }
  let plain: AsyncIterable<Buffer>;
  if (sealed !== undefined) {
    if (key.secret === undefined)
      throw new RestoreRefusedError(
        'the backup is encrypted: set SERVICE_BACKUP_KEY to the key it was made with; nothing was restored',
      );
    plain = openSealed(firstLine, sealed, key.secret, rest);
  } else {
    if (key.secret !== undefined && key.allowUnencrypted !== true && firstLine.length > 0)
      throw new RestoreRefusedError(
        'the backup is not encrypted although SERVICE_BACKUP_KEY is set, so it cannot be verified: restore it with --allow-unencrypted if you trust it; nothing was restored',
      );
    plain = (async function* () {
      yield firstLine;
      yield* rest;
    })();
  }
  const decoder = new StringDecoder('utf8');
  let carry = '';
  try {
    for await (const chunk of plain) {
      const lines = (carry + decoder.write(chunk)).split('\n');
      carry = lines.pop()!;
      for (const line of lines) if (line !== '') yield line;
    }
  } catch (err) {
    if (err instanceof BackupSealError) throw new RestoreRefusedError(err.message);
    throw err;
  }
  carry += decoder.end();
  if (carry !== '') yield carry;
}

function parseLine(line: string, at: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw new RestoreRefusedError(`line ${at} of the backup is not JSON: the file is damaged`);
  }
}

/** Reads the whole file once before anything is written: its header, and a trailer whose count matches. */
async function checkBackup(file: string, key: BackupKey): Promise<BackupHeader> {
  let header: BackupHeader | undefined;
  let entries = 0;
  let trailer: BackupTrailer | undefined;
  let at = 0;
  for await (const line of readLines(file, key)) {
    at++;
    const value = parseLine(line, at) as Partial<BackupHeader & BackupTrailer>;
    if (at === 1) {
      if (value.format !== BACKUP_FORMAT || value.version !== 1)
        throw new RestoreRefusedError(`${file} is not a Switchyard backup`);
      header = value as BackupHeader;
    } else if (trailer !== undefined) throw new RestoreRefusedError('the backup goes on past its end: the file is damaged');
    else if (value.end === true) trailer = value as BackupTrailer;
    else entries++;
  }
  if (header === undefined) throw new RestoreRefusedError(`${file} is empty`);
  if (trailer === undefined || trailer.entries !== entries)
    throw new RestoreRefusedError('the backup is incomplete (it was cut off while being written): nothing was restored');
  return header;
}

const CHUNK = 1000;

/**
 * Restores a backup into an empty data dir (LevelDB) or an empty database (PostgreSQL), the daemon
 * stopped. Refused, before anything is written, when the file is damaged or incomplete, the target
 * holds data, or the engines or schema versions do not fit.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
  log: Logger,
  key: BackupKey = {},
): Promise<RestoreReport> {
  const header = await checkBackup(file, key);
  if (header.engine === 'postgres' && target.databaseUrl === undefined)
    throw new RestoreRefusedError('this is a PostgreSQL backup: name the empty database to restore it into (--database-url)');
  if (header.engine === 'leveldb' && target.databaseUrl !== undefined)
    throw new RestoreRefusedError('this is a LevelDB backup: restore it into a data dir, without --database-url');
  let entries = 0;
  const batch: BackupEntry[] = [];
  if (header.engine === 'leveldb') {
    const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
    if (header.schema_version > latest)
      throw new RestoreRefusedError(
        `the backup is at schema ${header.schema_version}, newer than this version knows (${latest})`,
      );
    const storage = await LevelStorage.open(target.dataDir, log);
    try {
      if (!(await storage.isEmpty()))
        throw new RestoreRefusedError(`${target.dataDir} already holds data: restore into an empty data dir`);
      const flush = async () => {
        await storage.restoreEntries(batch.splice(0) as { k: string; v: string }[]);
      };
      for await (const entry of entriesOf(file, key)) {
        if (!('k' in entry)) throw new RestoreRefusedError('a LevelDB backup holds a line that is not a key and value');
        batch.push(entry);
        entries++;
        if (batch.length >= CHUNK) await flush();
      }
      await flush();
    } finally {
      await storage.close();
    }
  } else {
    const storage = await PostgresStorage.open(target.databaseUrl!, log);
    try {
      const version = await storage.schemaVersion();
      if (version !== header.schema_version)
        throw new RestoreRefusedError(
          `the backup is at schema ${header.schema_version} and this version's is ${version}: restore with the version that made it, then upgrade`,
        );
      if (!(await storage.isEmpty()))
        throw new RestoreRefusedError('the database already holds data: restore into an empty database');
      let table = '';
      const flush = async () => {
        await storage.restoreRows(
          table,
          batch.splice(0).map((e) => (e as { r: Record<string, unknown> }).r),
        );
      };
      for await (const entry of entriesOf(file, key)) {
        if (!('t' in entry)) throw new RestoreRefusedError('a PostgreSQL backup holds a line that is not a row');
        if (entry.t !== table || batch.length >= CHUNK) await flush();
        table = entry.t;
        // The target's own write probe stays; the backup's is not restored over it.
        if (table === 'meta' && entry.r.key === WRITE_PROBE_KEY) continue;
        batch.push(entry);
        entries++;
      }
      await flush();
    } finally {
      await storage.close();
    }
  }
  return { engine: header.engine, schema_version: header.schema_version, entries, created_at: header.created_at };
}

async function* entriesOf(file: string, key: BackupKey): AsyncIterable<BackupEntry> {
  let at = 0;
  for await (const line of readLines(file, key)) {
    at++;
    if (at === 1) continue;
    const value = parseLine(line, at) as BackupEntry | BackupTrailer;
    if ('end' in value) return;
    yield value;
  }
}
