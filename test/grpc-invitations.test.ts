// The admin API's invitations, settings and outbox, in-process, as a gRPC client meets them: the
// status codes, the error code text in `error-code` metadata, partial settings updates, and a
// failed mail retried through a fake provider until it is sent.
import { randomUUID } from 'node:crypto';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import t, { type Test } from 'tap';
import { adminProtoFiles } from '../src/grpc/proto-files.js';
import { loadProtos } from '../src/grpc/proto.js';
import { socketAddress } from '../src/grpc/socket-path.js';
import { ERROR_CODE_KEY, ERROR_DETAILS_KEY } from '../src/grpc/error-keys.js';
import type { Daemon } from '../src/main.js';
import { fakeProvider } from './fakes/email-provider.js';
import { startTestDaemon, waitFor } from './helpers.js';

const definitions = loadProtos(adminProtoFiles());

interface Failure {
  code: number;
  /** The `error-code` metadata: the same code text as HTTP. */
  errorCode: string | undefined;
  details: Record<string, any> | undefined;
}

type Call = (service: string, method: string, request: object) => Promise<any>;
type Fail = (service: string, method: string, request: object) => Promise<Failure>;

function rawCall(
  client: Client,
  service: string,
  method: string,
  request: object,
): Promise<{ error: ServiceError | null; value: any }> {
  const md = (definitions[`switchyard.admin.v1.${service}`] as unknown as Record<string, MethodDefinition<object, object>>)[
    method
  ];
  if (md === undefined) throw new TypeError(`no method ${service}.${method}`);
  return new Promise((resolve) => {
    client.makeUnaryRequest(md.path, md.requestSerialize, md.responseDeserialize, request, new Metadata(), (error, value) =>
      resolve({ error: error ?? null, value }),
    );
  });
}

/** `call` answers the response (and fails the test on an error); `fail` answers the error. */
function connect(t: Test, daemon: Daemon): { call: Call; fail: Fail } {
  const alias = socketAddress(daemon.grpc.socketPath);
  const client = new Client(`unix:${alias.path}`, credentials.createInsecure());
  t.teardown(() => {
    client.close();
    alias.release();
  });
  return {
    call: async (service, method, request) => {
      const { error, value } = await rawCall(client, service, method, request);
      if (error !== null) throw new Error(`${service}.${method} failed: ${error.details}`);
      return value;
    },
    fail: async (service, method, request) => {
      const { error } = await rawCall(client, service, method, request);
      if (error === null) throw new Error(`${service}.${method} succeeded; expected an error`);
      const code = error.metadata.get(ERROR_CODE_KEY)[0];
      const details = error.metadata.get(ERROR_DETAILS_KEY)[0];
      return {
        code: error.code,
        errorCode: typeof code === 'string' ? code : undefined,
        details: typeof details === 'string' ? JSON.parse(details) : undefined,
      };
    },
  };
}

async function withOrganization(call: Call, slug = 'acme'): Promise<{ id: string; slug: string }> {
  const { organization } = await call('OrganizationService', 'CreateOrganization', { slug, owner_principal_id: randomUUID() });
  return organization;
}

