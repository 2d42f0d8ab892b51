import path from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../client.js';
import { executeLocal, type View } from '../output.js';

/** `switchyard storage copy`: offline, with the daemon stopped (contract sections 1 and 11). */
export function registerStorage(program: Command): void {
  const storage = program.command('storage').description('work on stored data with the daemon stopped');
  storage
    .command('copy')
    .description("copy a stopped daemon's LevelDB data dir into an empty PostgreSQL database (secrets included)")
    .requiredOption('--to <url>', 'the target database, postgres://user@host:port/database')
    .option('--data-dir <dir>', 'the LevelDB data dir to copy (default: SERVICE_DATA_DIR, else ./data)')
    .action((opts: { to: string; dataDir?: string }, command: Command) =>
      executeLocal(command, {
        label: 'copying',
        run: async () => {
          if (!/^postgres(ql)?:\/\//.test(opts.to)) throw new CliError('invalid_request', '--to must be a postgres:// URL');
          const dataDir = path.resolve(opts.dataDir ?? (process.env.SERVICE_DATA_DIR || './data'));
          const [{ copyToPostgres }, { createLogger }] = await Promise.all([
            import('../../storage/copy.js'),
            import('../../log.js'),
          ]);
          try {
            return { data_dir: dataDir, ...(await copyToPostgres(dataDir, opts.to, createLogger('silent'))) };
          } catch (err) {
            throw new CliError('copy_failed', err instanceof Error ? err.message : String(err));
          }
        },
        view: (report): View[] => [
          {
            kind: 'table',
            title: `Copied ${report.data_dir}`,
            columns: ['TABLE', 'SOURCE', 'COPIED'],
            rows: report.tables.map((t) => [t.table, String(t.source), String(t.target)]),
            empty: 'no tables',
          },
          { kind: 'message', text: `${report.meta} meta values (secrets, positions) copied; counts verified` },
        ],
      }),
    );
}
