import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Logger } from '../../log.js';
import type { DaemonServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/DaemonService.js';
import { CliError } from '../client.js';
import { execute, executeLocal, type View } from '../output.js';

/**
 * `switchyard backup --out FILE`: a consistent online snapshot through the daemon, written 0600 (it
 * holds secrets) to FILE.partial and renamed into place once whole. `switchyard restore FILE
 * --data-dir D`: offline, into an empty data dir (or an empty PostgreSQL database). A sealed backup
 * (SERVICE_BACKUP_KEY on the daemon) is opened with SERVICE_BACKUP_KEY from the environment.
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
          let sealed = false;
          // Only a FILE.partial this command made is removed on failure: one that was there (another
          // run's, another user's) is left as it was.
          let created = false;
          try {
            await once(out, 'open');
            created = true;
            const chunks = client.streams<DaemonServiceDefinition>('DaemonService').Backup({});
            for await (const chunk of chunks) {
              const data = chunk.data as unknown as Buffer;
              if (bytes === 0) sealed = data.subarray(0, 200).toString('utf8').includes('"sealed":');
              bytes += data.length;
              if (!out.write(data)) await once(out, 'drain');
            }
            out.end();
            await once(out, 'finish');
            await rename(partial, file);
          } catch (err) {
            out.destroy();
            if (created) await rm(partial, { force: true });
            if ((err as NodeJS.ErrnoException).code === 'EEXIST')
              throw new CliError(
                'invalid_request',
                `${partial} exists (another backup under way, or left over): remove it or choose a new name`,
              );
            throw err;
          }
          return { file, bytes, encrypted: sealed };
        },
        view: (r): View[] => [
          {
            kind: 'message',
            text: r.encrypted
              ? `backup written to ${r.file} (${r.bytes} bytes, mode 0600), encrypted and authenticated with SERVICE_BACKUP_KEY`
              : `backup written to ${r.file} (${r.bytes} bytes, mode 0600): it holds secrets in clear (set SERVICE_BACKUP_KEY on the daemon to encrypt backups)`,
          },
        ],
      }),
    );

  program
    .command('restore <file>')
    .description('restore a backup into an empty data dir, the daemon stopped (PostgreSQL backups: into an empty database)')
    .requiredOption('--data-dir <dir>', 'the empty data dir to restore into')
    .option('--database-url <url>', 'for a PostgreSQL backup: the empty database, postgres://...')
    .option('--allow-unencrypted', 'restore a backup that is not encrypted although SERVICE_BACKUP_KEY is set')
    .option(
      '--keep-webhooks-active',
      'leave the webhooks as they were (default: every one is paused, so a restored copy delivers nothing)',
    )
    .action(
      (
        file: string,
        opts: { dataDir: string; databaseUrl?: string; allowUnencrypted?: boolean; keepWebhooksActive?: boolean },
        command: Command,
      ) =>
        executeLocal(command, {
          label: 'restoring',
          run: async () => {
            const [{ restoreBackup, RestoreRefusedError }, { createLogger }, { prepareDataDir }] = await Promise.all([
              import('../../storage/backup.js'),
              import('../../log.js'),
              import('../../storage/data-dir.js'),
            ]);
            const dataDir = path.resolve(opts.dataDir);
            const target = { dataDir, ...(opts.databaseUrl === undefined ? {} : { databaseUrl: opts.databaseUrl }) };
            const log = createLogger('silent');
            let report;
            try {
              await prepareDataDir(dataDir, { allowShared: false });
              report = await restoreBackup(path.resolve(file), target, log, backupKeyFromEnv(opts.allowUnencrypted === true));
            } catch (err) {
              if (err instanceof RestoreRefusedError) throw new CliError('restore_refused', err.message);
              throw new CliError('restore_failed', err instanceof Error ? err.message : String(err));
            }
            const keep = opts.keepWebhooksActive === true;
            return {
              data_dir: dataDir,
              ...report,
              webhooks_paused: keep ? 0 : await pauseRestoredWebhooks(target, log),
              webhooks_kept_active: keep,
            };
          },
          view: (r): View[] => [
            {
              kind: 'message',
              text: `restored ${r.entries} ${r.engine} entries (schema ${r.schema_version}, backup of ${r.created_at}) into ${r.data_dir}`,
            },
            {
              kind: 'message',
              text: r.webhooks_kept_active
                ? 'webhooks left as they were (--keep-webhooks-active): a daemon started on this copy delivers to their receivers'
                : `paused ${r.webhooks_paused} webhook${r.webhooks_paused === 1 ? '' : 's'}, so a daemon started on this copy delivers nothing; \`switchyard webhook resume <id>\` sends again`,
            },
          ],
        }),
    );
}

/** Pauses every webhook of a restored store (docs/operations.md, "Backups"), recorded in the audit log as the operator's. */
async function pauseRestoredWebhooks(target: { dataDir: string; databaseUrl?: string }, log: Logger): Promise<number> {
  const [{ openStorage }, { AuditLog }, { operator }, { pauseEveryWebhook }] = await Promise.all([
    import('../../storage/open.js'),
    import('../../domain/audit/service.js'),
    import('../../domain/identity/caller.js'),
    import('../../domain/webhooks/pause-all.js'),
  ]);
  const storage = await openStorage(target, log);
  try {
    return await pauseEveryWebhook(storage, new AuditLog(storage), operator);
  } catch (err) {
    throw new CliError(
      'restore_failed',
      `restored, but pausing its webhooks failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    await storage.close();
  }
}

/** SERVICE_BACKUP_KEY as `restore` reads it: from the environment, as the daemon does. */
function backupKeyFromEnv(allowUnencrypted: boolean): { secret?: string; allowUnencrypted: boolean } {
  const secret = process.env.SERVICE_BACKUP_KEY;
  return secret === undefined || secret === '' ? { allowUnencrypted } : { secret, allowUnencrypted };
}
