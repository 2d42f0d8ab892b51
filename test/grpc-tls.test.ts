// The admin API over TCP can be encrypted: with SERVICE_GRPC_TLS_CERT and _KEY the TCP listener
// speaks TLS, the CLI verifies it with --tls-ca, and a client in clear text is refused. Without TLS,
// a non-loopback TCP listener warns that the admin token travels in clear (bound, never connected to).
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { AdminClient } from '../src/cli/client.js';
import type { DaemonServiceDefinition } from '../src/grpc/generated/switchyard/admin/v1/DaemonService.js';
import { spawnDaemon, spawnSwitchyard, type ChildDaemon, cliCleanEnv } from './helpers.js';

const TOKEN = 'tls-admin-token-0123456789abcdef';
const CLEAR_TEXT_WARNING = /admin token travels in clear text/;

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}
const skip = hasOpenssl() ? false : 'the openssl command is not installed (it makes the test certificate)';

/** A self-signed P-256 certificate for 127.0.0.1 and localhost, valid one day. */
async function selfSigned(dir: string, name: string): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, `${name}.pem`);
  const key = path.join(dir, `${name}.key`);
  await promisify(execFile)(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { timeout: 20_000 },
  );
  return { cert, key };
}

function tcpAddressOf(daemon: ChildDaemon): string {
  const m = /"tcp":"([^"]+)".*gRPC admin API listening/.exec(daemon.output());
  if (m === null) throw new Error(`no TCP listener in the log:\n${daemon.output()}`);
  return m[1];
}

async function cli(t: Test, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnSwitchyard(t, args, cliCleanEnv);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

t.test('TLS on the TCP admin listener: the CLI verifies it with --tls-ca; clear text is refused', { skip }, async (t) => {
  const dir = t.testdir();
  const [server, stranger] = await Promise.all([selfSigned(dir, 'server'), selfSigned(dir, 'stranger')]);
  const daemon = await spawnDaemon(t, ['--grpc-addr', '127.0.0.1:0'], {
    SERVICE_DATA_DIR: path.join(dir, 'data'), // t.testdir() again would empty `dir`
    SERVICE_ADMIN_TOKEN: TOKEN,
    SERVICE_GRPC_TLS_CERT: server.cert,
    SERVICE_GRPC_TLS_KEY: server.key,
  });
  const addr = tcpAddressOf(daemon);
  t.match(daemon.output(), /"tls":true.*gRPC admin API listening/, 'the listener says it serves TLS');
  t.notMatch(daemon.output(), CLEAR_TEXT_WARNING, 'no clear-text warning');

  const created = await cli(t, ['--addr', addr, '--token', TOKEN, '--tls-ca', server.cert, 'org', 'create', 'tls-org', '--json']);
  t.equal(created.code, 0, `the real CLI over TLS works: ${created.stderr}`);
  t.equal(JSON.parse(created.stdout).organization.slug, 'tls-org');

  const wrongToken = await cli(t, [
    '--addr',
    addr,
    '--token',
    `${TOKEN}-wrong`,
    '--tls-ca',
    server.cert,
    'org',
    'list',
    '--json',
  ]);
  t.equal(wrongToken.code, 1, 'TLS does not replace the token');
  t.match(JSON.parse(wrongToken.stderr), { error: { code: 'unauthenticated' } });

  const plainCli = await cli(t, ['--addr', addr, '--token', TOKEN, 'org', 'list', '--json']);
  t.not(plainCli.code, 0, 'the CLI in clear text gets no answer');
  t.match(JSON.parse(plainCli.stderr), { error: { code: 'unavailable', message: /--tls-ca/ } }, 'and is told about --tls-ca');

  const untrusted = await cli(t, ['--addr', addr, '--token', TOKEN, '--tls-ca', stranger.cert, 'org', 'list', '--json']);
  t.not(untrusted.code, 0, 'a certificate the CA file does not vouch for is refused');
  t.match(JSON.parse(untrusted.stderr), { error: { code: 'unavailable' } });

  // A plain (non-TLS) gRPC client, the token in clear: refused before any call is served.
  const plain = new AdminClient({ kind: 'tcp', address: addr, token: TOKEN });
  t.teardown(() => plain.close());
  await t.rejects(
    plain.service<DaemonServiceDefinition>('DaemonService').GetStatus({}),
    { name: 'CliError', code: 'unavailable' },
    'a plain client is refused',
  );
  const secure = new AdminClient({ kind: 'tcp', address: addr, token: TOKEN, tlsCa: server.cert });
  t.teardown(() => secure.close());
  t.ok(await secure.service<DaemonServiceDefinition>('DaemonService').GetStatus({}), 'the same call over TLS is served');
});

t.test('a TCP admin listener without TLS warns when it is not loopback, not when it is', async (t) => {
  const root = t.testdir();
  const [exposed, local] = await Promise.all([
    spawnDaemon(t, ['--grpc-addr', '0.0.0.0:0'], { SERVICE_ADMIN_TOKEN: TOKEN, SERVICE_DATA_DIR: path.join(root, 'a') }),
    spawnDaemon(t, ['--grpc-addr', '127.0.0.1:0'], { SERVICE_ADMIN_TOKEN: TOKEN, SERVICE_DATA_DIR: path.join(root, 'b') }),
  ]);
  const warnings = exposed
    .output()
    .split('\n')
    .filter((line) => CLEAR_TEXT_WARNING.test(line));
  t.equal(warnings.length, 1, 'one warning for 0.0.0.0');
  t.match(warnings[0], /"level":40/, 'at warn level');
  t.match(warnings[0], /SERVICE_GRPC_TLS_CERT/, 'naming the fix');
  t.notMatch(local.output(), CLEAR_TEXT_WARNING, 'none for 127.0.0.1');
});

t.test('an unreadable certificate file stops start-up with one line', { skip }, async (t) => {
  const dir = t.testdir();
  const missing = path.join(dir, 'missing.pem');
  const run = spawnSwitchyard(
    t,
    ['serve', '--data-dir', path.join(dir, 'data'), '--http-addr', '127.0.0.1:0', '--grpc-addr', '127.0.0.1:0'],
    {
      SERVICE_ADMIN_TOKEN: TOKEN,
      SERVICE_GRPC_TLS_CERT: missing,
      SERVICE_GRPC_TLS_KEY: missing,
      SERVICE_LOG_LEVEL: 'info',
    },
  );
  t.equal(await run.exited, 1, 'exit code 1');
  const lines = run.stderr().trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line');
  t.match(lines[0], `SERVICE_GRPC_TLS_CERT ${missing}: ENOENT`);
});
