import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

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
 */
export function createDaemonLogger(level: LevelWithSilent): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  // A quiet daemon's lines still go out promptly: what is buffered is written at least this often.
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // not open yet, or closed: the next tick or the exit flush writes it
    }
  }, FLUSH_EVERY_MS).unref();
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout already closed: nothing more can be written anyway.
    }
  });
  return pino(optionsOf(level), destination);
}
