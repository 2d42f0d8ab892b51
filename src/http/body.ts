import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';
import { assertJsonTextDepth } from '../json-depth.js';
import { readUpTo } from '../read-stream.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

const MULTIPART_TYPE = /^multipart\/form-data\s*;/i;

/**
 * What a route accepts as a body: JSON always; `form` adds application/x-www-form-urlencoded (an HTML
 * form's POST); `multipart` adds multipart/form-data (file uploads: OpenAI's audio transcriptions).
 */
export type BodyFormat = 'json' | 'form' | 'multipart';

/** A file part of a multipart body. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * Reads a body within the size limit: JSON, or (for routes that accept forms) a URL-encoded form,
 * read into an object whose repeated fields are arrays. An empty body reads as undefined.
 */
export async function readBody(
  req: IncomingMessage,
  formats: readonly BodyFormat[] = ['json'],
  limit = BODY_LIMIT_BYTES,
): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new AppError('payload_too_large', `request body is larger than ${limit} bytes`);
  }
  const { chunks, size, over } = await readUpTo(req, limit);
  if (over !== undefined) {
    // The rest is read and dropped: the answer then reaches a client that is still sending.
    req.resume();
    throw new AppError('payload_too_large', `request body is larger than ${limit} bytes`);
  }
  if (size === 0) return undefined;
  const type = req.headers['content-type'];
  const text = () => Buffer.concat(chunks, size).toString('utf8');
  if (type !== undefined && formats.includes('form') && FORM_TYPE.test(type)) return formFields(new URLSearchParams(text()));
  if (type !== undefined && formats.includes('multipart') && MULTIPART_TYPE.test(type))
    return multipartFields(Buffer.concat(chunks, size), type);
  if (type === undefined || !JSON_TYPE.test(type)) {
    const accepted = formats
      .map((f) =>
        f === 'json' ? 'application/json' : f === 'form' ? 'application/x-www-form-urlencoded' : 'multipart/form-data',
      )
      .join(' or ');
    throw new AppError('unsupported_media_type', `request body must be ${accepted}`);
  }
  const json = text();
  assertJsonTextDepth(json);
  try {
    return JSON.parse(json);
  } catch {
    throw new AppError('invalid_json', 'request body is not valid JSON');
  }
}

/** Form fields as an object: a field given once is a string, a repeated one an array (as query strings read). */
function formFields(params: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of params) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

/** A multipart/form-data body (undici's parser, as fetch's Response reads it): text fields as strings, files as UploadedFile. */
async function multipartFields(
  body: Buffer,
  type: string,
): Promise<Record<string, string | UploadedFile | (string | UploadedFile)[]>> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('invalid_request', 'request body is not valid multipart/form-data');
  }
  const fields: Record<string, string | UploadedFile | (string | UploadedFile)[]> = Object.create(null) as Record<
    string,
    string | UploadedFile | (string | UploadedFile)[]
  >;
  for (const [name, entry] of form) {
    const value: string | UploadedFile =
      typeof entry === 'string'
        ? entry
        : { filename: entry.name, contentType: entry.type, bytes: Buffer.from(await entry.arrayBuffer()) };
    const seen = fields[name];
    fields[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}
