import { randomUUID } from 'node:crypto';
import t from 'tap';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

// Contract 13: the specification's camelCase field names (organizationId, resourceType, resourceId,
// and any field's camelCase spelling) are aliases of the snake_case names in request bodies and
// queries; both spellings with different values are refused; answers stay snake_case; opaque JSON
// the caller owns keeps its keys.

t.test('the spec’s camelCase names work on bodies and queries, and answers stay snake_case', async (t) => {
  const d = await startTestDaemon(t);
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, 'spelled');

  const key = await request(d.url, 'POST', '/v1/api-keys', {
    headers: owner,
    body: { name: 'from the spec', organizationId: org.id, scopes: ['workflows:read'], expiresInSeconds: 3600 },
  });
  t.equal(key.status, 201, JSON.stringify(key.body));
  t.equal(key.body.data.organization_id, org.id);
  t.notOk('organizationId' in key.body.data, 'the answer is snake_case');
  t.ok(key.body.data.expires_at, 'expiresInSeconds was read');

  const listed = await request(d.url, 'GET', `/v1/api-keys?organizationId=${org.id}`, { headers: owner });
  t.equal(listed.status, 200);
  t.same(
    listed.body.data.map((k: { id: string }) => k.id),
    [key.body.data.id],
  );

  const check = await request(d.url, 'POST', '/v1/permissions/check', {
    headers: owner,
    body: { action: 'organization.read', resourceType: 'organization', resourceId: org.id },
  });
  t.equal(check.status, 200, JSON.stringify(check.body));
  t.equal(check.body.data.allowed, true);

  const batch = await request(d.url, 'POST', '/v1/permissions/check-batch', {
    headers: owner,
    body: {
      checks: [
        { action: 'team.create', resourceType: 'organization', resourceId: org.id },
        { action: 'organization.read', resource_type: 'organization', resource_id: randomUUID() },
      ],
    },
  });
  t.equal(batch.status, 200, JSON.stringify(batch.body));
  t.same(
    batch.body.data.results.map((r: { allowed: boolean }) => r.allowed),
    [true, false],
  );
});

t.test('both spellings of one field: the same value is taken, different values are 422 (400 in a query)', async (t) => {
  const d = await startTestDaemon(t);
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, 'twice');
  const other = await createOrganizationAs(d.url, owner, 'twice-other');

  const same = await request(d.url, 'POST', '/v1/api-keys', {
    headers: owner,
    body: { name: 'same', organization_id: org.id, organizationId: org.id },
  });
  t.equal(same.status, 201);

  const clash = await request(d.url, 'POST', '/v1/api-keys', {
    headers: owner,
    body: { name: 'clash', organization_id: org.id, organizationId: other.id },
  });
  t.equal(clash.status, 422);
  t.equal(clash.body.error.code, 'validation_failed');
  t.match(clash.body.error.details.fields, { organizationId: /organization_id/ });

  const nested = await request(d.url, 'POST', '/v1/permissions/check-batch', {
    headers: owner,
    body: { checks: [{ action: 'organization.read', resourceType: 'organization', resource_type: 'team', resourceId: org.id }] },
  });
  t.equal(nested.status, 422);
  t.match(nested.body.error.details.fields, { 'checks.0.resourceType': /resource_type/ });

  const query = await request(d.url, 'GET', `/v1/api-keys?organization_id=${org.id}&organizationId=${other.id}`, {
    headers: owner,
  });
  t.equal(query.status, 400);
  t.equal(query.body.error.code, 'invalid_request');
  t.match(query.body.error.message, 'organizationId');

  const keys = await request(d.url, 'GET', `/v1/api-keys?organization_id=${org.id}`, { headers: owner });
  t.same(
    keys.body.data.map((k: { name: string }) => k.name),
    ['same'],
    'nothing was made by a refused request',
  );
});

t.test('opaque JSON keeps its keys; nested fields of the API take their aliases', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_WEBHOOK_ALLOW_PRIVATE: '1' });
  const owner = asPrincipal(randomUUID());
  const org = await createOrganizationAs(d.url, owner, 'opaque');
  const run = randomUUID();
  const hook = await request(d.url, 'POST', `/v1/organizations/${org.id}/webhooks`, {
    headers: owner,
    body: {
      url: 'http://127.0.0.1:9/hook',
      eventFilter: ['invitation.created'],
      resourceFilter: { workflowRunId: run },
      maxRetries: 2,
      state: { customerId: 'c-1', nested: { camelKey: true, snake_key: 1 } },
    },
  });
  t.equal(hook.status, 201, JSON.stringify(hook.body));
  t.match(hook.body.data, { event_filter: ['invitation.created'], resource_filter: { workflow_run_id: run }, max_retries: 2 });
  t.same(hook.body.data.state, { customerId: 'c-1', nested: { camelKey: true, snake_key: 1 } }, 'state is the caller’s own');
});