t.test('invitations: create, read, errors with their codes', async (t) => {
  const daemon = await startTestDaemon(t);
  const { call, fail } = connect(t, daemon);
  const org = await withOrganization(call);

  const created = await call('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: ' New@Example.COM ',
    role: 'member',
  });
  t.match(created, { organization_id: org.id, email: 'new@example.com', role: 'member', status: 'pending', send_count: 1 });
  t.equal(created.created_by, undefined, 'created_by unset: the operator invited');
  t.same(await call('InvitationService', 'GetInvitation', { id: created.id }), created, 'get answers the same message');

  const unknown = await fail('InvitationService', 'GetInvitation', { id: randomUUID() });
  t.same([unknown.code, unknown.errorCode], [status.NOT_FOUND, 'not_found'], 'an unknown invitation: NOT_FOUND');
  const malformed = await fail('InvitationService', 'RevokeInvitation', { id: 'nope' });
  t.same([malformed.code, malformed.errorCode], [status.INVALID_ARGUMENT, 'validation_failed'], 'a malformed id');

  const badEmail = await fail('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: 'not an email',
    role: 'member',
  });
  t.same([badEmail.code, badEmail.errorCode], [status.INVALID_ARGUMENT, 'validation_failed'], 'a bad email: INVALID_ARGUMENT');
  t.match(badEmail.details, { fields: { email: String } }, 'naming the field');
  const badRole = await fail('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: 'x@example.com',
    role: 'king',
  });
  t.match(badRole, { code: status.INVALID_ARGUMENT, details: { fields: { role: String } } });
  const noOrg = await fail('InvitationService', 'CreateInvitation', {
    organization: 'nope',
    email: 'x@example.com',
    role: 'member',
  });
  t.equal(noOrg.code, status.NOT_FOUND, 'an unknown organization');

  const duplicate = await fail('InvitationService', 'CreateInvitation', {
    organization: org.id,
    email: 'NEW@example.com',
    role: 'admin',
  });
  t.same(
    [duplicate.code, duplicate.errorCode],
    [status.ALREADY_EXISTS, 'conflict'],
    'a duplicate pending invitation: ALREADY_EXISTS, conflict',
  );
  t.same(duplicate.details, { invitation_id: created.id }, 'naming the pending one');

  const revoked = await call('InvitationService', 'RevokeInvitation', { id: created.id });
  t.match(revoked, { id: created.id, status: 'revoked', revoked_at: String });
  const again = await fail('InvitationService', 'RevokeInvitation', { id: created.id });
  t.same([again.code, again.errorCode], [status.FAILED_PRECONDITION, 'invalid_state'], 'revoking twice');
  const resendRevoked = await fail('InvitationService', 'ResendInvitation', { id: created.id });
  t.same([resendRevoked.code, resendRevoked.errorCode], [status.FAILED_PRECONDITION, 'invalid_state'], 'resending a revoked one');

  const second = await call('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: 'new@example.com',
    role: 'viewer',
  });
  const resent = await call('InvitationService', 'ResendInvitation', { id: second.id });
  t.equal(resent.send_count, 2, 'resend counts the mail');
  t.not(resent.outbox_entry_id, second.outbox_entry_id, 'with a new outbox entry');

  const all = await call('InvitationService', 'ListInvitations', { organization: 'acme', limit: 1, cursor: '' });
  t.equal(all.invitations.length, 1);
  t.not(all.next_cursor, '', 'paged');
  const rest = await call('InvitationService', 'ListInvitations', { organization: 'acme', limit: 0, cursor: all.next_cursor });
  t.same(
    [...all.invitations, ...rest.invitations].map((i: { id: string }) => i.id),
    [created.id, second.id],
    'oldest first',
  );
  t.equal(rest.next_cursor, '');
  const pending = await call('InvitationService', 'ListInvitations', { organization: 'acme', status: 'pending' });
  t.same(
    pending.invitations.map((i: { id: string }) => i.id),
    [second.id],
    'filtered by status',
  );
  t.equal(
    (await fail('InvitationService', 'ListInvitations', { organization: 'acme', status: 'gone' })).code,
    status.INVALID_ARGUMENT,
    'an unknown status',
  );
});

