// Connections are bounded: a connection that never sends a byte is closed after the headers timeout,
// and past SERVICE_HTTP_MAX_CONNECTIONS a new connection is closed at once while those open keep
// working. Raw sockets only: fetch's pooled connections would count against the cap.
import net from 'node:net';
import t from 'tap';
import { startTestDaemon, waitFor } from './helpers.js';

class Conn {
  received = '';
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined); // a reset shows as `closed`
  }

  static async open(port: number): Promise<Conn> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new Conn(socket);
  }

  /** Sends GET /healthz on this connection and waits (bounded) for one more 200 answer. */
  async healthz(): Promise<boolean> {
    const before = this.received.split('HTTP/1.1 200').length;
    this.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await waitFor(() => this.closed || this.received.split('HTTP/1.1 200').length > before, {
      timeoutMs: 5000,
      what: 'an answer or a close',
    });
    return this.received.split('HTTP/1.1 200').length > before;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

t.test('a connection that never sends a byte is closed after the headers timeout', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_HTTP_HEADERS_TIMEOUT_MS: '200' });
  const silent = await Conn.open(portOf(daemon.url));
  t.teardown(() => silent.destroy());
  await waitFor(() => silent.closed, { timeoutMs: 10_000, what: 'the silent connection to be closed' });
  t.ok(silent.closed, 'the server closed it');
  t.match(silent.received, /^HTTP\/1\.1 408 /, 'with a 408 answer');

  // A connection that sends its headers promptly is served as usual.
  const prompt = await Conn.open(portOf(daemon.url));
  t.teardown(() => prompt.destroy());
  t.ok(await prompt.healthz(), 'a prompt request is answered');
});

t.test('past the connection cap a new connection is closed; open ones work; after they close, new ones work', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_HTTP_MAX_CONNECTIONS: '2' });
  const port = portOf(daemon.url);
  const first = await Conn.open(port);
  const second = await Conn.open(port);
  t.teardown(() => {
    first.destroy();
    second.destroy();
  });
  t.ok(await first.healthz(), 'first connection served');
  t.ok(await second.healthz(), 'second connection served');

  const third = await Conn.open(port);
  t.teardown(() => third.destroy());
  await waitFor(() => third.closed, { timeoutMs: 5000, what: 'the connection past the cap to be closed' });
  t.equal(third.received, '', 'the connection past the cap was closed without an answer');

  t.ok(await first.healthz(), 'the open connections keep working');
  t.ok(await second.healthz(), 'the open connections keep working');

  first.destroy();
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => daemon.http.server.getConnections((err, count) => resolve(err === null && count < 2))),
    { timeoutMs: 5000, what: 'the server to count the closed connection' },
  );
  const fourth = await Conn.open(port);
  t.teardown(() => fourth.destroy());
  t.ok(await fourth.healthz(), 'a new connection is served once one closed');
});
