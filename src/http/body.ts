import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Reads a JSON body within the size limit. An empty body reads as undefined. */
export async function readJsonBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new AppError('payload_too_large', `request body is larger than ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw new AppError('payload_too_large', `request body is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const type = req.headers['content-type'];
  if (type === undefined || !JSON_TYPE.test(type)) {
    throw new AppError('unsupported_media_type', 'request body must be application/json');
  }
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'request body is not valid JSON');
  }
}
