import { Option, type Command } from 'commander';

function fail(message: string, code: number): never {
  process.stderr.write(`switchyard: ${message}\n`);
  process.exit(code);
}

/** `switchyard serve`: the daemon itself (everything else in the CLI is its client). */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the daemon: storage (LevelDB, or PostgreSQL), /v1 HTTP, gRPC admin API and background loops')
    .option('--config <file>', 'JSON file of settings keyed by variable name')
    .option('--data-dir <dir>', 'data directory (SERVICE_DATA_DIR)')
    .option('--http-addr <host:port>', 'HTTP listen address (SERVICE_HTTP_ADDR)')
    .option('--grpc-socket <path>', 'gRPC admin Unix socket (SERVICE_GRPC_SOCKET)')
    .option('--grpc-addr <host:port>', 'optional TCP gRPC listener (SERVICE_GRPC_ADDR)')
    .option('--public-url <url>', 'absolute public base URL (SERVICE_PUBLIC_URL)')
    .addOption(new Option('--log-level <level>', 'log level (SERVICE_LOG_LEVEL)'))
    .addOption(
      new Option(
        '--log-format <format>',
        'log lines for people or machines (SERVICE_LOG_FORMAT; default: pretty on a terminal, else json)',
      ).choices(['pretty', 'json']),
    )
    .option('--dev', 'development mode: on first start, create organization `dev` with an owner key')
    .action(async (opts: Record<string, unknown> & { config?: string }) => {
      // The daemon's modules load only for `serve`, so client commands start fast.
      const [
        { ConfigError, loadConfig, plannedSettingsSet },
        { createServeLogger },
        { runServe },
        { NewerSchemaError, StorageLockedError, StorageOpenError },
        { GrpcStartError },
        { DataDirError },
        { MetricsStartError },
      ] = await Promise.all([
        import('../../config/load.js'),
        import('../../log.js'),
        import('../../main.js'),
        import('../../storage/errors.js'),
        import('../../grpc/server.js'),
        import('../../storage/data-dir.js'),
        import('../../metrics.js'),
      ]);
      const { config: configFile, ...flags } = opts;
      const sources = { flags, ...(configFile === undefined ? {} : { configFile }) };
      let config;
      try {
        config = loadConfig(sources);
      } catch (err) {
        if (err instanceof ConfigError) fail(`invalid configuration: ${err.message}`, 2);
        throw err;
      }
      const log = await createServeLogger(config.logLevel, config.logFormat);
      const planned = plannedSettingsSet(sources);
      if (planned.length > 0)
        log.warn({ settings: planned }, `settings for features not built yet are ignored: ${planned.join(', ')}`);
      try {
        await runServe(config, log);
      } catch (err) {
        if (err instanceof DataDirError) fail(err.message, err.exitCode);
        if (
          err instanceof StorageLockedError ||
          err instanceof StorageOpenError ||
          err instanceof NewerSchemaError ||
          err instanceof GrpcStartError ||
          err instanceof MetricsStartError
        )
          fail(err.message, 1);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
          fail(`cannot listen on ${config.httpAddr}: ${code}`, 1);
        throw err;
      }
    });
}
