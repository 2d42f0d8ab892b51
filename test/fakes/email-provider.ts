// A local stand-in for the transactional email provider's HTTP API (Resend-style), on 127.0.0.1:0.
// POST /emails with `Authorization: Bearer <key>` and JSON {from, to, subject, html, text}; answers
// 200 {id}. Honours `Idempotency-Key` like the real one: a key that already succeeded gets the same
// id back and no second mail. Failures are programmable: a status (with Retry-After) or a hang.

import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface SentEmail {
  id: string;
  idempotencyKey: string | undefined;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
}

export interface ReceivedRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  idempotencyKey: string | undefined;
  body: unknown;
  /** The status answered; null while hanging (or when the client went away first). */
  status: number | null;
}

export type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'hang' }
  // A validation error that quotes the request (its text part) back, as providers do.
  | { kind: 'echo'; status: number };

export class FakeEmailProvider {
  readonly requests: ReceivedRequest[] = [];
  readonly sent: SentEmail[] = [];
  private readonly script: Behaviour[] = [];
  private fallback: Behaviour = { kind: 'ok' };
  private readonly byKey = new Map<string, string>();
  private readonly hanging = new Set<ServerResponse>();
  /** How long every well-formed request waits before its behaviour applies (a slow provider); 0 = none. */
  delayMs = 0;

  private constructor(
    private readonly server: http.Server,
    readonly apiKey: string,
  ) {}

  static async start(apiKey = 're_test_fake_key'): Promise<FakeEmailProvider> {
    const server = http.createServer();
    const fake = new FakeEmailProvider(server, apiKey);
    // A client that dies mid-request (a SIGKILLed daemon) aborts the body read: drop that exchange.
    server.on(
      'request',
      (req: http.IncomingMessage, res: http.ServerResponse) => void fake.handle(req, res).catch(() => res.destroy()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Behaviours for the next requests, in order; after them, the default (setDefault). */
  enqueue(...behaviours: Behaviour[]): void {
    this.script.push(...behaviours);
  }

  setDefault(behaviour: Behaviour): void {
    this.fallback = behaviour;
  }

  /** Answers every hanging request with 200 (as if the provider finally replied). */
  releaseHanging(): void {
    for (const res of this.hanging) this.respond(res, 200, { id: randomUUID() });
    this.hanging.clear();
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const keyHeader = req.headers['idempotency-key'];
    const idempotencyKey = typeof keyHeader === 'string' ? keyHeader : undefined;
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // recorded as text
    }
    const record: ReceivedRequest = {
      at: Date.now(),
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      idempotencyKey,
      body,
      status: null,
    };
    this.requests.push(record);
    const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      this.respond(res, status, payload, headers);
    };

    if (req.method !== 'POST' || req.url !== '/emails')
      return answer(404, { statusCode: 404, name: 'not_found', message: 'The requested endpoint does not exist.' });
    const auth = req.headers.authorization;
    if (auth === undefined)
      return answer(401, { statusCode: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header.' });
    if (auth !== `Bearer ${this.apiKey}`)
      return answer(403, { statusCode: 403, name: 'invalid_api_key', message: 'API key is invalid.' });
    if (!/^application\/json/.test(req.headers['content-type'] ?? ''))
      return answer(422, { statusCode: 422, name: 'validation_error', message: 'Content-Type must be application/json.' });
    const problem = validate(body);
    if (problem !== undefined) return answer(422, { statusCode: 422, name: 'validation_error', message: problem });
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));

    const behaviour = this.script.shift() ?? this.fallback;
    if (behaviour.kind === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (behaviour.kind === 'echo')
      return answer(behaviour.status, {
        statusCode: behaviour.status,
        name: 'validation_error',
        message: `could not send: ${typeof body === 'object' && body !== null && 'text' in body ? String(body.text) : raw}`,
      });
    if (behaviour.kind === 'status') {
      const headers: Record<string, string> = behaviour.retryAfter === undefined ? {} : { 'retry-after': behaviour.retryAfter };
      const name =
        behaviour.status === 429
          ? 'rate_limit_exceeded'
          : behaviour.status >= 500
            ? 'internal_server_error'
            : 'application_error';
      return answer(
        behaviour.status,
        { statusCode: behaviour.status, name, message: behaviour.message ?? `fake failure ${behaviour.status}` },
        headers,
      );
    }
    const previous = idempotencyKey === undefined ? undefined : this.byKey.get(idempotencyKey);
    if (previous !== undefined) return answer(200, { id: previous });
    const mail = body as { from: string; to: string | string[]; subject: string; html?: string; text?: string };
    const id = randomUUID();
    if (idempotencyKey !== undefined) this.byKey.set(idempotencyKey, id);
    this.sent.push({
      id,
      idempotencyKey,
      from: mail.from,
      to: Array.isArray(mail.to) ? mail.to : [mail.to],
      subject: mail.subject,
      html: mail.html ?? '',
      text: mail.text ?? '',
    });
    return answer(200, { id });
  }

  private respond(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    if (res.writableEnded || res.destroyed) return;
    const text = JSON.stringify(payload);
    res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}

function validate(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'The request body must be a JSON object.';
  const b = body as Record<string, unknown>;
  if (typeof b.from !== 'string' || b.from === '') return 'The `from` field is missing.';
  const to = Array.isArray(b.to) ? b.to : [b.to];
  if (to.length === 0 || to.length > 50 || to.some((x) => typeof x !== 'string' || !x.includes('@')))
    return 'The `to` field is invalid.';
  if (typeof b.subject !== 'string' || b.subject === '') return 'The `subject` field is missing.';
  if (typeof b.html !== 'string' && typeof b.text !== 'string') return 'Either `html` or `text` must be provided.';
  return undefined;
}

/** A fake provider for one test, closed at its teardown. */
export async function fakeProvider(t: Test): Promise<FakeEmailProvider> {
  const fake = await FakeEmailProvider.start();
  t.teardown(() => fake.close());
  return fake;
}

/** The daemon settings that send mail to `fake`, polling the outbox every 50 ms. */
export function providerEnv(fake: FakeEmailProvider, extra: Record<string, string> = {}): Record<string, string> {
  return { EMAIL_PROVIDER_API_KEY: fake.apiKey, EMAIL_PROVIDER_BASE_URL: fake.url, SERVICE_OUTBOX_POLL_MS: '50', ...extra };
}
