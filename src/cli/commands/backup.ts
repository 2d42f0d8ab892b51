import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { DaemonServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/DaemonService.js';
import { CliError } from '../client.js';
import { execute, executeLocal, type View } from '../output.js';

/**
 * `switchyard backup --out FILE`: a consistent online snapshot through the daemon, written 0600 (it
 * holds secrets) to FILE.partial and renamed into place once whole. `switchyard restore FILE
 * --data-dir D`: offline, into an empty data dir (or an empty PostgreSQL database).
 */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('write a consistent snapshot of everything stored, taken online (the file holds secrets: it is 0600)')
    .requiredOption('--out <file>', 'where to write it (refused if it exists)')
    .action((opts: { out: string }, command: Command) =>
      execute(command, {
        label: 'backing up',
        run: async (client) => {
          const file = path.resolve(opts.out);
          if (existsSync(file)) throw new CliError('invalid_request', `${file} exists: choose a new name`);
          const partial = `${file}.partial`;
          const out = createWriteStream(partial, { mode: 0o600, flags: 'wx' });
          let bytes = 0;
          try {
            await once(out, 'open');
            const chunks = client.streams<DaemonServiceDefinition>('DaemonService').Backup({});
            for await (const chunk of chunks) {
              const data = chunk.data as unknown as Buffer;
              bytes += data.length;
              if (!out.write(data)) await once(out, 'drain');
            }
            out.end();
            await once(out, 'finish');
            await rename(partial, file);
          } catch (err) {
            out.destroy();
            await rm(partial, { force: true });
            throw err;
          }
          return { file, bytes };
        },
        view: (r): View[] => [
          { kind: 'message', text: `backup written to ${r.file} (${r.bytes} bytes, mode 0600): it holds secrets` },
        ],
      }),
    );

  program
    .command('restore <file>')
    .description('restore a backup into an empty data dir, the daemon stopped (PostgreSQL backups: into an empty database)')
    .requiredOption('--data-dir <dir>', 'the empty data dir to restore into')
    .option('--database-url <url>', 'for a PostgreSQL backup: the empty database, postgres://...')
    .action((file: string, opts: { dataDir: string; databaseUrl?: string }, command: Command) =>
      executeLocal(command, {
        label: 'restoring',
        run: async () => {
          const [{ restoreBackup, RestoreRefusedError }, { createLogger }, { prepareDataDir }] = await Promise.all([
            import('../../storage/backup.js'),
            import('../../log.js'),
            import('../../storage/data-dir.js'),
          ]);
          const dataDir = path.resolve(opts.dataDir);
          try {
            await prepareDataDir(dataDir, { allowShared: false });
            return {
              data_dir: dataDir,
              ...(await restoreBackup(
                path.resolve(file),
                { dataDir, ...(opts.databaseUrl === undefined ? {} : { databaseUrl: opts.databaseUrl }) },
                createLogger('silent'),
              )),
            };
          } catch (err) {
            if (err instanceof RestoreRefusedError) throw new CliError('restore_refused', err.message);
            throw new CliError('restore_failed', err instanceof Error ? err.message : String(err));
          }
        },
        view: (r): View[] => [
          {
            kind: 'message',
            text: `restored ${r.entries} ${r.engine} entries (schema ${r.schema_version}, backup of ${r.created_at}) into ${r.data_dir}`,
          },
        ],
      }),
    );
}
