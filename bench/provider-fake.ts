// The OpenAI-compatible upstream of row (10), in a child process of its own (so that neither the
// daemon nor the load generator shares its event loop): POST /v1/chat/completions answers a fixed
// completion, or with `stream: true` STREAM_CHUNKS SSE chunks, a usage chunk and `data: [DONE]`;
// GET /v1/models lists one model (the daemon's health probe). Prints its port on stdout.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Chunks of a streamed answer: the bench's argument (default 200). */
const STREAM_CHUNKS = Number(process.argv[2] ?? 200);

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
});
const models = JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'bench' }] });
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 5, completion_tokens: STREAM_CHUNKS, total_tokens: STREAM_CHUNKS + 5 } })}\n\n`;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(models) }).end(models);
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean };
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) }).end(completion);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // The first piece at once (time to first byte), the rest in one write each.
    for (let i = 0; i < STREAM_CHUNKS; i++) res.write(chunk(`t${i} `));
    res.write(usage);
    res.end('data: [DONE]\n\n');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
