// The daemon as an operator meets it: a real `switchyard serve` child process (bin/ runs dist/, so
// `npm run build` first), its signals, exit codes and the one line it prints when it cannot start.
import { randomUUID } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { fakeProvider } from './fakes/email-provider.js';
import { repoRoot, spawnDaemon, spawnSwitchyard, waitFor, waitForExit, type ChildRun } from './helpers.js';

const pkgVersion = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const STACK_FRAME = /^\s+at /m;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw HTTP/1.1 connection, so that a request can be sent in pieces with signals in between. */
class RawConnection {
  private received = Buffer.alloc(0);
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk])));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined); // a reset shows as `closed` plus whatever arrived before it
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawConnection(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  text(): string {
    return this.received.toString('latin1');
  }

  /** Every complete response received so far, interim (1xx) ones included. */
  responses(): RawResponse[] {
    const out: RawResponse[] = [];
    const buf = this.received;
    let at = 0;
    for (;;) {
      const end = buf.indexOf('\r\n\r\n', at, 'latin1');
      if (end < 0) return out;
      const [statusLine, ...lines] = buf.subarray(at, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1]);
      const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
      if (buf.length < end + 4 + length) return out;
      out.push({ status, headers, body: buf.subarray(end + 4, end + 4 + length).toString('utf8') });
      at = end + 4 + length;
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** True when a new TCP connection to the port is refused (the listener is closed). */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function hasExited(run: { child: ChildRun['child'] }): boolean {
  return run.child.exitCode !== null || run.child.signalCode !== null;
}

/**
 * Starts POST /v1/organizations with `Expect: 100-continue` and waits for the server's `100 Continue`:
 * the daemon has then parsed the headers and its handler is waiting for the body. Returns the
 * connection and the body; the caller writes the body in two halves, with a signal in between.
 */
async function startSlowCreate(port: number, slug: string): Promise<{ conn: RawConnection; body: string }> {
  const body = JSON.stringify({ slug, display_name: `Lifecycle ${slug}` });
  const conn = await RawConnection.open(port);
  conn.write(
    `POST /v1/organizations HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Principal-Id: ${randomUUID()}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await waitFor(() => conn.responses().some((r) => r.status === 100), { what: '100 Continue' });
  return { conn, body };
}

t.test('SIGTERM: the in-flight request completes, new connections are refused, exit 0', async (t) => {
  const daemon = await spawnDaemon(t, [], { SERVICE_DATA_DIR: t.testdir(), SERVICE_SHUTDOWN_TIMEOUT_MS: '15000' });
  const port = portOf(daemon.url);
  const { conn, body } = await startSlowCreate(port, 'sigterm-in-flight');
  t.teardown(() => conn.destroy());
  const half = Math.floor(body.length / 2);
  conn.write(body.slice(0, half));

  daemon.child.kill('SIGTERM');
  await waitFor(() => connectionRefused(port), { what: 'the listener to close after SIGTERM' });
  t.pass('new connections are refused once SIGTERM is received');
  await t.rejects(fetch(`${daemon.url}/healthz`), 'a new request after SIGTERM fails to connect');
  t.ok(!hasExited(daemon), 'the daemon waits for the in-flight request');

  // The rest of the body, then /readyz pipelined on the same connection: it is parsed while stopping.
  conn.write(body.slice(half) + `GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  await waitFor(() => conn.closed, { what: 'the connection to close' });
  const [interim, created, readiness] = conn.responses();
  t.equal(interim?.status, 100);
  t.equal(created?.status, 201, 'the in-flight request gets its normal answer');
  t.match(JSON.parse(created?.body ?? '{}'), { meta: { status: 201 }, data: { slug: 'sigterm-in-flight' } });
  t.equal(readiness?.status, 503, '/readyz answers 503 while stopping');
  t.match(JSON.parse(readiness?.body ?? '{}'), { status: 'not_ready', checks: { accepting: false } });

  t.equal(await daemon.exited, 0, 'exit code 0');
  t.match(daemon.output(), /shutting down/);
  t.notMatch(daemon.output(), STACK_FRAME, 'no stack trace');
});

t.test('a second signal during shutdown forces a non-zero exit, without waiting for the in-flight request', async (t) => {
  // A shutdown timeout far beyond the test's patience: an exit at all is the second signal's doing.
  const daemon = await spawnDaemon(t, [], { SERVICE_DATA_DIR: t.testdir(), SERVICE_SHUTDOWN_TIMEOUT_MS: '3600000' });
  const port = portOf(daemon.url);
  const { conn } = await startSlowCreate(port, 'second-signal');
  t.teardown(() => conn.destroy());

  daemon.child.kill('SIGTERM');
  await waitFor(() => connectionRefused(port), { what: 'shutdown to begin' });
  t.ok(!hasExited(daemon), 'the first signal waits for the in-flight request');

  daemon.child.kill('SIGINT');
  const code = await waitForExit(daemon, 'exit after the second signal');
  t.not(code, 0, 'non-zero exit');
  t.equal(code, 1, 'exit code 1 (not killed by the signal itself)');
  t.match(daemon.output(), /second signal/);
});

t.test('SIGINT: shutdown waits for a stuck request only up to the shutdown timeout', async (t) => {
  const daemon = await spawnDaemon(t, [], { SERVICE_DATA_DIR: t.testdir(), SERVICE_SHUTDOWN_TIMEOUT_MS: '300' });
  const { conn } = await startSlowCreate(portOf(daemon.url), 'stuck-request');
  t.teardown(() => conn.destroy());

  const sent = performance.now();
  daemon.child.kill('SIGINT');
  t.equal(await waitForExit(daemon, 'exit after the shutdown timeout'), 0, 'exit code 0');
  const elapsed = performance.now() - sent;
  // A lower bound only: how much later than 300 ms the exit came depends on the machine's load.
  t.ok(elapsed >= 250, `exited ${Math.round(elapsed)} ms after SIGINT: it waited (timeout 300 ms)`);
  await waitFor(() => conn.closed, { what: 'the stuck connection to be cut' });
  // No answer at all, not even node's 408 for a request that outlives requestTimeout: the shutdown cut it.
  t.same(
    conn.responses().map((r) => r.status),
    [100],
    'the stuck request was cut without an answer',
  );
});

t.test('a second daemon on the same data dir exits 1 with one line', async (t) => {
  const dataDir = t.testdir();
  const first = await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
  const second = spawnSwitchyard(t, ['serve', '--data-dir', dataDir, '--http-addr', '127.0.0.1:0'], {
    SERVICE_LOG_LEVEL: 'info',
  });
  const code = await waitForExit(second, 'the second daemon to exit');

  t.equal(code, 1, 'exit code 1');
  const lines = second.stderr().trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line on stderr');
  t.match(lines[0], dataDir, 'names the data directory');
  t.match(lines[0], /in use/, 'says it is in use');
  t.notMatch(second.stderr(), STACK_FRAME, 'no stack trace');
  t.notMatch(second.stdout(), /switchyard listening/, 'never listened');

  const health = await fetch(`${first.url}/healthz`);
  t.equal(health.status, 200, 'the first daemon is unaffected');
});

t.test('a bad configuration value exits 2 with one line naming the variable', async (t) => {
  const root = t.testdir();
  const cases: Array<[string, string]> = [
    ['SERVICE_HTTP_ADDR', 'nonsense'],
    ['SERVICE_WEBHOOK_TIMEOUT_MS', '-5'],
  ];
  // Both at once: each is a whole node start-up, and they share nothing.
  const runs = cases.map(([variable, value], i) => {
    const dataDir = path.join(root, `data-${i}`);
    return {
      variable,
      value,
      dataDir,
      run: spawnSwitchyard(t, ['serve', '--data-dir', dataDir], { SERVICE_LOG_LEVEL: 'info', [variable]: value }),
    };
  });
  for (const { variable, value, dataDir, run } of runs) {
    const what = `${variable}=${value}`;
    t.equal(await run.exited, 2, `${what}: exit code 2`);
    const lines = run.stderr().trimEnd().split('\n');
    t.equal(lines.length, 1, `${what}: one line on stderr`);
    t.match(lines[0], variable, `${what}: the line names the variable`);
    t.notMatch(run.stderr(), STACK_FRAME, `${what}: no stack trace`);
    t.equal(run.stdout(), '', `${what}: nothing started, not even a log line`);
    t.notOk(existsSync(dataDir), `${what}: nothing started, the data directory was not even created`);
  }
});

t.test('--version and --help', async (t) => {
  const [version, help, serveHelp] = [['--version'], ['--help'], ['serve', '--help']].map((args) => spawnSwitchyard(t, args));
  t.equal(await version.exited, 0);
  t.equal(version.stdout().trim(), pkgVersion, 'prints the package.json version');
  t.equal(await help.exited, 0);
  t.match(help.stdout(), /^\s+serve\b/m, '--help lists serve');
  t.equal(await serveHelp.exited, 0);
  for (const flag of ['--data-dir', '--http-addr', '--grpc-socket', '--dev']) {
    t.match(serveHelp.stdout(), flag, `serve --help lists ${flag}`);
  }
  // serve has its own entry (bin/switchyard.js): a usage error there reads like anywhere else.
  const bad = spawnSwitchyard(t, ['serve', '--no-such-flag']);
  t.equal(await bad.exited, 2, 'a usage error exits 2');
  t.match(bad.stderr(), /unknown option '--no-such-flag'[\s\S]*Usage: switchyard serve/);
});

// How fast it gets there is measured by `npm run bench` ("spawn to /readyz 200", "SIGTERM to exit").
t.test('a fresh start becomes ready (/readyz 200), and an idle stop exits 0', async (t) => {
  const run = spawnSwitchyard(t, ['serve', '--data-dir', t.testdir(), '--http-addr', '127.0.0.1:0'], {
    SERVICE_LOG_LEVEL: 'info',
  });
  let url = '';
  await waitFor(
    async () => {
      if (hasExited(run)) throw new Error(`daemon exited early:\n${run.stdout()}${run.stderr()}`);
      url ||= /"url":"(http:\/\/[^"]+)".*switchyard listening/.exec(run.stdout())?.[1] ?? '';
      if (url === '') return false;
      const res = await fetch(`${url}/readyz`);
      await res.arrayBuffer();
      return res.status === 200;
    },
    { what: '/readyz 200' },
  );
  t.pass('/readyz answered 200');

  run.child.kill('SIGTERM');
  t.equal(await waitForExit(run, 'the idle daemon to stop'), 0, 'exit code 0');
});

