// Issue 33 item 6 ("deeply nested JSON"): about 1,500 levels overflowed the stack (500 on 7 routes), and a
// 1,000-deep state accepted over /v1 broke every reader of it afterwards. One depth limit on every JSON
// body, HTTP and gRPC alike, refused with 422 validation_failed before anything walks or stores it.
import { randomUUID } from 'node:crypto';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import t from 'tap';
import { toValue } from '../src/grpc/json-value.js';
import { adminProtoFiles } from '../src/grpc/proto-files.js';
import { loadProtos } from '../src/grpc/proto.js';
import { socketAddress } from '../src/grpc/socket-path.js';
import { ERROR_CODE_KEY } from '../src/grpc/error-keys.js';
import { assertJsonTextDepth, MAX_JSON_DEPTH } from '../src/json-depth.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, untilStatus } from './helpers.js';

/** A value `levels` objects deep: {"a":{"a":...{}}}. */
function nested(levels: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** The same depth as raw text with arrays, so that nothing in the test recurses over it. */
function nestedText(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

t.test('the text scan counts brackets outside strings only', async (t) => {
  t.doesNotThrow(() => assertJsonTextDepth(nestedText(MAX_JSON_DEPTH)), 'the limit itself passes');
  t.throws(() => assertJsonTextDepth(nestedText(MAX_JSON_DEPTH + 1)), { code: 'validation_failed' });
  t.doesNotThrow(() => assertJsonTextDepth(JSON.stringify({ s: '[[[[{{{{'.repeat(100) })), 'brackets in a string');
  t.doesNotThrow(() => assertJsonTextDepth(JSON.stringify({ s: '\\"[[[['.repeat(100) })), 'escaped quotes in a string');
  t.throws(
    () => assertJsonTextDepth(JSON.stringify({ s: 'ends in a backslash \\', deep: nested(MAX_JSON_DEPTH) })),
    { code: 'validation_failed' },
    'an escaped backslash ends nothing: the quote after it closes the string, and the depth after counts',
  );
});

t.test('a body nested past the limit is 422 on every route, and nothing is stored', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, `deep-${randomUUID().slice(0, 8)}`);
  const define = await request(d.url, 'POST', '/v1/workflows', {
    headers: owner,
    body: {
      organization_id: org.id,
      name: 'flat',
      nodes: [{ key: 'a', kind: 'provider', modality: 'text', input: { prompt: 'hi' } }],
    },
  });
  t.equal(define.status, 201, 'a workflow to run');

  const routes: [string, string, (deep: unknown) => unknown][] = [
    ['POST', `/v1/organizations/${org.id}/webhooks`, (deep) => ({ url: 'http://127.0.0.1:9/hook', state: deep })],
    ['POST', '/v1/jobs', (deep) => ({ organization_id: org.id, modality: 'text', input: { prompt: 'x' }, state: deep })],
    ['POST', '/v1/jobs', (deep) => ({ organization_id: org.id, modality: 'text', input: { prompt: 'x', extra: deep } })],
    ['POST', '/v1/workflows/run?name=flat', (deep) => ({ organization_id: org.id, input: {}, state: deep })],
    [
      'POST',
      '/v1/workflows',
      (deep) => ({ organization_id: org.id, name: 'deep', nodes: [{ key: 'a', kind: 'wait', input: deep }] }),
    ],
    [
      'POST',
      '/v1/providers/execute',
      (deep) => ({ organization_id: org.id, modality: 'text', input: { prompt: 'x' }, params: deep }),
    ],
    ['POST', '/v1/organizations', (deep) => ({ slug: `deep-${randomUUID().slice(0, 8)}`, display_name: deep })],
    ['POST', '/v1/chat/completions', (deep) => ({ model: 'echo', messages: [{ role: 'user', content: deep }] })],
  ];
  for (const [method, path, body] of routes) {
    for (const levels of [MAX_JSON_DEPTH + 1, 1_500, 100_000]) {
      // A body too deep for the test's own JSON.stringify is spliced in as text.
      const raw =
        levels > 10_000
          ? JSON.stringify(body('__DEEP__')).replace('"__DEEP__"', nestedText(levels))
          : JSON.stringify(body(nested(levels)));
      const res = await request(d.url, method, path, {
        headers: { ...owner, 'x-organization-id': org.id, 'content-type': 'application/json' },
        raw,
      });
      t.equal(res.status, 422, `${path}, ${levels} levels`);
      t.equal(res.body.error?.code, 'validation_failed');
    }
  }
  const list = async (path: string) => (await request(d.url, 'GET', path, { headers: owner })).body.data as unknown[];
  t.same(await list(`/v1/organizations/${org.id}/webhooks`), [], 'no webhook stored');
  t.same(await list(`/v1/jobs?organization_id=${org.id}`), [], 'no job stored');
  t.same(await list(`/v1/workflows/runs?organization_id=${org.id}`), [], 'no run stored');
  t.same(
    ((await list(`/v1/workflows?organization_id=${org.id}`)) as { name: string }[]).map((w) => w.name),
    ['flat'],
    'no workflow stored',
  );
  t.same((await list('/v1/organizations')).length, 1, 'no organization stored');

  // Right at the limit is accepted and every reader copes with it.
  const atLimit = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
    headers: owner,
    body: { url: 'http://127.0.0.1:9/hook', state: nested(MAX_JSON_DEPTH - 1) },
  });
  t.equal(atLimit.status, 201, `a body ${MAX_JSON_DEPTH} levels deep is accepted`);
  t.equal((await request(d.url, 'GET', `/v1/webhooks/${atLimit.body.data.id}`, { headers: owner })).status, 200);
});

