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

export function createLogger(level: LevelWithSilent, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'switchyard' },
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination === undefined ? pino(options) : pino(options, destination as pino.DestinationStream);
}
