import { Command, CommanderError, Option } from 'commander';
import { ConfigError, loadConfig } from '../config/load.js';
import type { OptionKey } from '../config/schema.js';
import { runServe } from '../main.js';
import { StorageLockedError } from '../storage/db.js';
import { NewerSchemaError } from '../storage/migrate.js';
import { version } from '../version.js';

function fail(message: string, code: number): never {
  process.stderr.write(`switchyard: ${message}\n`);
  process.exit(code);
}

function buildProgram(): Command {
  const program = new Command('switchyard')
    .description('Switchyard: the front door and nervous system of a multi-tenant workflow platform')
    .version(version, '-V, --version')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('serve')
    .description('run the daemon: LevelDB storage, /v1 HTTP, gRPC admin API and background loops')
    .option('--config <file>', 'JSON file of settings keyed by variable name')
    .option('--data-dir <dir>', 'data directory (SERVICE_DATA_DIR)')
    .option('--http-addr <host:port>', 'HTTP listen address (SERVICE_HTTP_ADDR)')
    .option('--grpc-socket <path>', 'gRPC admin Unix socket (SERVICE_GRPC_SOCKET)')
    .option('--grpc-addr <host:port>', 'optional TCP gRPC listener (SERVICE_GRPC_ADDR)')
    .option('--public-url <url>', 'absolute public base URL (SERVICE_PUBLIC_URL)')
    .addOption(new Option('--log-level <level>', 'log level (SERVICE_LOG_LEVEL)'))
    .option('--dev', 'development mode: on first start, create organization `dev` with an owner key')
    .action(async (opts: Record<string, unknown> & { config?: string }) => {
      const { config: configFile, ...flags } = opts;
      let config;
      try {
        config = loadConfig({ flags: flags as Partial<Record<OptionKey, unknown>>, ...(configFile === undefined ? {} : { configFile }) });
      } catch (err) {
        if (err instanceof ConfigError) fail(`invalid configuration: ${err.message}`, 2);
        throw err;
      }
      try {
        await runServe(config);
      } catch (err) {
        if (err instanceof StorageLockedError || err instanceof NewerSchemaError) fail(err.message, 1);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') fail(`cannot listen on ${config.httpAddr}: ${code}`, 1);
        throw err;
      }
    });
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    throw err;
  }
}
