import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// Every HTTP connection's deadlines, kept here rather than left to Node's connection checker
// (headersTimeout / requestTimeout / connectionsCheckingInterval). That checker sees only the
// connections in a native set ordered by a timestamp that changes while they are in it, and drops a
// connection from the set when it reports it; a silent connection opened on a daemon serving mixed
// traffic was seen still open after 90 s. Here one timer walks a plain Map of every open socket, so
// a deadline holds whatever else the daemon is doing, on every Node version.
//
// A connection is closed for idling only once the daemon has read what already arrived on it. A
// timer runs before the event loop polls the sockets, so on a busy daemon an idle deadline can fall
// due with the client's next request already waiting unread; closing then makes the kernel reset the
// connection, and the client loses a request it sent in good time (undici's fetch, reusing a
// keep-alive connection, saw `read ECONNRESET`). So every close decision is taken again after one
// poll (setImmediate), and a connection the client has written to since its last answer is kept.

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
  /** The socket's bytesRead at idleSince: more since then means the client has begun its next request. */
  idleBytes: number;
  /** The request whose body is being read, and when its headers arrived. */
  reading: IncomingMessage | undefined;
  readingSince: number;
}

const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

function markIdle(socket: Socket, state: ConnectionState): void {
  state.idleSince = Date.now();
  state.idleBytes = socket.bytesRead;
}

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
    // Node's keep-alive timer (server.keepAliveTimeout) ran out. Listening makes Node leave the
    // socket open: closeIdle decides.
    server.on('timeout', (socket: Socket) => this.closeIdle(socket));
    // A quarter of the shorter deadline, at most a second: a deadline is kept within that much.
    const period = Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
    this.timer = setInterval(() => setImmediate(() => this.sweep()), period).unref();
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
    this.connections.set(socket, { address, open: 0, idleSince: Date.now(), idleBytes: 0, reading: undefined, readingSince: 0 });
    socket.once('close', () => {
      this.connections.delete(socket);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const state = this.connections.get(socket);
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
        if (state.open === 0) markIdle(socket, state);
      });
    }
    res.once('close', () => {
      if (--state.open === 0 && state.reading === undefined) markIdle(socket, state);
    });
  }

  /**
   * An idle keep-alive connection's time is up: it is closed (a FIN: nothing unread is left on it)
   * unless, after one poll, a request is open on it or the client has sent a byte since its last
   * answer. Then the request is served, and a silent rest of one is the headers deadline's to close.
   */
  private closeIdle(socket: Socket): void {
    setImmediate(() => {
      const state = this.connections.get(socket);
      if (state === undefined || state.open > 0 || state.reading !== undefined || socket.bytesRead !== state.idleBytes) return;
      this.connections.delete(socket);
      socket.destroy();
    });
  }

  /** Runs one poll after its timer (see the top of this file), so a request that has arrived is open by then. */
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
