// Contract 13 (webhook secrets): a new secret is `whsec_` + base64 of 32 bytes, taken as is by the
// Standard Webhooks verifier (the `standardwebhooks` package) and keying `X-Service-Signature` too
// (checked with @octokit/webhooks-methods); an older hex secret keeps its signatures.
import { randomBytes, randomUUID } from 'node:crypto';
import { verify as verifyGithub } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, waitFor } from './helpers.js';
import { WebhookReceiver, type Received } from './fakes/webhook-receiver.js';

const env = { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1', SERVICE_WEBHOOK_RETRY_BASE_MS: '100' };

async function world(t: Test) {
  const d = await startTestDaemon(t, env);
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `secret-${randomUUID().slice(0, 8)}`);
  const receivers = new Map<string, WebhookReceiver>();
  /** A webhook with a receiver of its own. */
  const create = async (body: Record<string, unknown> = {}) => {
    const receiver = await WebhookReceiver.start(t);
    const res = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
      headers: owner,
      body: { url: receiver.url, event_filter: ['invitation.created'], ...body },
    });
    if (res.status === 201) receivers.set(res.body.data.id as string, receiver);
    return res;
  };
  /** Sends one event and answers what the webhook `hookId`'s receiver got for it. */
  const deliverOne = async (hookId: string): Promise<Received> => {
    const receiver = receivers.get(hookId)!;
    const before = receiver.received.length;
    await request(d.url, 'POST', '/v1/invitations', {
      headers: owner,
      body: { organization_id: org.id, email: `${randomUUID().slice(0, 8)}@example.com`, role: 'member' },
    });
    await waitFor(() => receiver.received.length > before, { what: 'a delivery' });
    return receiver.received.at(-1)!;
  };
  return { d, owner, create, deliverOne };
}

const headersOf = (r: Received) => r.headers as Record<string, string>;

t.test('a new secret verifies both headers as given; standard_secret equals it', async (t) => {
  const w = await world(t);
  const hook = (await w.create()).body.data;
  t.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.equal(Buffer.from(hook.secret.slice(6), 'base64').length, 32, '32 bytes');
  t.equal(hook.standard_secret, hook.secret);
  const r = await w.deliverOne(hook.id);
  t.ok(new StandardWebhook(hook.secret).verify(r.body, headersOf(r)), 'the Standard Webhooks verifier takes it as is');
  t.ok(await verifyGithub(hook.secret, r.body, String(r.headers['x-service-signature'])), 'X-Service-Signature keyed with it');
  t.throws(
    () => new StandardWebhook(`whsec_${randomBytes(32).toString('base64')}`).verify(r.body, headersOf(r)),
    'another secret fails',
  );
});

t.test('a supplied secret: the base64 form, or the older hex form whose signatures stay as they were', async (t) => {
  const w = await world(t);
  const base64 = `whsec_${randomBytes(32).toString('base64')}`;
  const mine = (await w.create({ secret: base64 })).body.data;
  t.equal(mine.secret, base64, 'honoured');
  t.equal(mine.standard_secret, base64);
  const r1 = await w.deliverOne(mine.id);
  t.ok(new StandardWebhook(base64).verify(r1.body, headersOf(r1)));

  const hexBytes = randomBytes(32);
  const hex = `whsec_${hexBytes.toString('hex')}`;
  const old = (await w.create({ secret: hex })).body.data;
  t.equal(old.secret, hex, 'an older secret is kept');
  t.equal(old.standard_secret, `whsec_${hexBytes.toString('base64')}`, 'standard_secret stays for it');
  const r2 = await w.deliverOne(old.id);
  t.ok(
    new StandardWebhook(old.standard_secret).verify(r2.body, headersOf(r2)),
    'webhook-signature over the same bytes as before',
  );
  t.ok(
    await verifyGithub(hex, r2.body, String(r2.headers['x-service-signature'])),
    'X-Service-Signature keyed with the hex string',
  );

  // Rotating an older webhook gives it a new-form secret; during the grace window both verify.
  const rotated = await request(w.d.url, 'POST', `/v1/webhooks/${old.id}/rotate-secret`, {
    headers: w.owner,
    body: { grace_seconds: 600 },
  });
  t.equal(rotated.status, 200);
  t.match(rotated.body.data.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.equal(rotated.body.data.standard_secret, rotated.body.data.secret);
  const r3 = await w.deliverOne(old.id);
  t.ok(new StandardWebhook(rotated.body.data.secret).verify(r3.body, headersOf(r3)), 'the new secret verifies');
  t.ok(new StandardWebhook(old.standard_secret).verify(r3.body, headersOf(r3)), 'the old one too, in its grace window');
  t.ok(await verifyGithub(rotated.body.data.secret, r3.body, String(r3.headers['x-service-signature'])));

  for (const [what, secret] of [
    ['16 bytes of base64', `whsec_${randomBytes(16).toString('base64')}`],
    ['base64 without its padding', `whsec_${randomBytes(32).toString('base64').slice(0, 43)}`],
    ['upper-case hex', `whsec_${'AB'.repeat(32)}`],
    ['no prefix', randomBytes(32).toString('base64')],
  ] as const) {
    const res = await w.create({ secret });
    t.equal(res.status, 422, what);
    t.equal(res.body.error.code, 'validation_failed', what);
  }
});
