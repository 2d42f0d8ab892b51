// The HTTP side of every adapter: keep-alive pools per origin (one undici Agent, loaded on first
// use so a daemon with only the echo provider never holds it), per-provider connect and total
// timeouts, and one classification of failures (retriable or not) that the router's fallback reads.
import type * as Undici_ from 'undici';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { deadline } from '../../deadline.js';
import { scrubErrorText } from '../../redact.js';
import { readUpTo } from '../../read-stream.js';
import { describeSocketError } from '../../socket-errors.js';

/** Why an upstream call failed. `retriable` failures may fall back to the next provider (contract 8). */
export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    readonly kind: 'connect' | 'timeout' | 'status' | 'protocol' | 'cancelled' | 'unavailable',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

/**
 * A model the provider has but cannot load (an in-process runtime's file): the call goes on to the
 * next candidate, the model stops being advertised, and the provider stays healthy while it has
 * other models. `reason` is the daemon's own words, never the runtime's exception text.
 */
export class ModelUnavailable extends UpstreamFailure {
  constructor(
    readonly model: string,
    readonly reason: string,
  ) {
    super(`model ${model} cannot be loaded: ${reason}`, false, 'unavailable');
    this.name = 'ModelUnavailable';
  }
}

export interface UpstreamOptions {
  /** Base URL: paths are appended to it (OpenAI's includes /v1). */
  baseUrl: string;
  connectTimeoutMs: number;
  /** Headers to the first byte, and at most this long between two chunks of a body. */
  timeoutMs: number;
  /** Values scrubbed from any text that leaves the adapter (the provider's own key). */
  secrets: readonly string[];
  /** A 2xx answer's body at most, whole or streamed (default DEFAULT_MAX_ANSWER_BYTES); past it the call fails. */
  maxAnswerBytes?: number;
}

/** An answer's body at most unless configured (SERVICE_PROVIDER_MAX_ANSWER_BYTES). */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** An error answer's body is read this far for the provider's message, then the connection is dropped. */
export const ERROR_BODY_BYTES = 8 * 1024;

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** JSON (serialised here), or raw bytes with their own content type in headers. */
  json?: unknown;
  body?: Buffer | Uint8Array;
  signal: AbortSignal;
}

type Undici = typeof Undici_;
let undici: Promise<Undici> | undefined;
/** Agents by connect timeout: providers with the same one share it (a pool per origin inside, kept alive). */
const agents = new Map<number, Promise<Dispatcher>>();

function sharedAgent(connectTimeoutMs: number): Promise<Dispatcher> {
  let agent = agents.get(connectTimeoutMs);
  if (agent === undefined) {
    agent = (undici ??= import('undici')).then(
      ({ Agent }) => new Agent({ connect: { timeout: connectTimeoutMs }, connections: 128, keepAliveTimeout: 30_000 }),
    );
    agents.set(connectTimeoutMs, agent);
  }
  return agent;
}

/** Counts closeUpstreams() calls: an Upstream's agent taken before the last one is closed. */
let agentsGeneration = 0;

/** Closes the shared agents (daemon shutdown); a later call opens new ones. */
export async function closeUpstreams(): Promise<void> {
  const open = [...agents.values()];
  agents.clear();
  agentsGeneration++;
  for (const agent of open) await (await agent).close();
}

export class Upstream {
  /** undici's request and this upstream's agent, once loaded (sharedAgent). */
  private loaded: { send: Undici['request']; dispatcher: Dispatcher; generation: number } | undefined;

  constructor(readonly options: UpstreamOptions) {}

  private async load(): Promise<{ send: Undici['request']; dispatcher: Dispatcher; generation: number }> {
    const generation = agentsGeneration;
    const [{ request: send }, dispatcher] = await Promise.all([
      (undici ??= import('undici')),
      sharedAgent(this.options.connectTimeoutMs),
    ]);
    return { send, dispatcher, generation };
  }

  /** Scrubs credentials (the provider's key and every known credential shape) from text. */
  scrub(text: string): string {
    let out = text;
    for (const secret of this.options.secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
    return scrubErrorText(out);
  }

  /** A JSON call: the parsed answer of a 2xx, else an UpstreamFailure naming the provider's message. */
  async json<T>(request: UpstreamRequest): Promise<T> {
    const response = await this.open(request);
    try {
      const text = await response.text();
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new UpstreamFailure(`answer is not JSON: ${this.scrub(text.slice(0, 200))}`, false, 'protocol');
      }
    } catch (err) {
      throw this.classify(err, request.signal);
    }
  }

  /** Bytes of a 2xx answer (images fetched back). */
  async bytes(request: UpstreamRequest): Promise<{ body: Buffer; contentType: string }> {
    const response = await this.open(request);
    try {
      return { body: Buffer.from(await response.arrayBuffer()), contentType: response.contentType };
    } catch (err) {
      throw this.classify(err, request.signal);
    }
  }

