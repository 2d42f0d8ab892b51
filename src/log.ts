import { pino, type Logger, type LevelWithSilent } from 'pino';
import sonicBoom from 'sonic-boom';

export type { Logger };

// sonic-boom is CommonJS (`module.exports = SonicBoom`); its types describe ES exports.
const SonicBoom = sonicBoom as unknown as typeof sonicBoom.SonicBoom;

// Secrets never reach a log line: credentials in headers, and any field that names a secret.
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'headers.authorization',
  '*.raw_key',
  '*.secret',
  '*.token',
  '*.password',
  '*.api_key',
  '*.apiKey',
  'raw_key',
  'secret',
  'token',
  'password',
];

function optionsOf(level: LevelWithSilent) {
  return {
    level,
    base: { service: 'switchyard' },
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: LevelWithSilent, destination?: NodeJS.WritableStream): Logger {
  return destination === undefined ? pino(optionsOf(level)) : pino(optionsOf(level), destination as pino.DestinationStream);
}

/**
 * The log `serve` writes on stdout: JSON lines for machines (log collectors, pipes), or for a person
 * at a terminal pino-pretty's coloured lines. pino-pretty is loaded only then, so the JSON path
 * neither loads nor passes through it.
 */
export async function createServeLogger(
  level: LevelWithSilent,
  format: 'pretty' | 'json' | undefined,
  stdout: { isTTY?: boolean } = process.stdout,
): Promise<Logger> {
  if ((format ?? (stdout.isTTY === true ? 'pretty' : 'json')) === 'json') return createDaemonLogger(level);
  const { default: pretty } = await import('pino-pretty');
  // Synchronous, as the JSON path is: what was logged before an exit is on the screen. Colour
  // follows the terminal and NO_COLOR (pino-pretty's default); the constant service field is left out.
  return pino(optionsOf(level), pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'service' }));
}

/** Lines are gathered up to this many bytes per write... */
const BUFFER_BYTES = 8 * 1024;
/** ...or for at most this long. */
const FLUSH_EVERY_MS = 100;

/**
 * The daemon's log on stdout, written asynchronously: a request's access line is handed to the
 * kernel after the answer, and lines logged together go out in one write, instead of one blocking
 * write per line. What is still buffered is written synchronously when the process exits, however
 * it exits (a signal's shutdown, process.exit, an uncaught exception); only SIGKILL can lose it.
 *
 * The destination is sonic-boom 5 (pino's own is 4.x, whose synchronous flush retried a failed write
 * forever: a daemon whose stdout reader had gone hung at exit instead of exiting). Once stdout fails
 * (its reader closed, the disk full), one line says so on stderr and log lines are dropped from then
 * on: the daemon keeps serving, as pino's own destination does for a closed pipe.
 */
export function createDaemonLogger(level: LevelWithSilent): Logger {
  const destination = new SonicBoom({ fd: 1, sync: false, minLength: BUFFER_BYTES });
  let failed = false;
  destination.on('error', (err: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = true;
    destination.write = () => true;
    destination.flush = () => {};
    try {
      process.stderr.write(
        `switchyard: writing the log to stdout failed (${err.code ?? err.message}): log lines are dropped from now on\n`,
      );
    } catch {
      // stderr is gone too: nothing more can be said.
    }
  });
  // A quiet daemon's lines still go out promptly: what is buffered is written at least this often.
  setInterval(() => {
    if (!failed) destination.flush();
  }, FLUSH_EVERY_MS).unref();
  process.once('exit', () => {
    if (failed) return;
    try {
      destination.flushSync();
    } catch {
      // stdout failed at the last moment (gone, full): what was buffered is lost, the exit goes on.
    }
  });
  return pino(optionsOf(level), destination);
}
