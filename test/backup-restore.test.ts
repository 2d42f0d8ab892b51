// Issue 15 item 5: `switchyard backup` takes a consistent snapshot through a running daemon while
// writes go on; `switchyard restore` puts it into an empty data dir (or, for a PostgreSQL backup, an
// empty database); the restored daemon serves every write acknowledged before the backup began, every
// key in it authenticates, and invitations, their mail and events are there. A cut-off file, a
// non-empty target and a file that is not a backup are refused before anything is written.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import {
  asPrincipal,
  bearer,
  cliCleanEnv,
  privateDir,
  request,
  spawnDaemon,
  spawnSwitchyard,
  testPostgres,
  waitFor,
  withTestEngine,
  type ChildDaemon,
} from './helpers.js';

const engine = testPostgres === undefined ? 'LevelDB' : 'PostgreSQL';

interface Written {
  at: number;
  orgId: string;
  owner: string;
  key: string;
}

t.test(`a backup taken under load restores every acknowledged write (${engine})`, async (t) => {
  const dataDir = privateDir();
  const socket = path.join(dataDir, 'admin.sock');
  const env = await withTestEngine({ SERVICE_DATA_DIR: dataDir, SERVICE_ORG_CREATE_PER_HOUR: '100000' });
  const d = await spawnDaemon(t, ['--grpc-socket', socket], env);
  const sy = async (...args: string[]) => {
    const run = spawnSwitchyard(t, args, cliCleanEnv);
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };

  // Before the load: an organization with an invitation (its mail in the outbox, its event in the log).
  const first = randomUUID();
  const org0 = (await request(d.url, 'POST', '/v1/organizations', { headers: asPrincipal(first), body: { slug: 'before' } })).body
    .data;
  const invitation = (
    await request(d.url, 'POST', '/v1/invitations', {
      headers: asPrincipal(first),
      body: { organization_id: org0.id, email: 'kept@example.com', role: 'member' },
    })
  ).body.data;

  // The load: organizations and API keys, four writers, each write recorded once acknowledged.
  const written: Written[] = [];
  let writing = true;
  const writer = async () => {
    while (writing) {
      const owner = randomUUID();
      const org = await request(d.url, 'POST', '/v1/organizations', {
        headers: asPrincipal(owner),
        body: { slug: `o-${owner.slice(0, 12)}` },
      });
      if (org.status !== 201) throw new Error(`create: ${org.status}`);
      const key = await request(d.url, 'POST', '/v1/api-keys', {
        headers: asPrincipal(owner),
        body: { name: 'k', organization_id: org.body.data.id },
      });
      if (key.status !== 201) throw new Error(`key: ${key.status}`);
      written.push({ at: Date.now(), orgId: org.body.data.id, owner, key: key.body.data.raw_key });
    }
  };
  const writers = [writer(), writer(), writer(), writer()];
  await waitFor(() => written.length >= 40, { intervalMs: 10, what: '40 acknowledged writes' });
  // What was acknowledged when the backup began: counted, not compared by time (a write acknowledged in
  // the same millisecond as the backup's start was read as after it, and the test saw 39 of 40).
  const acknowledged = written.length;
  const file = path.join(privateDir(), 'switchyard.backup');
  const backup = await sy('--socket', socket, 'backup', '--out', file);
  writing = false;
  await Promise.all(writers);
  t.equal(backup.code, 0, backup.stderr);
  t.equal(statSync(file).mode & 0o777, 0o600, 'written 0600: it holds secrets');
  const before = written.slice(0, acknowledged);
  t.comment(`${before.length} writes acknowledged before the backup began (${written.length} in all)`);
  t.equal((await sy('--socket', socket, 'backup', '--out', file)).code, 1, 'an existing file is not overwritten');
  d.child.kill('SIGTERM');
  await d.exited;

  // Restore into a new data dir (and, for PostgreSQL, a new empty database), then serve it.
  const restoredDir = path.join(privateDir(), 'restored');
  const target = await withTestEngine({});
  const restore = await sy(
    'restore',
    file,
    '--data-dir',
    restoredDir,
    ...(target.SERVICE_DATABASE_URL === undefined ? [] : ['--database-url', target.SERVICE_DATABASE_URL]),
  );
  t.equal(restore.code, 0, restore.stderr);
  t.match(restore.stdout, /restored \d+ (leveldb|postgres) entries/);
  const again: ChildDaemon = await spawnDaemon(t, [], { ...target, SERVICE_DATA_DIR: restoredDir });
  for (const w of before) {
    const asOwner = await request(again.url, 'GET', `/v1/organizations/${w.orgId}`, { headers: asPrincipal(w.owner) });
    const asKey = await request(again.url, 'GET', `/v1/organizations/${w.orgId}`, { headers: bearer(w.key) });
    if (asOwner.status !== 200 || asKey.status !== 200) t.fail(`write at ${w.at} lost: ${asOwner.status} / ${asKey.status}`);
  }
  t.pass(`all ${before.length} acknowledged writes are served, and every key authenticates`);
  const kept = await request(again.url, 'GET', `/v1/invitations/${String(invitation.id)}`, { headers: asPrincipal(first) });
  t.equal(kept.status, 200);
  t.equal(kept.body.data.email, 'kept@example.com');
  const events = await request(again.url, 'GET', `/v1/organizations/${String(org0.id)}/events`, { headers: asPrincipal(first) });
  t.ok(
    (events.body.data as { kind: string }[]).some((e) => e.kind === 'invitation.created'),
    'its event',
  );
  const created = await request(again.url, 'POST', '/v1/organizations', {
    headers: asPrincipal(randomUUID()),
    body: { slug: 'after' },
  });
  t.equal(created.status, 201, 'the restored daemon takes new writes');

  // Refusals, before anything is written.
  again.child.kill('SIGTERM');
  await again.exited;
  const refused = await sy(
    'restore',
    file,
    '--data-dir',
    restoredDir,
    ...(target.SERVICE_DATABASE_URL === undefined ? [] : ['--database-url', target.SERVICE_DATABASE_URL]),
  );
  t.equal(refused.code, 1);
  t.match(refused.stderr, /already holds data/);
  const lines = readFileSync(file, 'utf8').split('\n');
  const cut = path.join(privateDir(), 'cut.backup');
  writeFileSync(cut, lines.slice(0, Math.floor(lines.length / 2)).join('\n'));
  const fresh = await withTestEngine({});
  const emptyDir = path.join(privateDir(), 'empty');
  const dbArgs = fresh.SERVICE_DATABASE_URL === undefined ? [] : ['--database-url', fresh.SERVICE_DATABASE_URL];
  const cutOff = await sy('restore', cut, '--data-dir', emptyDir, ...dbArgs);
  t.equal(cutOff.code, 1);
  t.match(cutOff.stderr, /incomplete/);
  const bogus = path.join(privateDir(), 'bogus');
  mkdirSync(path.dirname(bogus), { recursive: true });
  writeFileSync(bogus, '{"hello":"world"}\n');
  appendFileSync(bogus, '{"end":true,"entries":0}\n');
  t.match((await sy('restore', bogus, '--data-dir', emptyDir, ...dbArgs)).stderr, /not a Switchyard backup/);
  // The refused restores wrote nothing: the whole backup still goes into that target.
  t.equal((await sy('restore', file, '--data-dir', emptyDir, ...dbArgs)).code, 0);
});