t.test('a busy port exits 1 with one line', async (t) => {
  const root = t.testdir();
  const first = await spawnDaemon(t, [], { SERVICE_DATA_DIR: path.join(root, 'a') });
  const addr = `127.0.0.1:${portOf(first.url)}`;
  const second = spawnSwitchyard(t, ['serve', '--data-dir', path.join(root, 'b'), '--http-addr', addr], {
    SERVICE_LOG_LEVEL: 'info',
  });
  t.equal(await second.exited, 1, 'exit code 1');
  const lines = second.stderr().trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line on stderr');
  t.match(lines[0], addr, 'names the address');
  t.match(lines[0], /EADDRINUSE|in use/i, 'says the address is in use');
  t.notMatch(second.stderr(), STACK_FRAME, 'no stack trace');

  // SERVICE_METRICS_ADDR on a taken port: the line names the metrics address, not the HTTP one.
  const third = spawnSwitchyard(t, ['serve', '--data-dir', path.join(root, 'c'), '--http-addr', '127.0.0.1:0'], {
    SERVICE_LOG_LEVEL: 'info',
    SERVICE_METRICS_ADDR: addr,
  });
  t.equal(await third.exited, 1, 'exit code 1');
  t.same(
    third.stderr().trimEnd().split('\n'),
    [`switchyard: cannot listen on ${addr} (SERVICE_METRICS_ADDR, metrics): EADDRINUSE`],
    'one line naming the metrics address',
  );

  const health = await fetch(`${first.url}/healthz`);
  t.equal(health.status, 200, 'the first daemon is unaffected');
});

