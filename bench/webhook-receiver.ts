// The webhook receiver of row (8): node:http on 127.0.0.1, 200 at once. It runs in the bench's
// parent process while the daemon delivers from a child, as a real receiver would run elsewhere;
// it records when each request arrived, its X-Service-Delivery and the `seq` in the event's payload.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What arrived since the last `take`: one entry per request, in arrival order. */
export interface Arrivals {
  deliveries: string[];
  seqs: number[];
  /** Arrival times on `clockMs`, in milliseconds. */
  at: number[];
}

/** CLOCK_MONOTONIC in milliseconds: one clock for every process on the machine. */
export function clockMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function noArrivals(): Arrivals {
  return { deliveries: [], seqs: [], at: [] };
}

export class WebhookReceiver {
  private arrivals = noArrivals();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = clockMs();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { payload?: { seq?: unknown } };
      const seq = body.payload?.seq;
      this.arrivals.deliveries.push(String(req.headers['x-service-delivery']));
      this.arrivals.seqs.push(typeof seq === 'number' ? seq : -1);
      this.arrivals.at.push(at);
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
  });
  /** http://127.0.0.1:<port>, once started. */
  base = '';

  private constructor() {
    this.server.keepAliveTimeout = 30_000;
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    receiver.base = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** What arrived since the last call. */
  take(): Arrivals {
    const taken = this.arrivals;
    this.arrivals = noArrivals();
    return taken;
  }

  async close(): Promise<void> {
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }
}
