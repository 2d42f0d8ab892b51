// Issue 33, backups: with SERVICE_BACKUP_KEY set a backup is encrypted and authenticated (AES-256-GCM):
// nothing stored shows in the file, and a restore refuses, before writing anything, a sealed backup
// without the key, with another key, with a byte changed, or cut off; with the key set it refuses a
// clear backup unless told --allow-unencrypted. `backup` leaves a FILE.partial it did not make alone.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { asPrincipal, bearer, cliCleanEnv, privateDir, request, spawnDaemon, spawnSwitchyard } from './helpers.js';

const KEY = 'a-backup-key-kept-apart-from-the-data-0123456789';

t.test('a sealed backup hides its data and restores only when it verifies', async (t) => {
  const dataDir = privateDir();
  const socket = path.join(dataDir, 'admin.sock');
  // The LevelDB engine: the sealing is the daemon's and the same on both engines.
  const d = await spawnDaemon(t, ['--grpc-socket', socket], {
    SERVICE_DATA_DIR: dataDir,
    SERVICE_DATABASE_URL: '',
    SERVICE_BACKUP_KEY: KEY,
  });
  const sy = async (args: string[], env: Record<string, string> = {}) => {
    const run = spawnSwitchyard(t, args, { ...cliCleanEnv, SERVICE_BACKUP_KEY: '', ...env });
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  };
  const owner = randomUUID();
  const org = (
    await request(d.url, 'POST', '/v1/organizations', {
      headers: asPrincipal(owner),
      body: { slug: 'sealed-org', display_name: 'Sealed Display Name' },
    })
  ).body.data;
  const key = (
    await request(d.url, 'POST', '/v1/api-keys', { headers: asPrincipal(owner), body: { name: 'k', organization_id: org.id } })
  ).body.data.raw_key as string;

  const dir = privateDir();
  const file = path.join(dir, 'sealed.backup');
  const made = await sy(['--socket', socket, 'backup', '--out', file]);
  t.equal(made.code, 0, made.stderr);
  t.match(made.stdout, /encrypted and authenticated with SERVICE_BACKUP_KEY/);
  const bytes = readFileSync(file);
  for (const clear of ['sealed-org', 'Sealed Display Name', owner, 'invite_token_key', 'leveldb'])
    t.notOk(bytes.includes(clear), `${clear} is not in the file`);
  d.child.kill('SIGTERM');
  await d.exited;

  const restore = (from: string, into: string, env: Record<string, string>, ...extra: string[]) =>
    sy(['restore', from, '--data-dir', into, ...extra], env);
  const target = path.join(privateDir(), 'restored');
  const withKey = { SERVICE_BACKUP_KEY: KEY };

  const noKey = await restore(file, target, {});
  t.equal(noKey.code, 1);
  t.match(noKey.stderr, /the backup is encrypted: set SERVICE_BACKUP_KEY/);
  const otherKey = await restore(file, target, { SERVICE_BACKUP_KEY: `${KEY}-not-it` });
  t.equal(otherKey.code, 1);
  t.match(otherKey.stderr, /does not verify with SERVICE_BACKUP_KEY/);

  // One byte changed in the middle of the data (a viewer made owner, say) does not verify.
  const tampered = Buffer.from(bytes);
  const middle = tampered.indexOf(0x0a) + 1 + Math.floor((tampered.length - tampered.indexOf(0x0a)) / 2);
  tampered[middle] ^= 0x01;
  const tamperedFile = path.join(dir, 'tampered.backup');
  writeFileSync(tamperedFile, tampered);
  const altered = await restore(tamperedFile, target, withKey);
  t.equal(altered.code, 1);
  t.match(altered.stderr, /does not verify with SERVICE_BACKUP_KEY: it was made with another key, or altered since/);
  // The sealed header is authenticated too.
  const header = bytes.subarray(0, bytes.indexOf(0x0a));
  const otherHeader = Buffer.from(header.toString('utf8').replace('"p":1', '"p":2'));
  const headerFile = path.join(dir, 'header.backup');
  writeFileSync(headerFile, Buffer.concat([otherHeader, bytes.subarray(header.length)]));
  t.match((await restore(headerFile, target, withKey)).stderr, /does not verify/);

  const cutFile = path.join(dir, 'cut.backup');
  writeFileSync(cutFile, bytes.subarray(0, bytes.length - 20));
  const cut = await restore(cutFile, target, withKey);
  t.equal(cut.code, 1);
  t.match(cut.stderr, /incomplete|does not verify/);
  const longFile = path.join(dir, 'long.backup');
  writeFileSync(longFile, Buffer.concat([bytes, Buffer.from('more')]));
  t.match((await restore(longFile, target, withKey)).stderr, /past its end/);

  // With the key set, a clear backup cannot be verified: refused unless told.
  const clearFile = path.join(dir, 'clear.backup');
  writeFileSync(clearFile, '{"format":"switchyard-backup","version":1,"engine":"leveldb"}\n{"end":true,"entries":0}\n');
  const clear = await restore(clearFile, target, withKey);
  t.equal(clear.code, 1);
  t.match(clear.stderr, /not encrypted although SERVICE_BACKUP_KEY is set.*--allow-unencrypted/);

  // Every refusal wrote nothing: the whole backup goes into that target, and serves.
  const ok = await restore(file, target, withKey);
  t.equal(ok.code, 0, ok.stderr);
  t.match(ok.stdout, /restored \d+ leveldb entries/);
  const again = await spawnDaemon(t, [], { SERVICE_DATA_DIR: target, SERVICE_DATABASE_URL: '' });
  const shown = await request(again.url, 'GET', `/v1/organizations/${String(org.id)}`, { headers: bearer(key) });
  t.equal(shown.status, 200);
  t.equal(shown.body.data.slug, 'sealed-org');
});

t.test('backup leaves a FILE.partial it did not make', async (t) => {
  const dataDir = privateDir();
  const socket = path.join(dataDir, 'admin.sock');
  await spawnDaemon(t, ['--grpc-socket', socket], { SERVICE_DATA_DIR: dataDir, SERVICE_DATABASE_URL: '' });
  const dir = privateDir();
  const file = path.join(dir, 'x.backup');
  writeFileSync(`${file}.partial`, 'someone else is writing this');
  const run = spawnSwitchyard(t, ['--socket', socket, 'backup', '--out', file], cliCleanEnv);
  t.equal(await run.exited, 1);
  t.match(run.stderr(), /x\.backup\.partial exists/);
  t.equal(readFileSync(`${file}.partial`, 'utf8'), 'someone else is writing this', 'left as it was');
  t.same(readdirSync(dir), ['x.backup.partial'], 'and no backup written');
  const plain = spawnSwitchyard(t, ['--socket', socket, 'backup', '--out', path.join(dir, 'y.backup')], cliCleanEnv);
  t.equal(await plain.exited, 0);
  t.match(plain.stdout(), /in clear \(set SERVICE_BACKUP_KEY on the daemon to encrypt backups\)/);
});
