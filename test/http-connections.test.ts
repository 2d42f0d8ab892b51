// Connections are bounded: a connection that never sends a byte is closed after the headers timeout,
// and past SERVICE_HTTP_MAX_CONNECTIONS a new connection is closed at once while those open keep
// working. Raw sockets only: fetch's pooled connections would count against the cap.
import net from 'node:net';
import t from 'tap';
import http from 'node:http';
import { startTestDaemon, waitFor } from './helpers.js';

class Conn {
  received = '';
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined); // a reset shows as `closed`
  }

  static async open(port: number, localAddress?: string): Promise<Conn> {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
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

/**
 * Mixed traffic until stop(): keep-alive requests, bodies sent a byte at a time, streamed answers
 * read slowly, and connections opened and dropped in bursts.
 */
function serveMixedLoad(port: number): { stop: () => Promise<void>; answered: () => number } {
  let running = true;
  let answered = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const principal = '11111111-1111-4111-8111-111111111111';
  const once = (options: http.RequestOptions, body?: string, slow = false): Promise<void> =>
    new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, ...options }, (res) => {
        res.resume();
        res.on('end', () => {
          answered++;
          resolve();
        });
      });
      req.on('error', () => resolve());
      if (body === undefined) return void req.end();
      if (!slow) return void req.end(body);
      let sent = 0;
      const tick = setInterval(() => {
        if (!running || sent >= body.length) {
          clearInterval(tick);
          req.end();
        } else req.write(body[sent++]);
      }, 20);
    });
  const loop = async (step: () => Promise<void>): Promise<void> => {
    while (running) await step();
  };
  const headers = { 'x-principal-id': principal, 'content-type': 'application/json' };
  const slug = (): string => `load-${Math.random().toString(36).slice(2, 10)}`;
  const burst = async (): Promise<void> => {
    const sockets = Array.from({ length: 10 }, () => net.connect(port, '127.0.0.1').on('error', () => undefined));
    await new Promise((r) => setTimeout(r, 200));
    for (const socket of sockets) socket.destroy();
  };
  const jobs = [
    ...Array.from({ length: 4 }, () => loop(() => once({ path: '/healthz', agent }))),
    ...Array.from({ length: 2 }, () =>
      loop(() => once({ path: '/v1/organizations', agent, headers: { 'x-principal-id': principal } })),
    ),
    ...Array.from({ length: 2 }, () =>
      loop(() => once({ path: '/v1/organizations', method: 'POST', agent, headers }, JSON.stringify({ slug: slug() }))),
    ),
    ...Array.from({ length: 3 }, () =>
      loop(() => {
        const body = JSON.stringify({ slug: slug() });
        return once(
          { path: '/v1/organizations', method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
          body,
          true,
        );
      }),
    ),
    ...Array.from({ length: 2 }, () => loop(() => once({ path: '/openapi.json', agent }))),
    loop(burst),
  ];
  return {
    answered: () => answered,
    stop: async () => {
      running = false;
      await Promise.all(jobs);
      agent.destroy();
    },
  };
}

t.test('a silent connection is closed within the headers timeout while the daemon serves mixed traffic', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_HTTP_HEADERS_TIMEOUT_MS: '1000' });
  const port = portOf(daemon.url);
  const silent: Conn[] = [];
  const load = serveMixedLoad(port);
  t.teardown(() => load.stop());
  await waitFor(() => load.answered() > 20, { what: 'the load to be served' });
  // Several silent connections, opened one after another into the traffic.
  for (let i = 0; i < 5; i++) {
    silent.push(await Conn.open(port));
    await waitFor(() => load.answered() > 20 * (i + 2), { what: 'more of the load to be served' });
  }
  t.teardown(() => silent.forEach((c) => c.destroy()));
  // The bound is generous for a loaded machine; without the connection guard they stay open.
  await waitFor(() => silent.every((c) => c.closed), { timeoutMs: 15_000, what: 'every silent connection to be closed' });
  for (const c of silent) t.match(c.received, /^HTTP\/1\.1 408 /, 'answered 408, then closed');
  const before = load.answered();
  await waitFor(() => load.answered() > before + 10, { what: 'the load to go on being served' });
  await load.stop();
  t.pass('the traffic was served throughout');
});

t.test('a connection that goes silent after an answer is closed too', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_HTTP_HEADERS_TIMEOUT_MS: '300' });
  const conn = await Conn.open(portOf(daemon.url));
  t.teardown(() => conn.destroy());
  t.ok(await conn.healthz(), 'answered');
  // Half a request, then nothing.
  conn.socket.write('GET /healthz HTTP/1.1\r\nHo');
  await waitFor(() => conn.closed, { timeoutMs: 10_000, what: 'the stalled connection to be closed' });
  t.ok(conn.closed);
});

t.test('past the per-address cap a new connection from that address is closed; other addresses are served', async (t) => {
  const daemon = await startTestDaemon(t, { SERVICE_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '2' });
  const port = portOf(daemon.url);
  const first = await Conn.open(port, '127.0.0.1');
  const second = await Conn.open(port, '127.0.0.1');
  t.teardown(() => [first, second].forEach((c) => c.destroy()));
  t.ok(await first.healthz(), 'first connection served');
  t.ok(await second.healthz(), 'second connection served');

  const third = await Conn.open(port, '127.0.0.1');
  t.teardown(() => third.destroy());
  await waitFor(() => third.closed, { timeoutMs: 5000, what: 'the third connection from one address to be closed' });
  t.equal(third.received, '', 'closed without an answer');

  const other = await Conn.open(port, '127.0.0.2');
  t.teardown(() => other.destroy());
  t.ok(await other.healthz(), 'another address is served');
  t.ok(await first.healthz(), 'the open connections keep working');

  first.destroy();
  let fourth: Conn | undefined;
  await waitFor(
    async () => {
      fourth?.destroy();
      fourth = await Conn.open(port, '127.0.0.1');
      return await fourth.healthz();
    },
    { timeoutMs: 5000, what: 'a new connection to be served once one closed' },
  );
  t.teardown(() => fourth?.destroy());
  t.pass('a new connection from that address is served once one closed');
});
