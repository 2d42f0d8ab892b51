// A PostgreSQL pool with no connection to give is the database being busy, not the daemon failing:
// past SERVICE_DATABASE_CONNECT_TIMEOUT_MS a request answers 503 `unavailable` with Retry-After (gRPC:
// UNAVAILABLE), in the contract's error shape, and succeeds again once connections come free.
// LevelDB has no pool: the file runs on a PostgreSQL database, the suite's (SWITCHYARD_TEST_POSTGRES)
// or a cluster of its own.
import { randomUUID } from 'node:crypto';
import { Client, credentials, status, type ServiceError } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import t, { type Test } from 'tap';
import { adminProtoFiles } from '../src/grpc/proto-files.js';
import { loadProtos } from '../src/grpc/proto.js';
import { socketAddress } from '../src/grpc/socket-path.js';
import { splitPool } from '../src/storage/postgres/engine.js';
import type { Storage } from '../src/storage/port.js';
import { asPrincipal, createOrganizationAs, request, startTestDaemon, testPostgres, waitFor } from './helpers.js';
import { findPostgres, startPostgres } from './support/postgres.js';

const POOL_SIZE = 4;
const CONNECT_TIMEOUT_MS = 300;
const found = findPostgres();

/** A daemon on PostgreSQL with a small pool and a short connect timeout. */
async function daemon(t: Test) {
  const env: Record<string, string> = {
    SERVICE_DATABASE_POOL_SIZE: String(POOL_SIZE),
    SERVICE_DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
  };
  if (testPostgres === undefined) env.SERVICE_DATABASE_URL = (await startPostgres(t)).url;
  const d = await startTestDaemon(t, env);
  t.equal(d.storage.engine, 'postgres');
  return d;
}

/** Holds `count` connections of `storage`'s lane in open transactions until the returned release is called. */
async function hold(storage: Storage, count: number): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let open = 0;
  const holders = Array.from({ length: count }, () =>
    storage.transaction({}, async () => {
      open++;
      await gate;
    }),
  );
  await waitFor(() => open === count, { what: `${count} connections held` });
  return async () => {
    release();
    await Promise.all(holders);
  };
}

/** One unary admin call over the daemon's socket, answering the raw gRPC error. */
async function grpcCall(t: Test, socketPath: string, service: string, method: string, body: object) {
  const alias = socketAddress(socketPath);
  const client = new Client(`unix:${alias.path}`, credentials.createInsecure());
  t.teardown(() => {
    client.close();
    alias.release();
  });
  const definitions = loadProtos(adminProtoFiles());
  const md = (definitions[`switchyard.admin.v1.${service}`] as unknown as Record<string, MethodDefinition<object, object>>)[
    method
  ];
  return new Promise<ServiceError | null>((resolve) =>
    client.makeUnaryRequest(md.path, md.requestSerialize, md.responseDeserialize, body, (error) => resolve(error ?? null)),
  );
}

const skip = testPostgres === undefined && 'missing' in found ? `PostgreSQL only: missing ${found.missing}` : false;

t.test('every request connection held: a write is 503 unavailable with Retry-After, then works again', { skip }, async (t) => {
  const d = await daemon(t);
  const owner = asPrincipal(randomUUID());
  await createOrganizationAs(d.url, owner, `before-${randomUUID().slice(0, 8)}`);
  const release = await hold(d.storage, splitPool(POOL_SIZE).foreground);
  let released = false;
  t.teardown(() => (released ? undefined : release()));

  const started = performance.now();
  const busy = await request(d.url, 'POST', '/v1/organizations', {
    headers: owner,
    body: { slug: `during-${randomUUID().slice(0, 8)}` },
  });
  const waited = performance.now() - started;
  t.equal(busy.status, 503, JSON.stringify(busy.body));
  t.same(busy.body.meta, { status: 503 });
  t.equal(busy.body.error.code, 'unavailable');
  t.match(busy.body.error.message, `no database connection within ${CONNECT_TIMEOUT_MS} ms`);
  t.equal(busy.headers.get('retry-after'), '1');
  t.ok(waited >= CONNECT_TIMEOUT_MS - 50, `it waited the configured timeout (${Math.round(waited)} ms), not the default 10 s`);

  const grpc = await grpcCall(t, d.grpc.socketPath, 'OrganizationService', 'CreateOrganization', {
    slug: `grpc-${randomUUID().slice(0, 8)}`,
  });
  t.equal(grpc?.code, status.UNAVAILABLE, `gRPC answers UNAVAILABLE (${grpc?.details})`);
  t.match(grpc?.details, /^unavailable: storage is busy/);
  t.equal(grpc?.metadata.get('error-code')[0], 'unavailable');

  await release();
  released = true;
  const after = await request(d.url, 'POST', '/v1/organizations', {
    headers: owner,
    body: { slug: `after-${randomUUID().slice(0, 8)}` },
  });
  t.equal(after.status, 201, 'connections free again: the same write succeeds');
});

t.test("every connection held, the loops' too: a read is 503 unavailable", { skip }, async (t) => {
  const d = await daemon(t);
  const owner = asPrincipal(randomUUID());
  await createOrganizationAs(d.url, owner, `reads-${randomUUID().slice(0, 8)}`);
  const { foreground, background } = splitPool(POOL_SIZE);
  const releaseRequests = await hold(d.storage, foreground);
  const releaseLoops = await hold(d.storage.background, background);
  try {
    const busy = await request(d.url, 'GET', '/v1/organizations', { headers: owner });
    t.equal(busy.status, 503, JSON.stringify(busy.body));
    t.equal(busy.body.error.code, 'unavailable');
    t.equal(busy.headers.get('retry-after'), '1');
  } finally {
    await releaseLoops();
    await releaseRequests();
  }
  const listed = await request(d.url, 'GET', '/v1/organizations', { headers: owner });
  t.equal(listed.status, 200);
  t.equal(listed.body.data.length, 1);
});

t.test('a backup read stopped early leaves no connection inside its read-only snapshot', { skip }, async (t) => {
  const d = await daemon(t);
  const owner = asPrincipal(randomUUID());
  await createOrganizationAs(d.url, owner, `backup-${randomUUID().slice(0, 8)}`);
  // A reader that stops after one entry, as a backup does when writing its file fails.
  for await (const entry of d.storage.backupEntries()) {
    t.match(entry, { t: 'meta' }, 'the snapshot began');
    break;
  }
  // The pool hands out the connection released last first: writes that follow get it, or a fresh one.
  const statuses: number[] = [];
  for (let i = 0; i < splitPool(POOL_SIZE).foreground; i++) {
    const created = await request(d.url, 'POST', '/v1/organizations', {
      headers: owner,
      body: { slug: `after-backup-${i}-${randomUUID().slice(0, 8)}` },
    });
    statuses.push(created.status);
  }
  t.same(
    statuses,
    statuses.map(() => 201),
    'every write after it commits',
  );
});