t.test('gRPC: a JSON value nested past the limit is INVALID_ARGUMENT validation_failed, nothing stored', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1' });
  const definitions = loadProtos(adminProtoFiles());
  const alias = socketAddress(d.grpc.socketPath);
  const client = new Client(`unix:${alias.path}`, credentials.createInsecure());
  t.teardown(() => {
    client.close();
    alias.release();
  });
  const call = (service: string, name: string, req: object) =>
    new Promise<{ error: ServiceError | null; value: any }>((resolve) => {
      const md = (definitions[`switchyard.admin.v1.${service}`] as unknown as Record<string, MethodDefinition<object, object>>)[
        name
      ];
      client.makeUnaryRequest(md.path, md.requestSerialize, md.responseDeserialize, req, new Metadata(), (error, value) =>
        resolve({ error: error ?? null, value }),
      );
    });
  const created = await call('OrganizationService', 'CreateOrganization', {
    slug: 'deep-grpc',
    owner_principal_id: randomUUID(),
  });
  t.equal(created.error, null);
  const org = created.value.organization.id as string;
  for (const [service, name, req] of [
    [
      'WebhookService',
      'CreateWebhook',
      { organization: org, url: 'http://127.0.0.1:9/hook', state: toValue(nested(MAX_JSON_DEPTH + 1)) },
    ],
    [
      'JobService',
      'CreateJob',
      {
        organization: org,
        modality: 'text',
        input: { fields: { prompt: toValue('x') } },
        state: toValue(nested(MAX_JSON_DEPTH + 1)),
      },
    ],
  ] as const) {
    const { error } = await call(service, name, req);
    t.equal(error?.code, status.INVALID_ARGUMENT, `${service}.${name}: ${error?.details}`);
    t.equal(error?.metadata.get(ERROR_CODE_KEY)[0], 'validation_failed');
  }
  t.same((await call('WebhookService', 'ListWebhooks', { organization: org })).value.webhooks, [], 'no webhook stored');

  // The deepest body /v1 accepts is one every gRPC reader (webhook show and list, job list, events) can carry.
  const owner = asPrincipal(randomUUID());
  const member = await call('MemberService', 'AddMember', {
    organization: org,
    principal_id: owner['x-principal-id'],
    role: 'admin',
  });
  t.equal(member.error, null, 'an admin to act over /v1');
  const state = nested(MAX_JSON_DEPTH - 1); // inside a body: MAX_JSON_DEPTH levels in all
  const hook = await request(d.url, 'POST', `/v1/organizations/${org}/webhooks`, {
    headers: owner,
    body: { url: 'http://127.0.0.1:9/hook', state },
  });
  t.equal(hook.status, 201, 'a webhook with the deepest state');
  const job = await request(d.url, 'POST', '/v1/jobs', {
    headers: owner,
    body: { organization_id: org, modality: 'text', model: 'echo', input: { prompt: 'x' }, state },
  });
  t.equal(job.status, 202, 'a job with the deepest state');
  await untilStatus(d.url, `/v1/jobs/${job.body.data.id}`, owner);
  for (const [service, name, req] of [
    ['WebhookService', 'GetWebhook', { id: hook.body.data.id }],
    ['WebhookService', 'ListWebhooks', { organization: org }],
    ['JobService', 'GetJob', { id: job.body.data.id }],
    ['JobService', 'ListJobs', { organization: org }],
    ['EventService', 'ListEvents', { organization: org }],
  ] as const) {
    const { error } = await call(service, name, req);
    t.equal(error, null, `${service}.${name} carries it`);
  }
});
