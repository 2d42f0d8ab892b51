// Development mode honours X-Principal-Id (any caller may act as anyone), so it stays on this
// machine: a non-loopback HTTP address is refused unless SERVICE_DEV_ALLOW_REMOTE=1, and start-up
// always warns. Listeners bind 0.0.0.0 but the tests only ever connect to 127.0.0.1.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { asPrincipal, request, spawnDaemon, spawnSwitchyard } from './helpers.js';

const STACK_FRAME = /^\s+at /m;
const WARNING = /"level":40.*X-Principal-Id/;

function loopbackUrl(url: string): string {
  return `http://127.0.0.1:${new URL(url).port}`;
}

t.test('development mode on 0.0.0.0 exits 2 with one line', async (t) => {
  const dataDir = t.testdir();
  const run = spawnSwitchyard(t, ['serve', '--data-dir', dataDir, '--http-addr', '0.0.0.0:0'], {
    SERVICE_ENV: '',
    SERVICE_DEV_ALLOW_REMOTE: '',
    SERVICE_LOG_LEVEL: 'info',
  });
  t.equal(await run.exited, 2, 'exit code 2');
  const lines = run.stderr().trimEnd().split('\n');
  t.equal(lines.length, 1, 'one line on stderr');
  t.match(lines[0], 'SERVICE_HTTP_ADDR', 'names the variable');
  t.match(lines[0], '0.0.0.0:0', 'names the address');
  t.match(lines[0], 'SERVICE_DEV_ALLOW_REMOTE=1', 'names the override');
  t.notMatch(run.stderr(), STACK_FRAME, 'no stack trace');
  t.notMatch(run.stdout(), /switchyard listening/, 'never listened');
});

t.test('SERVICE_DEV_ALLOW_REMOTE=1 lets development listen on 0.0.0.0, with the impersonation warning', async (t) => {
  const daemon = await spawnDaemon(t, ['--http-addr', '0.0.0.0:0'], { SERVICE_ENV: '', SERVICE_DEV_ALLOW_REMOTE: '1' });
  const url = loopbackUrl(daemon.url);
  const org = await request(url, 'POST', '/v1/organizations', { headers: asPrincipal(randomUUID()), body: { slug: 'remote' } });
  t.equal(org.status, 201, 'the development header works, as configured');
  const warnings = daemon
    .output()
    .split('\n')
    .filter((line) => WARNING.test(line));
  t.equal(warnings.length, 1, 'one warning that X-Principal-Id impersonation is on');
});

t.test('development on loopback starts and warns once', async (t) => {
  const daemon = await spawnDaemon(t, [], { SERVICE_ENV: 'development' });
  const warnings = daemon
    .output()
    .split('\n')
    .filter((line) => WARNING.test(line));
  t.equal(warnings.length, 1, 'one warning line');
  t.match(warnings[0], /SERVICE_ENV=production/, 'the warning says how to turn it off');
});

t.test('production mode is not affected: it listens on 0.0.0.0 and does not warn', async (t) => {
  const daemon = await spawnDaemon(t, ['--http-addr', '0.0.0.0:0'], {
    SERVICE_ENV: 'production',
    SERVICE_PUBLIC_URL: 'https://switchyard.example.com',
    SERVICE_DEV_ALLOW_REMOTE: '',
    EMAIL_PROVIDER_API_KEY: 're_test_key',
    EMAIL_PROVIDER_BASE_URL: 'http://127.0.0.1:9',
  });
  const health = await request(loopbackUrl(daemon.url), 'GET', '/healthz');
  t.equal(health.status, 200);
  t.notMatch(daemon.output(), WARNING, 'no impersonation warning');
});
