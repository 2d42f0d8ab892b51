import { limitReached, type AppError } from './errors.js';

/**
 * How deeply any JSON a client sends may nest (objects and arrays, the outermost counting 1). Below
 * what every consumer can serialise: the admin API carries JSON as google.protobuf.Value, three
 * message levels per object level, and protobufjs refuses messages past 100 levels (protoc's limit),
 * so a stored state much deeper than 32 could not be shown by the CLI; zod, JSON.stringify and ink
 * overflowed the stack at about 1,500. Far above what a definition, an input or a state needs.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Refuses JSON text that nests deeper than the limit, before it is parsed: one pass over the bytes,
 * no recursion, so the depth is known before anything walks the value. Brackets inside strings do not
 * count; text that is not JSON is left for the parser to refuse.
 */
export function assertJsonTextDepth(text: string, limit = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) throw tooDeep(limit);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
}

/** The refusal, in the contract's validation shape: 422 over HTTP, INVALID_ARGUMENT over gRPC. */
export function tooDeep(limit = MAX_JSON_DEPTH): AppError {
  return limitReached(
    'max_json_depth',
    limit,
    '(body)',
    `nests deeper than ${limit} levels`,
    `JSON nests deeper than ${limit} levels`,
  );
}
