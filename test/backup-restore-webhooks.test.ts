// Issue 35: a restored backup starts with every webhook paused, so that starting it to look around
// delivers nothing to real receivers; `restore` says so, and `--keep-webhooks-active` leaves them as
// they were. Real daemons and CLI processes; runs on PostgreSQL too (on-postgres-webhooks).
import path from 'node:path';
import t, { type Test } from 'tap';
import { WebhookReceiver } from './fakes/webhook-receiver.js';
import { cliCleanEnv, privateDir, spawnDaemon, spawnSwitchyard, waitFor, withTestEngine, type CliRun } from './helpers.js';

const base = { SERVICE_ENV: 'development', EMAIL_PROVIDER_API_KEY: '', SERVICE_SMTP_URL: '', SERVICE_WEBHOOK_ALLOW_PRIVATE: '1' };

async function run(t: Test, ...args: string[]): Promise<CliRun> {
  const child = spawnSwitchyard(t, args, cliCleanEnv);
  const code = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

async function json(t: Test, ...args: string[]): Promise<any> {
  const r = await run(t, ...args, '--json');
  t.equal(r.code, 0, `${args.slice(2, 4).join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Serves `env`'s store, answers its admin socket's path. */
async function serve(t: Test, env: Record<string, string>) {
  const socket = path.join(env.SERVICE_DATA_DIR, 'admin.sock');
  const daemon = await spawnDaemon(t, ['--grpc-socket', socket], { ...base, ...env });
  return { ...daemon, socket };
}

t.test('restore pauses every webhook unless --keep-webhooks-active, and says so', async (t) => {
  const receiver = await WebhookReceiver.start(t);
  const env = await withTestEngine({ SERVICE_DATA_DIR: privateDir() });
  const first = await serve(t, env);
  const s = ['--socket', first.socket];
  await json(t, ...s, 'org', 'create', 'acme', '--owner-email', 'boss@example.com');
  const hook = await json(t, ...s, 'webhook', 'create', '--org', 'acme', '--url', receiver.url);
  await json(t, ...s, 'org', 'create', 'other', '--owner-email', 'boss@example.com');
  const other = await json(t, ...s, 'webhook', 'create', '--org', 'other', '--url', receiver.url);
  // A platform webhook (no organization) is paused as well.
  const platform = await json(t, ...s, 'webhook', 'create', '--all-organizations', '--url', receiver.url);
  t.equal(platform.all_organizations, true);
  const paused = await json(t, ...s, 'webhook', 'create', '--org', 'acme', '--url', receiver.url, '--paused');
  const file = path.join(privateDir(), 'acme.backup');
  t.equal((await run(t, ...s, 'backup', '--out', file)).code, 0);
  first.child.kill('SIGTERM');
  await first.exited;

  const restoreInto = async (...extra: string[]) => {
    const target = await withTestEngine({ SERVICE_DATA_DIR: path.join(privateDir(), 'restored') });
    const db = target.SERVICE_DATABASE_URL === undefined ? [] : ['--database-url', target.SERVICE_DATABASE_URL];
    const plain = await run(t, 'restore', file, '--data-dir', target.SERVICE_DATA_DIR, ...db, ...extra);
    t.equal(plain.code, 0, plain.stderr);
    return { target, stdout: plain.stdout };
  };

  // By default: the three live webhooks (of two organizations and the platform's) are paused (the paused
  // one stays so), and the output says so.
  const restored = await restoreInto();
  t.match(restored.stdout, /restored \d+ \w+ entries/);
  t.match(
    restored.stdout,
    /paused 3 webhooks, so a daemon started on this copy delivers nothing; `switchyard webhook resume <id>` sends again/,
  );
  const again = await serve(t, restored.target);
  const a = ['--socket', again.socket];
  for (const id of [hook.id, other.id, platform.id, paused.id])
    t.equal((await json(t, ...a, 'webhook', 'show', id)).active, false, `webhook ${id} is paused`);
  const audit = await json(t, ...a, 'audit', 'list', '--org', 'acme', '--action', 'webhook.update');
  t.ok(
    audit.some((r: { actor: unknown; target: { id: string } }) => r.target.id === hook.id),
    'the pause is in the audit log',
  );

  // An event on the restored copy is recorded for the webhook, held, and not sent until resumed.
  await json(t, ...a, 'invite', 'create', '--org', 'acme', '--email', 'new@example.com', '--role', 'member');
  await waitFor(async () => (await json(t, ...a, 'webhook', 'deliveries', hook.id)).length === 1, {
    what: 'the held delivery',
  });
  t.equal(receiver.received.length, 0, 'nothing reached the receiver');
  await json(t, ...a, 'webhook', 'resume', hook.id);
  await waitFor(() => receiver.received.length === 1, { what: 'the delivery once resumed' });
  again.child.kill('SIGTERM');
  await again.exited;

  // --keep-webhooks-active: as they were, and the output says that too.
  const kept = await restoreInto('--keep-webhooks-active');
  t.match(kept.stdout, /webhooks left as they were \(--keep-webhooks-active\)/);
  const third = await serve(t, kept.target);
  const k = ['--socket', third.socket];
  t.equal((await json(t, ...k, 'webhook', 'show', hook.id)).active, true);
  t.equal((await json(t, ...k, 'webhook', 'show', paused.id)).active, false);

  // --json says it in fields.
  const scripted = await run(
    t,
    'restore',
    file,
    '--data-dir',
    path.join(privateDir(), 'fourth'),
    '--json',
    ...(kept.target.SERVICE_DATABASE_URL === undefined
      ? []
      : ['--database-url', (await withTestEngine({})).SERVICE_DATABASE_URL]),
  );
  t.equal(scripted.code, 0, scripted.stderr);
  t.match(JSON.parse(scripted.stdout), { webhooks_paused: 3, webhooks_kept_active: false });
});