t.test('SIGTERM while a loop tick hangs (an email send): shutdown is still bounded, exit 0', async (t) => {
  const provider = await fakeProvider(t);
  provider.setDefault({ kind: 'hang' });
  const daemon = await spawnDaemon(t, [], {
    SERVICE_DATA_DIR: t.testdir(),
    SERVICE_SHUTDOWN_TIMEOUT_MS: '300',
    EMAIL_PROVIDER_API_KEY: provider.apiKey,
    EMAIL_PROVIDER_BASE_URL: provider.url,
    SERVICE_OUTBOX_POLL_MS: '50',
  });
  const owner = randomUUID();
  const headers = { 'x-principal-id': owner, 'content-type': 'application/json' };
  const org = await fetch(`${daemon.url}/v1/organizations`, { method: 'POST', headers, body: JSON.stringify({ slug: 'hang' }) });
  const orgId = ((await org.json()) as { data: { id: string } }).data.id;
  const invite = await fetch(`${daemon.url}/v1/invitations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ organization_id: orgId, email: 'a@example.com', role: 'member' }),
  });
  t.equal(invite.status, 201);
  // The send (whose own timeout is 10 s) is now in flight inside the outbox loop's tick.
  await waitFor(() => provider.requests.length > 0, { what: 'the outbox to start sending' });

  daemon.child.kill('SIGTERM');
  t.equal(await waitForExit(daemon, 'exit after SIGTERM'), 0, 'exit code 0');
  // Had the send's own timeout ended the tick first, the loops would have stopped in time, with no
  // such line, and the failed send would be logged.
  t.match(daemon.output(), /did not finish in time/, 'the abandoned tick is logged: shutdown did not wait for the send');
  t.notMatch(daemon.output(), /mail send failed/, 'the hung send never ended before the exit');
});
