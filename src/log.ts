import { pino, type Logger, type LevelWithSilent } from 'pino';
import { LogDestination } from './log-destination.js';

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

/** Fields every line carries. */
const BASE = { service: 'switchyard' };

function optionsOf(level: LevelWithSilent) {
  return {
    level,
    base: BASE,
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: LevelWithSilent, destination?: pino.DestinationStream): Logger {
  return destination === undefined ? pino(optionsOf(level)) : pino(optionsOf(level), destination);
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

/**
 * The daemon's log on stdout, written asynchronously (log-destination.ts): a line is copied into a
 * buffer, and buffers go to stdout 64 KB at a time or within 50 ms, never blocking a request on a
 * slow reader. What is still buffered is written synchronously when the process exits, however it
 * exits (a signal's shutdown, process.exit, an uncaught exception); only SIGKILL can lose it.
 *
 * Once stdout fails (its reader closed, the disk full), one line says so on stderr and log lines are
 * dropped from then on: the daemon keeps serving, as pino's own destination does for a closed pipe.
 * A reader that falls more than 16 MB behind loses lines, and a line says how many once it catches up.
 */
export function createDaemonLogger(level: LevelWithSilent): Logger {
  const destination = new LogDestination(1, {
    onFailure: (err) => {
      try {
        process.stderr.write(
          `switchyard: writing the log to stdout failed (${err.code ?? err.message}): log lines are dropped from now on\n`,
        );
      } catch {
        // stderr is gone too: nothing more can be said.
      }
    },
    droppedLine: (count) =>
      `${JSON.stringify({ level: pino.levels.values.warn, time: new Date().toISOString(), ...BASE, dropped: count, msg: 'log lines dropped: stdout was not read fast enough' })}\n`,
  });
  process.once('exit', () => destination.flushSync());
  const log = pino({ ...optionsOf(level), onChild: (child: Logger) => destinations.set(child, destination) }, destination);
  destinations.set(log, destination);
  return log;
}

/** The daemon logger's destination by logger, its children's included (pino's onChild is inherited). */
const destinations = new WeakMap<Logger, LogDestination>();

/**
 * Where a logger from createDaemonLogger writes, for a writer that encodes its lines itself (the
 * access log); undefined for any other logger.
 */
export function destinationOf(log: Logger): LogDestination | undefined {
  return destinations.get(log);
}