t.test('settings: defaults, partial update, reset, and the pending limit', async (t) => {
  const daemon = await startTestDaemon(t);
  const { call, fail } = connect(t, daemon);
  const org = await withOrganization(call);

  const defaults = await call('SettingsService', 'GetSettings', { organization: 'acme' });
  t.same(
    { ...defaults },
    {
      organization_id: org.id,
      display_name: 'acme',
      max_pending_invitations: 100,
      max_invitations_per_hour: 20,
      max_concurrent_runs: 4,
      max_workflows: 100,
      max_schedules: 50,
      max_queued_runs: 200,
      max_waiting_runs: 200,
      max_webhooks: 100,
      max_active_jobs: 200,
      run_wait_timeout_seconds: 604800,
    },
    'defaults; logo_url, email_from_name and updated_at unset',
  );

  const branded = await call('SettingsService', 'UpdateSettings', {
    organization: 'acme',
    display_name: ' Acme Inc ',
    logo_url: 'https://example.com/logo.png',
  });
  t.match(branded, {
    display_name: 'Acme Inc',
    logo_url: 'https://example.com/logo.png',
    max_pending_invitations: 100,
    updated_at: String,
  });
  const limited = await call('SettingsService', 'UpdateSettings', { organization: org.id, max_pending_invitations: 2 });
  t.match(
    limited,
    { display_name: 'Acme Inc', logo_url: 'https://example.com/logo.png', max_pending_invitations: 2 },
    'unset fields keep their values',
  );

  const reset = await call('SettingsService', 'UpdateSettings', { organization: 'acme', reset: ['logo_url', 'display_name'] });
  t.equal(reset.display_name, 'acme', 'display_name back to the slug');
  t.equal(reset.logo_url, undefined, 'logo_url back to unset');
  t.equal(reset.max_pending_invitations, 2);

  const empty = await fail('SettingsService', 'UpdateSettings', { organization: 'acme', display_name: '' });
  t.match(
    empty,
    { code: status.INVALID_ARGUMENT, errorCode: 'validation_failed', details: { fields: { display_name: String } } },
    'an empty string is a value, not "unset"',
  );
  const range = await fail('SettingsService', 'UpdateSettings', {
    organization: 'acme',
    max_pending_invitations: 0,
    max_invitations_per_hour: 5000,
  });
  t.match(
    range.details,
    { fields: { max_pending_invitations: String, max_invitations_per_hour: String } },
    'every failing field',
  );
  t.match(await fail('SettingsService', 'UpdateSettings', { organization: 'acme', display_name: 'X', reset: ['display_name'] }), {
    code: status.INVALID_ARGUMENT,
    details: { fields: { reset: /both set and reset/ } },
  });
  t.match(
    await fail('SettingsService', 'UpdateSettings', { organization: 'acme', reset: ['max_pending_invitations'] }),
    { code: status.INVALID_ARGUMENT, details: { fields: { 'reset.0': String } } },
    'limits have no null',
  );
  t.equal((await fail('SettingsService', 'GetSettings', { organization: 'nope' })).code, status.NOT_FOUND);

  await call('InvitationService', 'CreateInvitation', { organization: 'acme', email: 'a@example.com', role: 'member' });
  await call('InvitationService', 'CreateInvitation', { organization: 'acme', email: 'b@example.com', role: 'member' });
  const over = await fail('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: 'c@example.com',
    role: 'member',
  });
  t.same([over.code, over.errorCode], [status.RESOURCE_EXHAUSTED, 'rate_limited'], 'the pending limit: RESOURCE_EXHAUSTED');
  t.match(over.details, { limit: 'max_pending_invitations', max: 2, retry_after_seconds: Number });
});

