// Row (10)'s floor: the least a Node process can do to pass a call on to the same upstream, in a
// child process of its own like the daemon. node:http in front, an undici keep-alive pool behind; each
// POST's JSON is read, turned into a chat completion request, sent, and the upstream's JSON answer
// read and written back. No authentication, validation, routing, usage record or log: what is left is
// the work any translating gateway must do per call (two HTTP exchanges and four JSON passes). Its
// ratio to the straight run is the highest row (10)'s daemon could reach on this machine.
// Argument: the upstream's base URL (…/v1). Prints its port on stdout.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const upstream = new URL(process.argv[2] ?? '');
const pool = new Pool(upstream.origin, { connections: 128 });
const completions = `${upstream.pathname.replace(/\/$/, '')}/chat/completions`;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      // An execute body ({input: {prompt}}) or a chat completion's ({messages}): the same call upstream.
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        input?: { prompt?: string };
        messages?: { content?: string }[];
      };
      const answer = await pool.request({
        method: 'POST',
        path: completions,
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-upstream' },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: input.input?.prompt ?? input.messages?.[0]?.content ?? '' }],
        }),
      });
      const completion = (await answer.body.json()) as { choices: { message: { content: string } }[] };
      const text = JSON.stringify({ data: { output: { text: completion.choices[0].message.content } } });
      res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    })().catch((err: unknown) => {
      res.writeHead(502).end(String(err));
    });
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => void pool.close().then(() => process.exit(0))));
