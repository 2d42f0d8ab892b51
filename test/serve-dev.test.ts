// `switchyard serve --dev`: a newcomer's first start prints a working key and a curl line to try
// it; every later start on the same data dir prints no key.
import { existsSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { request, spawnDaemon } from './helpers.js';

t.test('the first start prints a working key once; later starts print none', async (t) => {
  const dataDir = t.testdir();
  const first = await spawnDaemon(t, ['--dev'], { SERVICE_DATA_DIR: dataDir });
  const out = first.output();
  const key = /^ {2}(svc_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43,})$/m.exec(out)?.[1];
  if (key === undefined) throw new Error(`no key in the output:\n${out}`);
  t.match(
    out,
    new RegExp(`^ {2}curl -H "Authorization: Bearer ${key}" ${first.url}/v1/organizations$`, 'm'),
    'a ready-to-paste curl line',
  );
  t.equal(out.split(key).length - 1, 2, 'the key appears on its own line and in the curl line, nowhere else (not in the log)');

  const res = await request(first.url, 'GET', '/v1/organizations', { headers: { authorization: `Bearer ${key}` } });
  t.equal(res.status, 200, 'the curl line works');
  t.match(res.body.data, [{ slug: 'dev', display_name: 'Development' }]);

  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'stops cleanly');
  t.notOk(existsSync(path.join(dataDir, 'admin.sock')), 'the admin socket is removed at stop');

  const second = await spawnDaemon(t, ['--dev'], { SERVICE_DATA_DIR: dataDir });
  t.notMatch(second.output(), /svc_/, 'no key on a later start');
  const again = await request(second.url, 'GET', '/v1/organizations', { headers: { authorization: `Bearer ${key}` } });
  t.equal(again.status, 200, 'the first key still works');
  t.equal(again.body.data.length, 1, 'no second dev organization');
});
