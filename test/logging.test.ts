// Logs as an operator reads them: one line per request with its id, method, URL and status, and no
// credential anywhere, even at debug level and even when the credential is refused. The daemon's
// stdout log writes what it buffered at exit, and exits even when stdout's reader is gone.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { SignJWT } from 'jose';
import t, { type Test } from 'tap';
import {
  asPrincipal,
  bearer,
  createOrganizationAs,
  PATIENCE_MS,
  request,
  spawnOwned,
  startTestDaemonWithLogs,
} from './helpers.js';

const JWT_SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

t.test('credentials never reach the log; each request is one line with its id and status', async (t) => {
  const { daemon, logs } = await startTestDaemonWithLogs(t, { JWT_SECRET });
  const owner = randomUUID();
  const org = await createOrganizationAs(daemon.url, asPrincipal(owner), 'logged');

  const created = await request(daemon.url, 'POST', '/v1/api-keys', {
    headers: asPrincipal(owner),
    body: { name: 'k', organization_id: org.id },
  });
  t.equal(created.status, 201);
  const rawKey = created.body.data.raw_key as string;
  const wrongKey = `${rawKey.slice(0, 14)}${'x'.repeat(rawKey.length - 14)}`;
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(owner)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));

  t.equal(
    (
      await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, {
        headers: { ...bearer(rawKey), 'x-request-id': 'req-with-key' },
      })
    ).status,
    200,
  );
  t.equal((await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(wrongKey) })).status, 401);
  t.equal((await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(jwt) })).status, 200);
  t.equal((await request(daemon.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(`${jwt}tampered`) })).status, 401);

  const text = logs();
  for (const [what, secret] of [
    ['the raw API key', rawKey],
    ['its secret part', rawKey.slice(14)],
    ['a refused API key', wrongKey],
    ['the JWT', jwt],
    ['the JWT signature', jwt.split('.')[2]],
    ['the JWT secret', JWT_SECRET],
  ] as const) {
    t.notOk(text.includes(secret), `${what} is not logged`);
  }

  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const keyed = lines.filter((l) => l.msg === 'request' && l.request_id === 'req-with-key');
  t.equal(keyed.length, 1, 'one request line, under the id the client sent');
  t.match(keyed[0], { method: 'GET', url: `/v1/organizations/${org.id}`, status: 200, ms: Number });
  t.ok(
    lines.some((l) => l.msg === 'request' && l.status === 401),
    'refused requests are logged too',
  );
});

// The daemon's stdout log (createDaemonLogger): buffered, written at exit however the process exits.
const daemonLogger = new URL('../dist/src/log.js', import.meta.url).href;
/** A node child that makes the daemon's logger, says `ready` on stderr, then on a line on stdin logs one line and exits. */
const logThenExit = `
const { createDaemonLogger } = await import(${JSON.stringify(daemonLogger)});
const log = createDaemonLogger('info');
process.stderr.write('ready\\n');
process.stdin.once('data', () => { log.info({ n: 7 }, 'the last line'); process.exit(0); });
`;

async function startLogChild(t: Test): Promise<ChildProcess> {
  const child = spawnOwned(t, process.execPath, ['--input-type=module', '-e', logThenExit], { stdio: ['pipe', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    child.stderr!.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the log child exited early (${code})`)));
  });
  return child;
}

t.test('a line still buffered when the process exits is written', async (t) => {
  const child = await startLogChild(t);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const closed = once(child, 'close');
  child.stdin!.write('go\n');
  const [code] = (await closed) as [number | null];
  t.equal(code, 0);
  const line = JSON.parse(out.trim().split('\n').at(-1)!);
  t.match(line, { level: 30, msg: 'the last line', n: 7, service: 'switchyard' });
});

t.test('a process whose stdout reader is gone still exits (the exit flush gives up on a broken pipe)', async (t) => {
  const child = await startLogChild(t);
  const exited = once(child, 'exit');
  // The reader closes; the child logs and exits before any write of its own has met the broken pipe.
  child.stdout!.destroy();
  child.stdin!.write('go\n');
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), PATIENCE_MS)));
  const outcome = await Promise.race([exited, hung]);
  clearTimeout(timer);
  t.not(outcome, 'hung', 'exited instead of retrying the write forever');
  t.same(outcome, [0, null], 'exit code 0');
});
