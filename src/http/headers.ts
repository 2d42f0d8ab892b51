import type { IncomingMessage } from 'node:http';

/**
 * One request header read from `rawHeaders`, without having node build `req.headers` (about a
 * microsecond per request that the hot routes do not need to pay). `lowerName` is lower case.
 * Duplicates follow node's own rules for the headers read this way: `first` keeps the first value
 * (as node does for Authorization), `join` joins them with ", " (as node does for unknown headers,
 * so a repeated X-Principal-Id is one invalid value, never a choice between two).
 */
export function rawHeader(req: IncomingMessage, lowerName: string, duplicates: 'first' | 'join'): string | undefined {
  const raw = req.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    if (value === undefined) value = raw[i + 1]!;
    else if (duplicates === 'join') value += `, ${raw[i + 1]}`;
    else break;
  }
  return value;
}
