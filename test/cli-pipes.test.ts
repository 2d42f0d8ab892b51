// Issue 35: a command whose reader goes away (`switchyard events tail | head -1`) exits quietly with 0,
// as a Unix filter does: no EPIPE stack trace, no error line.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import t from 'tap';
import { asPrincipal, binPath, cliCleanEnv, request, spawnDaemon, spawnOwned, waitFor } from './helpers.js';

t.test('events tail | head -1 exits 0 and quietly once head is gone', async (t) => {
  const dataDir = t.testdir();
  const socket = path.join(dataDir, 'admin.sock');
  const d = await spawnDaemon(t, ['--grpc-socket', socket], { SERVICE_DATA_DIR: dataDir });
  const owner = randomUUID();
  const org = (await request(d.url, 'POST', '/v1/organizations', { headers: asPrincipal(owner), body: { slug: 'piped' } })).body
    .data;
  // pipefail: the pipeline's status is the tail's, not head's.
  const pipeline = spawnOwned(
    t,
    'bash',
    ['-c', `set -o pipefail; '${process.execPath}' '${binPath}' --socket '${socket}' events tail --org piped --json | head -1`],
    { env: { ...process.env, ...cliCleanEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  pipeline.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  pipeline.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  let code: number | null | undefined;
  pipeline.on('exit', (c) => (code = c));
  // Each invitation commits an event that tail prints: the first reaches head, a later one the closed pipe.
  let n = 0;
  await waitFor(
    async () => {
      if (code !== undefined) return true;
      await request(d.url, 'POST', '/v1/invitations', {
        headers: asPrincipal(owner),
        body: { organization_id: org.id, email: `reader${n++}@example.com`, role: 'member' },
      });
      return code !== undefined;
    },
    { intervalMs: 100, what: 'the pipeline to end' },
  );
  t.equal(code, 0, 'exit 0');
  t.equal(stderr, '', 'nothing on stderr');
  t.equal(stdout.trim().split('\n').length, 1, 'head printed its one line');
});
