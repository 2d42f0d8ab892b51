// Provider answers are bounded and provider health tells no tenant what another sent (issue 33): an
// error body that never ends is cut after a few KiB, an answer or a stream past
// SERVICE_PROVIDER_MAX_ANSWER_BYTES fails its call cleanly, and a provider's health reason names the
// failure's class and status, never the provider's text (which may echo a tenant's prompt).
import { randomUUID } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';

type Mode = 'endless-error' | 'endless-json' | 'endless-sse' | 'echoing-error';

/** Enough of OpenAI's API: its model list, and chat completions that answer as `mode` says. */
class EndlessUpstream {
  mode: Mode = 'endless-error';
  /** Bytes written to the current chat call, and whether its client went away. */
  written = 0;
  clientGone = false;
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => this.answer(req.url ?? '', body, res));
  });

  static async start(t: Test): Promise<EndlessUpstream> {
    const upstream = new EndlessUpstream();
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => {
      upstream.server.closeAllConnections();
      return new Promise<void>((resolve) => upstream.server.close(() => resolve()));
    });
    return upstream;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  private answer(url: string, body: string, res: ServerResponse): void {
    if (url.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model' }] }));
      return;
    }
    this.written = 0;
    this.clientGone = false;
    res.on('close', () => (this.clientGone = true));
    if (this.mode === 'echoing-error') {
      // A provider that quotes the request in its error, as some do.
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `cannot handle ${body}`, type: 'server_error' } }));
      return;
    }
    const [status, type, head, piece] =
      this.mode === 'endless-error'
        ? [500, 'text/plain', '', 'x'.repeat(64 * 1024)]
        : this.mode === 'endless-json'
          ? [200, 'application/json', '{"choices":[{"message":{"role":"assistant","content":"', 'a'.repeat(64 * 1024)]
          : [
              200,
              'text/event-stream',
              '',
              `data: ${JSON.stringify({ choices: [{ delta: { content: 'a'.repeat(1000) } }] })}\n\n`.repeat(50),
            ];
    res.writeHead(status, { 'content-type': type });
    res.write(head);
    const pump = (): void => {
      while (!res.destroyed && !this.clientGone) {
        this.written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  }
}

async function setUp(t: Test, env: Record<string, string> = {}) {
  const upstream = await EndlessUpstream.start(t);
  const d = await startTestDaemon(t, {
    OPENAI_API_KEY: 'sk-test-bounds',
    OPENAI_BASE_URL: upstream.baseUrl,
    SERVICE_PROVIDER_TIMEOUT_MS: '5000',
    SERVICE_PROVIDER_MAX_ANSWER_BYTES: String(1024 * 1024),
    ...env,
  });
  await waitFor(() => d.services.providers.listProviders().every((p) => p.health.checked_at !== null), { what: 'first probes' });
  const tenant = async () => {
    const headers = asPrincipal(randomUUID());
    const org = await createOrganizationAs(d.url, headers, `b-${randomUUID().slice(0, 8)}`);
    return { headers, org };
  };
  return { upstream, d, tenant };
}

/** Loopback buffers hold a few MiB in flight; an unbounded reader takes everything the upstream sends. */
const IN_FLIGHT = 32 * 1024 * 1024;

t.test('an error body that never ends is cut: the call fails and the connection is dropped', async (t) => {
  const { upstream, d, tenant } = await setUp(t);
  const { headers, org } = await tenant();
  upstream.mode = 'endless-error';
  const answer = await request(d.url, 'POST', '/v1/providers/execute', {
    headers,
    body: { organization_id: org.id, modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } },
  });
  t.ok(answer.status >= 500 && answer.status < 600, `the call fails (${answer.status})`);
  t.notMatch(JSON.stringify(answer.body), /x{3000}/, 'the error text is bounded');
  await waitFor(() => upstream.clientGone, { what: 'the daemon to drop the connection' });
  t.ok(upstream.written < IN_FLIGHT, `the daemon stopped reading (${upstream.written} bytes sent)`);
});

t.test('an answer past the configured bound fails the call with 502', async (t) => {
  const { upstream, d, tenant } = await setUp(t);
  const { headers, org } = await tenant();
  upstream.mode = 'endless-json';
  const answer = await request(d.url, 'POST', '/v1/providers/execute', {
    headers,
    body: { organization_id: org.id, modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } },
  });
  t.equal(answer.status, 502, JSON.stringify(answer.body).slice(0, 300));
  t.match(answer.body.error, { code: 'upstream_error', message: /larger than 1048576 bytes/ });
  await waitFor(() => upstream.clientGone, { what: 'the daemon to drop the connection' });
  t.ok(upstream.written < IN_FLIGHT, `the daemon stopped reading (${upstream.written} bytes sent)`);
});

t.test('a stream past the configured bound ends with an error event', async (t) => {
  const { upstream, d, tenant } = await setUp(t);
  const { headers, org } = await tenant();
  upstream.mode = 'endless-sse';
  const res = await fetch(`${d.url}/v1/providers/execute/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ organization_id: org.id, modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hi' } }),
  });
  t.equal(res.status, 200);
  const text = await res.text();
  t.match(text, /event: error\ndata: .*larger than 1048576 bytes/, 'the stream says why it ended');
  await waitFor(() => upstream.clientGone, { what: 'the daemon to drop the connection' });
  t.ok(upstream.written < IN_FLIGHT, `the daemon stopped reading (${upstream.written} bytes sent)`);
});

t.test("a provider's health reason never carries what a tenant sent", async (t) => {
  const { upstream, d, tenant } = await setUp(t, { SERVICE_PROVIDER_BREAKER_MIN_CALLS: '1' });
  const a = await tenant();
  const b = await tenant();
  upstream.mode = 'echoing-error';
  const secret = `tenant-a-secret-${randomUUID()}`;
  const own = await request(d.url, 'POST', '/v1/providers/execute', {
    headers: a.headers,
    body: { organization_id: a.org.id, modality: 'text', model: 'gpt-4o-mini', input: { prompt: secret } },
  });
  t.ok(own.status >= 500, `tenant A's call fails (${own.status})`);
  t.match(JSON.stringify(own.body), secret, "the provider's words reach the caller whose call it was");

  const listed = await request(d.url, 'GET', '/v1/providers', { headers: b.headers });
  const openai = (listed.body.data as any[]).find((p) => p.name === 'openai');
  t.equal(openai.health.status, 'unhealthy', 'the failure made the provider unhealthy');
  t.equal(openai.health.reason, 'call failed: 500 (1 of 1 calls in 30000 ms)', 'the reason names the status and the rate');
  t.notMatch(JSON.stringify(listed.body), secret, 'the provider list does not show it to tenant B');

  const refused = await request(d.url, 'POST', '/v1/providers/execute', {
    headers: b.headers,
    body: { organization_id: b.org.id, modality: 'text', model: 'gpt-4o-mini', input: { prompt: 'hello' } },
  });
  t.equal(refused.status, 503);
  t.notMatch(JSON.stringify(refused.body), secret, "nor does tenant B's 503");
  t.notMatch(JSON.stringify(refused.body), /cannot handle/, "nor any of the provider's words");
});