  /**
   * Opens a call and checks its status: the body is left to read (streams). A non-2xx answer is
   * read (bounded) for the provider's message and thrown.
   */
  async open(request: UpstreamRequest): Promise<OpenResponse> {
    // Once loaded, undici and the agent are taken as they are: no promise and no turn a call.
    let loaded = this.loaded;
    if (loaded === undefined || loaded.generation !== agentsGeneration) loaded = this.loaded = await this.load();
    const { send, dispatcher } = loaded;
    // The total timeout runs to the headers; the body's pace is undici's bodyTimeout (between chunks).
    const until = deadline(this.options.timeoutMs, request.signal);
    const headers: Record<string, string> = { ...request.headers };
    let body: string | Buffer | Uint8Array | undefined = request.body;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    let answer: Dispatcher.ResponseData;
    try {
      answer = await send(`${this.options.baseUrl}${request.path}`, {
        dispatcher,
        method: request.method,
        headers,
        body,
        signal: until.signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
    } catch (err) {
      until.clear();
      throw this.classify(err, request.signal, until.signal);
    }
    until.clear();
    const contentType = String(answer.headers['content-type'] ?? '');
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      let text = '';
      try {
        // An error body that never ends (or is merely huge) is cut: the message is a courtesy.
        text = (await readAtMost(answer.body, ERROR_BODY_BYTES)).bytes.toString('utf8').slice(0, 2000);
      } catch {
        // the status says enough
      }
      const status = answer.statusCode;
      const retriable = status === 429 || status >= 500;
      throw new UpstreamFailure(`${status} ${this.scrub(providerMessage(text))}`.trim(), retriable, 'status', status);
    }
    const body$ = answer.body;
    // The deadline let go of the caller's signal with the headers: a client gone mid-body still cuts the call.
    const onAbort = () => body$.destroy(new Error('cancelled by the client'));
    if (request.signal.aborted) onAbort();
    else {
      request.signal.addEventListener('abort', onAbort, { once: true });
      body$.once('close', () => request.signal.removeEventListener('abort', onAbort));
    }
    const max = this.options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const tooLarge = () => new UpstreamFailure(`answer larger than ${max} bytes`, false, 'protocol');
    const whole = async (): Promise<Buffer> => {
      const { bytes, cut } = await readAtMost(body$, max);
      if (cut) throw tooLarge();
      return bytes;
    };
    return {
      status: answer.statusCode,
      contentType,
      text: async () => (await whole()).toString('utf8'),
      arrayBuffer: async () => {
        const bytes = await whole();
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      },
      chunks: () => boundedChunks(body$, max, tooLarge),
      destroy: () => body$.destroy(),
    };
  }

  /** Any error of a call as an UpstreamFailure: cancelled by the client, timed out, or unreachable. */
  classify(err: unknown, callerSignal: AbortSignal, own?: AbortSignal): UpstreamFailure {
    if (err instanceof UpstreamFailure) return err;
    if (callerSignal.aborted) return new UpstreamFailure('cancelled by the client', false, 'cancelled');
    const e = err as { code?: string; name?: string; message?: string };
    if (
      own?.aborted === true ||
      e.name === 'TimeoutError' ||
      e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      e.code === 'UND_ERR_BODY_TIMEOUT'
    )
      return new UpstreamFailure(`timed out after ${this.options.timeoutMs} ms`, true, 'timeout');
    if (e.code === 'UND_ERR_CONNECT_TIMEOUT')
      return new UpstreamFailure(`connect timed out after ${this.options.connectTimeoutMs} ms`, true, 'timeout');
    return new UpstreamFailure(this.scrub(describeSocketError(err)), true, 'connect');
  }
}

export interface OpenResponse {
  status: number;
  contentType: string;
  text: () => Promise<string>;
  arrayBuffer: () => Promise<ArrayBuffer>;
  chunks: () => AsyncIterable<Buffer>;
  destroy: () => void;
}

/**
 * A body's bytes up to `max`; past it the body is destroyed (its connection dropped, never drained)
 * and `cut` is true.
 */
export async function readAtMost(body: Readable, max: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const { chunks, size, over } = await readUpTo(body, max);
  if (over === undefined)
    // One chunk (a usual JSON answer) is taken as it is: every reader decodes or copies it at once.
    return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), cut: false };
  chunks.push(over.subarray(0, max - size));
  // Destroyed before its end, the body reports an abort: heard here, it is what cutting it means.
  body.on('error', () => undefined);
  body.destroy();
  return { bytes: Buffer.concat(chunks), cut: true };
}

/** A streamed body's chunks, failing with `tooLarge()` once they pass `max` bytes in all. */
async function* boundedChunks(
  body: AsyncIterable<Buffer> & { destroy: (err?: Error) => unknown },
  max: number,
  tooLarge: () => Error,
): AsyncIterable<Buffer> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw tooLarge();
    }
    yield chunk;
  }
}

/** The message inside a provider's error body (OpenAI, Anthropic, Ollama, ComfyUI shapes), else the text. */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error !== null && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
      return error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300);
}

/** Lines of a body (NDJSON), split across chunk boundaries. */
export async function* lines(chunks: AsyncIterable<Buffer>): AsyncIterable<string> {
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    rest += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) !== -1) {
      const line = rest.slice(0, nl).trim();
      rest = rest.slice(nl + 1);
      if (line !== '') yield line;
    }
  }
  rest += decoder.decode();
  if (rest.trim() !== '') yield rest.trim();
}

/** Server-sent events of a body, parsed by eventsource-parser. */
export async function* sseEvents(chunks: AsyncIterable<Buffer>): AsyncIterable<{ event?: string; data: string }> {
  const { createParser } = await import('eventsource-parser');
  const queue: { event?: string; data: string }[] = [];
  const parser = createParser({ onEvent: (e) => queue.push({ event: e.event, data: e.data }) });
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) yield queue.shift()!;
  }
  parser.feed(decoder.decode());
  while (queue.length > 0) yield queue.shift()!;
}
