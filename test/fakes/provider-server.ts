// What every fake AI provider shares: an HTTP server on 127.0.0.1:0 that records each request and
// answers through a script of faults (a status in the provider's own error shape, a hang, a reset, a
// stream broken or cut short), so that one test can drive any protocol into any failure.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface ProviderRequest {
  at: number;
  method: string;
  /** Path with its query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body was JSON; the raw bytes otherwise (multipart). */
  body: unknown;
  raw: Buffer;
  /** Set when the client went away before the answer ended (a cancelled stream). */
  aborted: boolean;
}

/** How the next call answers; a fake applies the first scripted one, then its default ('ok'). */
export type Fault =
  | { kind: 'ok' }
  /** An error answer in the protocol's own error shape. */
  | { kind: 'status'; status: number; message?: string; retryAfter?: string }
  /** Headers never come. */
  | { kind: 'hang' }
  /** The connection is destroyed before any answer. */
  | { kind: 'reset' }
  /** A stream: `after` chunks, then the connection is destroyed. */
  | { kind: 'break'; after: number }
  /** A stream: every chunk, then a clean end without the protocol's terminator. */
  | { kind: 'truncate' };

export type Route = (req: ProviderRequest, res: ServerResponse, fault: Fault) => void | Promise<void>;

/** The base of each fake: request log, fault script, and the paths it serves. */
export class ProviderServer {
  readonly requests: ProviderRequest[] = [];
  private readonly script: Fault[] = [];
  private readonly open = new Set<ServerResponse>();
  /** Paths (without query) whose calls take faults from the script; others (health, lists) always answer. */
  private readonly scripted = new Set<string>();
  private readonly routes = new Map<string, Route>();

  constructor(private readonly server = http.createServer()) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res).catch(() => res.destroy()));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** `METHOD /path`; `scripted` routes consume the fault script. */
  route(method: string, path: string, handler: Route, scripted = true): void {
    this.routes.set(`${method} ${path}`, handler);
    if (scripted) this.scripted.add(`${method} ${path}`);
  }

  /** Faults for the next scripted calls, in order. */
  enqueue(...faults: Fault[]): void {
    this.script.push(...faults);
  }

  /** Requests to a path (query ignored). */
  calls(path: string): ProviderRequest[] {
    return this.requests.filter((r) => r.path.split('?')[0] === path);
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Closes with the test. */
  own(t: Test): this {
    t.teardown(() => this.close());
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    let body: unknown = raw;
    if (/json/.test(req.headers['content-type'] ?? ''))
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
    const path = req.url ?? '/';
    const record: ProviderRequest = {
      at: Date.now(),
      method: req.method ?? '',
      path,
      headers: req.headers,
      body,
      raw,
      aborted: false,
    };
    this.requests.push(record);
    this.open.add(res);
    res.on('close', () => {
      this.open.delete(res);
      if (!res.writableFinished) record.aborted = true;
    });
    const key = `${req.method} ${path.split('?')[0]}`;
    const handler = this.routes.get(key) ?? this.matchPattern(key);
    if (handler === undefined) {
      sendJson(res, 404, { error: `no route ${key}` });
      return;
    }
    const fault: Fault =
      this.scripted.has(key) || this.isScriptedPattern(key) ? (this.script.shift() ?? { kind: 'ok' }) : { kind: 'ok' };
    if (fault.kind === 'hang') return;
    if (fault.kind === 'reset') {
      res.destroy();
      return;
    }
    await handler(record, res, fault);
  }

  // Routes with a trailing `*` match any path that starts with what comes before it (ComfyUI's /history/{id}).
  private matchPattern(key: string): Route | undefined {
    for (const [pattern, handler] of this.routes)
      if (pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1))) return handler;
    return undefined;
  }

  private isScriptedPattern(key: string): boolean {
    for (const pattern of this.scripted) if (pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1))) return true;
    return false;
  }
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Writes a stream's pieces with a short gap each, honouring a `break` (destroy after N pieces) or a
 * `truncate` (end without the terminator) fault. `pieces` are already framed (SSE events, NDJSON lines).
 */
export async function writeStream(
  res: ServerResponse,
  contentType: string,
  pieces: string[],
  terminator: string[],
  fault: Fault,
  gapMs = 0,
): Promise<void> {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  let sent = 0;
  for (const piece of pieces) {
    if (fault.kind === 'break' && sent >= fault.after) {
      res.destroy();
      return;
    }
    if (res.destroyed) return;
    // Each piece reaches the kernel before the next (a destroy would drop what is still buffered).
    await new Promise<void>((resolve) => res.write(piece, () => resolve()));
    sent++;
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  if (fault.kind === 'break') {
    res.destroy();
    return;
  }
  if (fault.kind !== 'truncate') for (const piece of terminator) res.write(piece);
  res.end();
}

/** What every fake provider exposes: its server, and the server's address, log, script and close. */
export abstract class ProviderFake {
  readonly server = new ProviderServer();

  /** Listens, and closes with the test. */
  protected static async listening<F extends ProviderFake>(fake: F, t: Test): Promise<F> {
    await fake.server.listen();
    fake.server.own(t);
    return fake;
  }

  get url(): string {
    return this.server.url;
  }

  get requests(): ProviderRequest[] {
    return this.server.requests;
  }

  enqueue(...faults: Fault[]): void {
    this.server.enqueue(...faults);
  }

  calls(path: string): ProviderRequest[] {
    return this.server.calls(path);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

export interface ChatFakeOptions {
  apiKey?: string;
  models?: string[];
  reply?: string;
  /** Pieces a streamed reply is split into. */
  chunks?: number;
  /** Milliseconds between two pieces of a stream. */
  gapMs?: number;
}

/** A fake of a chat provider: its models, the reply it gives, how that reply streams. */
export abstract class ChatFake extends ProviderFake {
  models: string[];
  reply: string;
  chunks: number;
  gapMs: number;
  private errorAfter: number | undefined;

  protected constructor(defaults: { models: string[]; reply: string }, options: ChatFakeOptions) {
    super();
    this.models = options.models ?? defaults.models;
    this.reply = options.reply ?? defaults.reply;
    this.chunks = options.chunks ?? 4;
    this.gapMs = options.gapMs ?? 0;
  }

  /** The next stream sends `n` pieces of the reply, then the protocol's own in-stream error, and ends. */
  streamErrorAfter(n: number): void {
    this.errorAfter = n;
  }

  /** The pieces the current stream may send before its error, once (undefined: the whole reply). */
  protected takeStreamError(): number | undefined {
    const n = this.errorAfter;
    this.errorAfter = undefined;
    return n;
  }
}
