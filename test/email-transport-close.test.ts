// Email transports are closed at shutdown: the email area's close() closes the outbox's transport,
// and the SMTP transport closes after real sends, leaving no connection open.
import { noMetrics } from '../src/metrics.js';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import { createEmail } from '../src/domain/email/index.js';
import { OutboxService } from '../src/domain/email/outbox.js';
import { SecretSealer } from '../src/domain/secret-sealer.js';
import { selectTransport } from '../src/domain/email/transports.js';
import type { EmailTransport, OutgoingMail } from '../src/domain/email/types.js';
import { AuditLog } from '../src/domain/audit/service.js';
import { EventLog } from '../src/domain/events/service.js';
import { createIdentity } from '../src/domain/identity/index.js';
import { createLogger } from '../src/log.js';
import { LevelStorage } from '../src/storage/leveldb/engine.js';
import { testConfig, waitFor } from './helpers.js';

t.test('closing the outbox closes its transport', async (t) => {
  const config = testConfig();
  const log = createLogger('silent');
  const storage = await LevelStorage.open(config.dataDir, log);
  t.teardown(() => storage.close());
  const base = {
    config,
    storage,
    eventLog: new EventLog(storage, log),
    audit: new AuditLog(storage),
    log,
    publicUrl: () => 'http://127.0.0.1:8400',
    metrics: noMetrics,
  };
  const { permissions } = createIdentity(base).services;
  let closed = 0;
  const transport: EmailTransport = {
    name: 'recording',
    send: () => Promise.resolve({ ok: true, providerMessageId: null, statusCode: 200 }),
    close: () => {
      closed++;
      return Promise.resolve();
    },
  };
  const settings = {
    retryDelaysMs: [1000],
    leaseMs: 3000,
    from: { name: 'Switchyard', address: 'no-reply@example.test' },
    publicUrl: () => 'http://127.0.0.1:8400',
  };
  const outbox = new OutboxService(storage, permissions, new SecretSealer(randomBytes(32)), transport, settings, log);
  await outbox.close();
  t.equal(closed, 1, 'the transport is closed');

  const held = new OutboxService(storage, permissions, new SecretSealer(randomBytes(32)), undefined, settings, log);
  await t.resolves(held.close(), 'an outbox without a transport (mail held) closes too');

  const area = await createEmail({ ...base, permissions });
  t.type(area.close, 'function', 'the email area hands the composition root its close()');
  await t.resolves(area.close?.() ?? Promise.reject(new Error('no close')), 'and it closes');
});

t.test('the SMTP transport sends, then closes with no connection left open', async (t) => {
  let open = 0;
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      open++;
      callback();
    },
    onClose() {
      open--;
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.server.address() as AddressInfo).port;

  const transport = selectTransport(
    { smtpUrl: `smtp://127.0.0.1:${port}`, emailProviderBaseUrl: 'https://api.resend.com' },
    5000,
  );
  if (transport === undefined) throw new Error('an SMTP URL selects the SMTP transport');
  t.equal(transport.name, 'smtp');
  const mail = (id: string): OutgoingMail => ({
    id,
    from: { name: 'Switchyard', address: 'no-reply@example.test' },
    to: 'someone@example.test',
    subject: 'Hello',
    html: '<p>Hello</p>',
    text: 'Hello',
  });
  t.match(await transport.send(mail('01')), { ok: true });
  t.match(await transport.send(mail('02')), { ok: true });
  await transport.close();
  await waitFor(() => open === 0, { what: 'every SMTP connection to end' });
  t.equal(received, 2, 'both mails arrived');
  await t.resolves(transport.close(), 'a second close is harmless');
});
