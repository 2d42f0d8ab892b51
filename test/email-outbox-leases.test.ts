// Who may take over a mail another daemon instance was sending: on shared storage only once its lease
// has expired (that instance may still be sending), on exclusive storage (LevelDB, one daemon per
// data dir) at once, since that instance was a run that stopped. And a wake-up through the storage
// (another daemon queued mail) runs this daemon's poller.

import { noMetrics } from '../src/metrics.js';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { OutboxService } from '../src/domain/email/outbox.js';
import { SecretSealer } from '../src/domain/secret-sealer.js';
import { OutboxStore } from '../src/domain/email/store.js';
import type { EmailTransport, OutboxEntry } from '../src/domain/email/types.js';
import { AuditLog } from '../src/domain/audit/service.js';
import { EventLog } from '../src/domain/events/service.js';
import { createIdentity } from '../src/domain/identity/index.js';
import { createLogger } from '../src/log.js';
import { newId } from '../src/storage/keys.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import type { Storage } from '../src/storage/port.js';
import { startTestDaemon, testConfig, waitFor } from './helpers.js';

const silent = createLogger('silent');

/** A mail another instance claimed at `claimedAt` with a lease until `leaseUntil`. */
function leasedEntry(sealer: SecretSealer, claimedAt: number, leaseUntil: number): OutboxEntry {
  const id = newId();
  const at = new Date(claimedAt).toISOString();
  return {
    id,
    organization_id: newId(),
    kind: 'invitation',
    to: 'someone@example.com',
    data: {
      invitation_id: newId(),
      organization_display_name: 'Acme',
      logo_url: null,
      from_name: null,
      role: 'member',
      expires_at: new Date(claimedAt + 86_400_000).toISOString(),
      ttl_ms: 86_400_000,
    },
    token_sealed: sealer.seal(randomBytes(32).toString('base64url'), id),
    status: 'sending',
    attempts: [],
    retry_base: 0,
    next_attempt_at: null,
    lease_owner: 'another-instance',
    lease_until: new Date(leaseUntil).toISOString(),
    provider_message_id: null,
    last_error: null,
    created_at: at,
    updated_at: at,
    sent_at: null,
  };
}

t.test('a lease of another instance: taken over once expired on shared storage, at once on exclusive storage', async (t) => {
  const config = testConfig();
  const level = await LevelStorage.open(config.dataDir, silent);
  t.teardown(() => level.close());
  // The same data seen as storage several daemons share (PostgreSQL): nothing says the lease holder died.
  const shared = Object.create(level, { exclusive: { value: false } }) as Storage;
  t.equal(level.exclusive, true, 'LevelDB is exclusive');

  const { permissions } = createIdentity({
    config,
    storage: level,
    eventLog: new EventLog(level, silent),
    audit: new AuditLog(level),
    log: silent,
    publicUrl: () => 'http://127.0.0.1:8400',
    metrics: noMetrics,
  }).services;
  const sent: string[] = [];
  const transport: EmailTransport = {
    name: 'recording',
    send: (mail) => {
      sent.push(mail.id);
      return Promise.resolve({ ok: true, providerMessageId: null, statusCode: 200 });
    },
    close: () => Promise.resolve(),
  };
  const sealer = new SecretSealer(randomBytes(32));
  const settings = {
    retryDelaysMs: [1000],
    leaseMs: 30_000,
    from: { name: 'Switchyard', address: 'no-reply@example.test' },
    publicUrl: () => 'http://127.0.0.1:8400',
  };
  const outboxOn = (storage: Storage) => new OutboxService(storage, permissions, sealer, transport, settings, silent);
  const entries = new OutboxStore(level).entries;

  const now = Date.now();
  const live = leasedEntry(sealer, now - 1000, now + 60_000);
  const expired = leasedEntry(sealer, now - 60_000, now - 1000);
  await level.transaction({}, async (tx) => {
    await tx.put(entries, live);
    await tx.put(entries, expired);
  });

  await outboxOn(shared).sendDueMail();
  t.same(sent, [expired.id], 'shared storage: only the expired lease is taken over');
  t.match(await entries.get(live.id), { status: 'sending', lease_owner: 'another-instance' }, 'the live lease is left alone');
  const resent = (await entries.get(expired.id))!;
  t.equal(resent.status, 'sent');
  t.same(
    resent.attempts.map((a) => a.interrupted === true),
    [true, false],
    'the interrupted send is on record, then the one that went out',
  );

  await outboxOn(level).sendDueMail();
  t.same(sent, [expired.id, live.id], 'exclusive storage: another instance was a previous run, taken over at once');
  t.match(await entries.get(live.id), { status: 'sent', lease_owner: null });
});

t.test("a wake-up through the storage (another daemon queued mail) runs this daemon's poller", async (t) => {
  // A poll period far longer than the test: only a wake-up runs the poller again.
  const d = await startTestDaemon(t, { SERVICE_OUTBOX_POLL_MS: '600000' });
  const runs = () => d.loops.status().find((l) => l.name === 'email-outbox')!.runs;
  await waitFor(() => runs() === 1, { what: 'the first poll, at start' });
  await d.storage.transaction({}, (tx) => {
    tx.wake('outbox');
    return Promise.resolve();
  });
  await waitFor(() => runs() === 2, { what: 'the poll the wake-up asks for' });
  t.pass('woken');
});
