// What `serve` writes and where: the log on stdout (JSON lines unless asked for pretty ones),
// the development banner on stderr as a block no log line resembles, and production's required
// SERVICE_PUBLIC_URL. Real `switchyard serve` children.
import t, { type Test } from 'tap';
import { binPath, privateDir, runOwned, spawnSwitchyard, waitFor, type ChildRun } from './helpers.js';

/** `switchyard serve` on a fresh data dir, once it is listening; stdout and stderr apart. */
async function serve(t: Test, args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  const run = spawnSwitchyard(t, ['serve', '--data-dir', privateDir(), '--http-addr', '127.0.0.1:0', ...args], {
    SERVICE_LOG_LEVEL: 'info',
    SERVICE_LOG_FORMAT: '',
    NO_COLOR: '',
    ...env,
  });
  await waitFor(
    () => {
      if (run.child.exitCode !== null) throw new Error(`serve exited early:\n${run.stdout()}${run.stderr()}`);
      // The banner, whole: it ends with its closing rule.
      return run.stdout().includes('switchyard listening') && /\n=+\n\n$/.test(run.stderr());
    },
    { what: 'serve to listen' },
  );
  return run;
}

const BANNER = /^\n== switchyard: development mode =+\n[^]*?\n=+\n\n$/;

t.test('a pipe gets JSON lines on stdout; the dev banner and the key go to stderr, as one block', async (t) => {
  const run = await serve(t, ['--dev']);
  const lines = run.stdout().split('\n').filter(Boolean);
  t.ok(lines.length > 3, 'some log lines');
  for (const line of lines) t.doesNotThrow(() => JSON.parse(line), `a JSON line: ${line.slice(0, 60)}`);
  t.notMatch(run.stdout(), /svc_/, 'the key is not in the log');
  const stderr = run.stderr();
  t.match(stderr, BANNER, 'stderr is the banner: between a titled rule and a closing one');
  t.match(stderr, /^Any caller can act as any principal with the X-Principal-Id header\.$/m, 'the development warning');
  t.match(stderr, /^ {2}svc_\w{8}_\S+$/m, 'the key, on the first start');
});

t.test('a later serve --dev names the dev organization and how to make a key', async (t) => {
  const dataDir = privateDir();
  const first = await serve(t, ['--data-dir', dataDir, '--dev']);
  const id = /Development organization `dev` \(([0-9a-f-]{36})\) is ready/.exec(first.stderr())?.[1];
  t.ok(id, 'the first start names it');
  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0);
  const later = await serve(t, ['--data-dir', dataDir, '--dev']);
  t.match(later.stderr(), BANNER);
  t.match(later.stderr(), `Development organization \`dev\` (${id}); its key was shown on the first start only.`);
  t.match(later.stderr(), /^ {2}switchyard key create --org dev --name my-key$/m, 'the command for a new key');
  t.notMatch(later.stderr(), /svc_/, 'no key');
});

t.test('--log-format pretty (or SERVICE_LOG_FORMAT): readable lines, colourless in a pipe', async (t) => {
  for (const [what, args, env] of [
    ['--log-format pretty', ['--log-format', 'pretty'], {}],
    ['SERVICE_LOG_FORMAT=pretty', [], { SERVICE_LOG_FORMAT: 'pretty' }],
  ] as const) {
    const run = await serve(t, [...args], env);
    t.match(run.stdout(), /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: switchyard listening$/m, `${what}: a pretty line`);
    t.notMatch(run.stdout(), /^\{"level"/m, `${what}: no JSON line`);
    t.notMatch(run.stdout(), /\x1b\[/, `${what}: no colour outside a terminal`);
  }
  const json = await serve(t, ['--log-format', 'json'], { SERVICE_LOG_FORMAT: 'pretty' });
  t.match(json.stdout(), /^\{"level":30,.*"msg":"switchyard listening"/m, 'the flag beats the variable');
  const bad = spawnSwitchyard(t, ['serve', '--data-dir', privateDir(), '--log-format', 'xml']);
  t.equal(await bad.exited, 2, 'an unknown format is a usage error');
});

t.test('JSON logs never load pino-pretty', async (t) => {
  const hooks = `export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.includes('pino-pretty')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const child = spawnSwitchyard(t, ['serve', '--data-dir', privateDir(), '--http-addr', '127.0.0.1:0'], {
    SERVICE_LOG_FORMAT: '',
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=data:text/javascript,${encodeURIComponent(register)}`,
  });
  await waitFor(() => child.stdout().includes('switchyard listening'), { what: 'serve to listen' });
  t.notMatch(child.stderr(), /LOADED/, 'not loaded');

  const pretty = spawnSwitchyard(
    t,
    ['serve', '--data-dir', privateDir(), '--http-addr', '127.0.0.1:0', '--log-format', 'pretty'],
    {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=data:text/javascript,${encodeURIComponent(register)}`,
    },
  );
  await waitFor(() => pretty.stdout().includes('switchyard listening'), { what: 'pretty serve to listen' });
  t.match(pretty.stderr(), /LOADED .*pino-pretty/, 'the hook does see it when pretty');
});

t.test('production without SERVICE_PUBLIC_URL: exit 2, one line naming it', async (t) => {
  const { code, stdout, stderr } = await runOwned(
    t,
    process.execPath,
    [binPath, 'serve', '--data-dir', privateDir(), '--http-addr', '127.0.0.1:0'],
    {
      env: {
        ...process.env,
        SERVICE_ENV: 'production',
        SERVICE_SMTP_URL: 'smtp://u:p@127.0.0.1:2525',
        SERVICE_PUBLIC_URL: '',
        SERVICE_LOG_LEVEL: 'info',
      },
    },
  );
  t.equal(code, 2);
  t.equal(stdout, '', 'nothing started, nothing logged');
  t.match(stderr, /^switchyard: invalid configuration: SERVICE_PUBLIC_URL: production needs SERVICE_PUBLIC_URL[^\n]*\n$/);
});
