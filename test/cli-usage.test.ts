// The CLI's own conventions, as a user types them: required flags marked in --help, and
// --expires-in's units (s m h d w y, years on the calendar).
import path from 'node:path';
import t, { type Test } from 'tap';
import { cliCleanEnv, privateDir, spawnDaemon, spawnSwitchyard, type CliRun } from './helpers.js';

async function run(t: Test, args: string[]): Promise<CliRun> {
  const child = spawnSwitchyard(t, args, cliCleanEnv);
  const code = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

t.test('--help marks the flags a command cannot run without', async (t) => {
  const help = await run(t, ['key', 'create', '--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /^ {2}--org <org> +organization id or slug \(required\)$/m);
  t.match(help.stdout, /^ {2}--name <name> +what the key is for \(required\)$/m);
  t.notMatch(help.stdout, /--principal <uuid>.*\(required\)/, 'optional flags are not marked');
  t.match(help.stdout, /s\s+m\s+h\s+d\s+w\s+or\s+y\s+\(calendar\s+years\)/, '--expires-in documents its units');
  const grant = await run(t, ['grant', 'create', '--help']);
  for (const flag of ['--org', '--principal', '--action', '--resource-type', '--resource-id'])
    t.match(grant.stdout, new RegExp(`^ {2}${flag} <[^>]+> +.*\\(required\\)$`, 'm'), `grant create ${flag}`);
  const member = await run(t, ['member', 'add', '--help']);
  t.match(member.stdout, /--role <role>\s+role \(choices: [^)]*\)\s+\(required\)/, 'after the choices');
});

t.test('--expires-in: s m h d w y, years on the calendar', async (t) => {
  const dataDir = privateDir();
  await spawnDaemon(t, [], { SERVICE_DATA_DIR: dataDir });
  const sy = (...args: string[]) => run(t, ['--socket', path.join(dataDir, 'admin.sock'), ...args]);
  t.equal((await sy('org', 'create', 'acme')).code, 0);

  const expiry = async (text: string): Promise<{ before: Date; after: Date; expiresAt: Date }> => {
    const before = new Date();
    const created = await sy('key', 'create', '--org', 'acme', '--name', `k-${text}`, '--expires-in', text, '--json');
    const after = new Date();
    t.equal(created.code, 0, `--expires-in ${text}`);
    return { before, after, expiresAt: new Date(JSON.parse(created.stdout).expires_at) };
  };
  for (const [text, seconds] of [
    ['90', 90],
    ['90s', 90],
    ['2m', 120],
    ['3h', 3 * 3600],
    ['4d', 4 * 86_400],
    ['2w', 14 * 86_400],
  ] as const) {
    const { before, after, expiresAt } = await expiry(text);
    t.ok(
      expiresAt.getTime() >= before.getTime() + seconds * 1000 - 1000 && expiresAt.getTime() <= after.getTime() + seconds * 1000,
      `${text} is ${seconds} s`,
    );
  }
  for (const years of [1, 4, 10]) {
    const { before, after, expiresAt } = await expiry(`${years}y`);
    // The same date and time of day, `years` later: as read before the call, or after it.
    const window = [before, after].map((d) => {
      const later = new Date(d);
      later.setUTCFullYear(d.getUTCFullYear() + years);
      return later.getTime();
    });
    t.ok(
      expiresAt.getTime() >= window[0] - 1000 && expiresAt.getTime() <= window[1],
      `${years}y: the same date ${years} years on`,
    );
    t.equal(expiresAt.toISOString().slice(5, 10), before.toISOString().slice(5, 10), `${years}y: same month and day`);
  }

  const bad = await sy('key', 'create', '--org', 'acme', '--name', 'k', '--expires-in', '1mo');
  t.equal(bad.code, 2, 'an unknown unit is a usage error');
  t.match(bad.stderr, /expected a duration such as 30d, 12h, 90m, 3600s, 2w or 1y/);
});

t.test("workflow output --expires-in 2d is refused in the flag's words, before any call", async (t) => {
  const refused = await run(t, [
    '--socket',
    path.join(privateDir(), 'none.sock'),
    'workflow',
    'output',
    'r1',
    '--expires-in',
    '2d',
  ]);
  t.equal(refused.code, 2, 'a usage error');
  t.match(refused.stderr, /--expires-in/);
  t.match(refused.stderr, /24h \(1d\) at most/);
  t.notMatch(refused.stderr, /expires_in|86400/, "not in the API's words");
});
