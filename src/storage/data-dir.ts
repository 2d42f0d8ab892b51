import { chmod, mkdir, readdir, stat, statfs } from 'node:fs/promises';

/** The data directory cannot be used; `exitCode` 2 when the fix is the operator's setting, 1 otherwise. */
export class DataDirError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}

const mode = (m: number): string => (m & 0o777).toString(8).padStart(4, '0');

/**
 * Makes sure the data directory exists and only this user can enter it: a missing one is created
 * 0700; an empty one that no one else can write is ours to set up and becomes 0700 too (`mkdir data`
 * before the first start); one with contents that group or others can reach is refused, unless
 * `allowShared`. Secrets (token keys, the sealed outbox) and the database live there.
 */
export async function prepareDataDir(dir: string, options: { allowShared: boolean }): Promise<void> {
  let stats;
  try {
    stats = await stat(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw new DataDirError(`cannot use the data directory ${dir}: ${code ?? (err as Error).message}`, 1);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
    } catch (mkdirErr) {
      const why = (mkdirErr as NodeJS.ErrnoException).code ?? (mkdirErr as Error).message;
      throw new DataDirError(`cannot create the data directory ${dir}: ${why}`, 1);
    }
    return;
  }
  if (!stats.isDirectory()) throw new DataDirError(`the data directory ${dir} is not a directory`, 1);
  if ((stats.mode & 0o077) === 0 || options.allowShared) return;
  const ours = stats.uid === process.getuid?.();
  if (ours && (stats.mode & 0o022) === 0 && (await readdir(dir)).length === 0) {
    await chmod(dir, 0o700);
    return;
  }
  throw new DataDirError(
    `the data directory ${dir} is open to other users (mode ${mode(stats.mode)}): run \`chmod 700 ${dir}\`, or set SERVICE_DATA_DIR_ALLOW_SHARED=1`,
    2,
  );
}

/** What `switchyard doctor` checks of the data directory: who may enter it, and the room left on its file system. */
export interface DataDirFacts {
  /** Permission bits, e.g. 0o700. */
  mode: number;
  uid: number;
  /** Bytes the daemon's user may still write, and the file system's size. */
  freeBytes: number;
  totalBytes: number;
}

export async function inspectDataDir(dir: string): Promise<DataDirFacts> {
  const [stats, fs] = await Promise.all([stat(dir), statfs(dir)]);
  return { mode: stats.mode & 0o777, uid: stats.uid, freeBytes: fs.bavail * fs.bsize, totalBytes: fs.blocks * fs.bsize };
}
