import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// Every HTTP connection's deadlines, kept here rather than left to Node's connection checker
// (headersTimeout / requestTimeout / connectionsCheckingInterval). That checker sees only the
// connections in a native set ordered by a timestamp that changes while they are in it, and drops a
// connection from the set when it reports it; a silent connection opened on a daemon serving mixed
// traffic was seen still open after 90 s. Here one timer walks a plain Map of every open socket, so
// a deadline holds whatever else the daemon is doing, on every Node version.

export interface ConnectionGuardLimits {
  /** From the moment a connection opens, or its last answer ends, to its next request's headers. */
  headersTimeoutMs: number;
  /** From a request's headers to the end of its body. */
  requestTimeoutMs: number;
  /** Open connections from one client address at most; past it a new one is closed at once. */
  maxConnectionsPerAddress?: number;
}

interface ConnectionState {
  address: string;
  /** Requests whose answer has not ended (pipelining can make it more than one). */
  open: number;
  /** When the connection started waiting for a request's headers (its opening, or its last answer's end). */
  idleSince: number;
  /** The request whose body is being read, and when its headers arrived. */
  reading: IncomingMessage | undefined;
  readingSince: number;
}

const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

export class ConnectionGuard {
  private readonly connections = new Map<Socket, ConnectionState>();
  private readonly perAddress = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  /** Connections refused for their address, and connections closed for a deadline (for tests and metrics). */
  refusedForAddress = 0;
  timedOut = 0;

  constructor(
    server: http.Server,
    private readonly limits: ConnectionGuardLimits,
  ) {
    server.on('connection', (socket: Socket) => this.onConnection(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res));
    // A quarter of the shorter deadline, at most a second: a deadline is kept within that much.
    const period = Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
    this.timer = setInterval(() => this.sweep(), period).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private onConnection(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const count = (this.perAddress.get(address) ?? 0) + 1;
    const cap = this.limits.maxConnectionsPerAddress;
    if (cap !== undefined && count > cap) {
      this.refusedForAddress++;
      socket.destroy();
      return;
    }
    this.perAddress.set(address, count);
    this.connections.set(socket, { address, open: 0, idleSince: Date.now(), reading: undefined, readingSince: 0 });
    socket.once('close', () => {
      this.connections.delete(socket);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const state = this.connections.get(req.socket);
    if (state === undefined) return;
    state.open++;
    if (!req.complete) {
      state.reading = req;
      state.readingSince = Date.now();
      // An answer may end before its body does (a 413 while the body is discarded): the connection
      // waits for headers only once the body has ended, and until then the request timeout holds.
      req.once('end', () => {
        if (state.reading !== req) return;
        state.reading = undefined;
        if (state.open === 0) state.idleSince = Date.now();
      });
    }
    res.once('close', () => {
      if (--state.open === 0 && state.reading === undefined) state.idleSince = Date.now();
    });
  }

  private sweep(): void {
    const now = Date.now();
    const { headersTimeoutMs, requestTimeoutMs } = this.limits;
    for (const [socket, state] of this.connections) {
      if (state.reading !== undefined && !state.reading.complete) {
        if (now - state.readingSince < requestTimeoutMs) continue;
      } else if (state.open === 0) {
        if (now - state.idleSince < headersTimeoutMs) continue;
        // No answer is in flight, so a 408 cannot corrupt one.
        if (socket.writable) socket.write(REQUEST_TIMEOUT_RESPONSE);
      } else continue;
      this.timedOut++;
      this.connections.delete(socket);
      socket.destroy();
    }
  }
}
