import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';

// JSON read from the command line or a file (`--input`, `--input-file`, `--state`, a definition
// file); a malformed one is a usage error (exit 2), said by the flag commander names.

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The text of a file, or of stdin for `-`. */
export function readText(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw new InvalidArgumentError(
      `cannot read ${file === '-' ? 'stdin' : file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** Any JSON value (`--state`). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidArgumentError('expected JSON, e.g. \'{"ticket": 42}\'');
  }
}

/** A JSON object (`--input`). */
export function parseJsonObject(text: string): Record<string, unknown> {
  const value = parseJson(text);
  if (!isObject(value)) throw new InvalidArgumentError('expected a JSON object, e.g. \'{"topic": "otters"}\'');
  return value;
}

/** A file (or stdin for `-`) holding a JSON object (`--input-file`). */
export function parseJsonObjectFile(file: string): Record<string, unknown> {
  try {
    return parseJsonObject(readText(file));
  } catch (err) {
    if (err instanceof InvalidArgumentError && !err.message.startsWith('cannot read'))
      throw new InvalidArgumentError(`${file === '-' ? 'stdin' : file}: ${err.message}`);
    throw err;
  }
}