t.test('outbox: held mail with its link, filters, retry refused without a transport', async (t) => {
  const daemon = await startTestDaemon(t);
  const { call, fail } = connect(t, daemon);
  const org = await withOrganization(call);
  await withOrganization(call, 'other');
  const inv = await call('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: 'held@example.com',
    role: 'member',
  });
  const elsewhere = await call('InvitationService', 'CreateInvitation', {
    organization: 'other',
    email: 'held@example.com',
    role: 'member',
  });

  const entry = await call('OutboxService', 'GetOutboxEntry', { id: inv.outbox_entry_id });
  t.match(entry, {
    id: inv.outbox_entry_id,
    organization_id: org.id,
    invitation_id: inv.id,
    to: 'held@example.com',
    status: 'held',
    attempts: [],
    kind: 'invitation',
  });
  t.match(
    entry.accept_url,
    new RegExp(`^${daemon.url}/v1/invitations/${inv.id}/accept\\?token=[A-Za-z0-9_-]{43}$`),
    'the accept link',
  );

  const all = await call('OutboxService', 'ListOutbox', {});
  t.same(
    all.entries.map((e: { id: string }) => e.id),
    [elsewhere.outbox_entry_id, inv.outbox_entry_id],
    'every organization, newest first',
  );
  const mine = await call('OutboxService', 'ListOutbox', { organization: 'acme', status: 'held' });
  t.same(mine.entries, [entry], 'by organization and status');
  t.same((await call('OutboxService', 'ListOutbox', { status: 'sent' })).entries, [], 'nothing sent');
  t.equal((await fail('OutboxService', 'ListOutbox', { status: 'lost' })).code, status.INVALID_ARGUMENT);
  t.equal((await fail('OutboxService', 'ListOutbox', { organization: 'nope' })).code, status.NOT_FOUND);
  t.equal((await fail('OutboxService', 'GetOutboxEntry', { id: randomUUID() })).code, status.NOT_FOUND);

  const retry = await fail('OutboxService', 'RetryOutboxEntry', { id: entry.id });
  t.same([retry.code, retry.errorCode], [status.FAILED_PRECONDITION, 'invalid_state'], 'no transport: nothing to retry with');
  t.equal((await call('OutboxService', 'GetOutboxEntry', { id: entry.id })).status, 'held', 'still held');
});

t.test('outbox: a failed mail is retried with a fresh budget and sent', async (t) => {
  const fake = await fakeProvider(t);
  fake.setDefault({ kind: 'status', status: 500 });
  const daemon = await startTestDaemon(t, {
    EMAIL_PROVIDER_API_KEY: fake.apiKey,
    EMAIL_PROVIDER_BASE_URL: fake.url,
    SERVICE_OUTBOX_POLL_MS: '50',
    SERVICE_OUTBOX_RETRY_DELAYS_MS: '20',
  });
  const { call, fail } = connect(t, daemon);
  await withOrganization(call);
  const inv = await call('InvitationService', 'CreateInvitation', {
    organization: 'acme',
    email: 'retry@example.com',
    role: 'member',
  });
  const entry = () => call('OutboxService', 'GetOutboxEntry', { id: inv.outbox_entry_id });

  await waitFor(async () => (await entry()).status === 'failed', { what: 'the mail to fail' });
  const failed = await entry();
  t.equal(failed.attempts.length, 2, 'one send and one retry');
  t.match(failed.last_error, /500/);
  t.notOk(failed.accept_url, 'no link outside held mail');
  t.match(failed.attempts[0], { status_code: 500, interrupted: false, error: /500/ });

  fake.setDefault({ kind: 'ok' });
  const retried = await call('OutboxService', 'RetryOutboxEntry', { id: inv.outbox_entry_id });
  t.match(retried, { status: 'pending', retry_base: 2, next_attempt_at: String });
  t.notOk(retried.last_error, 'last_error cleared');
  await waitFor(async () => (await entry()).status === 'sent', { what: 'the retried mail to be sent' });
  const sent = await entry();
  t.equal(sent.attempts.length, 3, 'the history stays');
  t.notOk(sent.attempts[2].error, 'the last attempt succeeded');
  t.equal(fake.sent.length, 1);
  t.same(fake.sent[0].to, ['retry@example.com']);
  const twice = await fail('OutboxService', 'RetryOutboxEntry', { id: inv.outbox_entry_id });
  t.same([twice.code, twice.errorCode], [status.FAILED_PRECONDITION, 'invalid_state'], 'sent mail is not retried');
});
