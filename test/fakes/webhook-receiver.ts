// A webhook receiver on 127.0.0.1:0: records every request (headers and raw body) and answers as
// scripted: a status, a redirect, a hang, a reset mid-answer, or a slow body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface Received {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The sender closed the connection before this answer ended (it stopped reading, or gave up). */
  abandoned: boolean;
}

export type Answer =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'slow-body'; status: number; chunks: string[]; gapMs: number };

/** Requests answered by no one yet (a hang holds one open until the client gives up), now and at most. */
export class OpenRequests {
  now = 0;
  peak = 0;

  opened(): void {
    this.now++;
    if (this.now > this.peak) this.peak = this.now;
  }

  closed(): void {
    this.now--;
  }
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** This receiver's requests in flight; `counts` (shared by several receivers, if given) counts them too. */
  readonly inFlight = new OpenRequests();
  /** TCP connections accepted so far (a client that keeps them alive opens few). */
  connections = 0;
  private readonly script: Answer[] = [];
  private fallback: Answer = { kind: 'status', status: 200, body: 'ok' };
  private readonly open = new Set<http.ServerResponse>();

  private constructor(
    private readonly server: http.Server,
    private readonly counts: OpenRequests | undefined,
  ) {}

  static async start(t: Test, counts?: OpenRequests): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server, counts);
    server.on('request', (req, res) => receiver.handle(req, res));
    server.on('connection', () => receiver.connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => receiver.close());
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Answers for the next requests, in order; then the default. */
  enqueue(...answers: Answer[]): void {
    this.script.push(...answers);
  }

  setDefault(answer: Answer): void {
    this.fallback = answer;
  }

  /** Requests carrying this delivery id. */
  deliveries(id: string): Received[] {
    return this.received.filter((r) => r.headers['x-service-delivery'] === id);
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.inFlight.opened();
    this.counts?.opened();
    res.once('close', () => {
      this.inFlight.closed();
      this.counts?.closed();
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = {
        at: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        abandoned: false,
      };
      this.received.push(received);
      res.once('close', () => (received.abandoned = !res.writableFinished));
      const answer = this.script.shift() ?? this.fallback;
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      switch (answer.kind) {
        case 'status':
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body ?? '');
          return;
        case 'hang':
          return;
        case 'reset':
          // The request was read; the connection dies before any answer.
          res.socket?.destroy();
          return;
        case 'slow-body': {
          res.writeHead(answer.status, { 'content-type': 'text/plain' });
          let i = 0;
          const next = (): void => {
            if (i >= answer.chunks.length) {
              res.end();
              return;
            }
            res.write(answer.chunks[i++]);
            setTimeout(next, answer.gapMs).unref();
          };
          next();
          return;
        }
      }
    });
  }
}
