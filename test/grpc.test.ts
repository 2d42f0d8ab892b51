// The gRPC admin API as a client meets it: the socket and its file mode, a stale socket after a
// crash, the token-guarded TCP listener, health, reflection, and errors as gRPC statuses.
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  Client,
  credentials,
  loadPackageDefinition,
  makeClientConstructor,
  Metadata,
  status,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync, type MethodDefinition } from '@grpc/proto-loader';
import { service as healthService } from 'grpc-health-check';
import t, { type Test } from 'tap';
import { createLogger } from '../src/log.js';
import { startDaemon, type Daemon } from '../src/main.js';
import { GrpcStartError } from '../src/grpc/server.js';
import { adminServices } from '../src/grpc/services/index.js';
import { adminProtoFiles } from '../src/grpc/proto-files.js';
import { loadProtos } from '../src/grpc/proto.js';
import { socketAddress } from '../src/grpc/socket-path.js';
import { repoRoot, runOwned, spawnOwned, startTestDaemon, testConfig } from './helpers.js';

const definitions = loadProtos(adminProtoFiles());
const TOKEN = 'test-admin-token-0123456789';

interface Answer {
  error: ServiceError | null;
  value: Record<string, unknown> | undefined;
}

/** A client for a Unix socket (any path length) or host:port; closed at teardown. */
function connect(t: Test, target: { socket: string } | { tcp: string }): Client {
  let address: string;
  if ('socket' in target) {
    const alias = socketAddress(target.socket);
    t.teardown(() => alias.release());
    address = `unix:${alias.path}`;
  } else address = target.tcp;
  const client = new Client(address, credentials.createInsecure());
  t.teardown(() => client.close());
  return client;
}

function call(client: Client, service: string, method: string, request: object, metadata = new Metadata()): Promise<Answer> {
  const md = (definitions[`switchyard.admin.v1.${service}`] as unknown as Record<string, MethodDefinition<object, object>>)[
    method
  ];
  return new Promise((resolve) => {
    client.makeUnaryRequest(md.path, md.requestSerialize, md.responseDeserialize, request, metadata, (error, value) =>
      resolve({ error: error ?? null, value: value as Record<string, unknown> | undefined }),
    );
  });
}

function bearer(token: string): Metadata {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

async function startWith(t: Test, env: Record<string, string> = {}): Promise<Daemon> {
  const config = testConfig(env);
  const daemon = await startDaemon(config, { log: createLogger('silent') });
  t.teardown(() => daemon.stop());
  return daemon;
}

t.test('the socket is 0600, answers without a token, and is removed at stop', async (t) => {
  const config = testConfig();
  const daemon = await startDaemon(config, { log: createLogger('silent') });
  t.teardown(() => daemon.stop());
  t.equal(daemon.grpc.socketPath, config.grpcSocket, 'listens on the configured socket');
  t.equal(statSync(config.grpcSocket).mode & 0o777, 0o600, 'mode 0600');
  t.ok(statSync(config.grpcSocket).isSocket(), 'a socket');
  t.equal(daemon.grpc.tcpAddress, null, 'no TCP listener unless configured');

  const answer = await call(connect(t, { socket: config.grpcSocket }), 'DaemonService', 'GetStatus', {});
  t.equal(answer.error, null, 'no token needed on the socket');
  t.equal(answer.value?.state, 'running');
  t.equal(answer.value?.grpc_socket, config.grpcSocket);

  await daemon.stop();
  t.notOk(existsSync(config.grpcSocket), 'socket file removed after stop');
});

t.test('a deep data dir still gets its socket', async (t) => {
  const dataDir = path.join(t.testdir(), 'a'.repeat(60), 'b'.repeat(60));
  const daemon = await startWith(t, { SERVICE_DATA_DIR: dataDir });
  t.ok(Buffer.byteLength(daemon.grpc.socketPath) > 108, 'longer than a socket address holds');
  t.equal(statSync(daemon.grpc.socketPath).mode & 0o777, 0o600);
  const answer = await call(connect(t, { socket: daemon.grpc.socketPath }), 'DaemonService', 'GetStatus', {});
  t.equal(answer.error, null);
  t.equal(answer.value?.data_dir, dataDir);
});

t.test('stale socket', async (t) => {
  const config = testConfig();
  // A process that dies without closing its listener leaves the socket file behind, as a crash does.
  const crashed = spawnOwned(
    t,
    process.execPath,
    ['-e', "require('net').createServer().listen('admin.sock', () => process.kill(process.pid, 'SIGKILL'))"],
    {
      cwd: path.dirname(config.grpcSocket),
      stdio: 'ignore',
    },
  );
  await once(crashed, 'exit');
  t.ok(statSync(config.grpcSocket).isSocket(), 'a stale socket file is left');

  const daemon = await startDaemon(config, { log: createLogger('silent') });
  t.teardown(() => daemon.stop());
  const answer = await call(connect(t, { socket: config.grpcSocket }), 'DaemonService', 'GetStatus', {});
  t.equal(answer.error, null, 'the daemon replaced it and answers');
  t.equal(statSync(config.grpcSocket).mode & 0o777, 0o600);
});

t.test('live socket', async (t) => {
  const config = testConfig();
  const alias = socketAddress(config.grpcSocket);
  t.teardown(() => alias.release());
  const other = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => other.listen(alias.path, resolve));
  t.teardown(() => new Promise<void>((resolve) => other.close(() => resolve())));

  const err = await startDaemon(config, { log: createLogger('silent') }).then(
    (d) => d.stop().then(() => null),
    (e: unknown) => e,
  );
  t.type(err, GrpcStartError, 'refuses to start');
  t.equal((err as Error).message, `another daemon is listening on ${config.grpcSocket}`);
  t.ok(existsSync(config.grpcSocket), "the other process's socket is left alone");

  // The data dir was released: a daemon on another socket starts on it at once.
  const next = await startDaemon(
    { ...config, grpcSocket: path.join(config.dataDir, 'other.sock') },
    { log: createLogger('silent') },
  );
  await next.stop();
});

t.test('a file that is not a socket is never removed', async (t) => {
  const config = testConfig();
  writeFileSync(config.grpcSocket, 'precious');
  await t.rejects(startDaemon(config, { log: createLogger('silent') }), { name: 'GrpcStartError', message: /is not a socket/ });
  t.equal(readFileSync(config.grpcSocket, 'utf8'), 'precious');
});

t.test('a busy TCP port stops start-up and leaves no socket behind', async (t) => {
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => busy.close(() => resolve())));
  const addr = `127.0.0.1:${(busy.address() as net.AddressInfo).port}`;
  const config = testConfig({ SERVICE_GRPC_ADDR: addr, SERVICE_ADMIN_TOKEN: TOKEN });
  await t.rejects(startDaemon(config, { log: createLogger('silent') }), {
    name: 'GrpcStartError',
    message: `cannot listen on ${addr} (gRPC): `,
  });
  t.notOk(existsSync(config.grpcSocket), 'the socket it had bound is removed');
  const next = await startDaemon({ ...config, grpcAddr: undefined }, { log: createLogger('silent') });
  await next.stop();
  t.pass('the data dir was released');
});

t.test('TCP listener requires the bearer token', async (t) => {
  const daemon = await startWith(t, { SERVICE_GRPC_ADDR: '127.0.0.1:0', SERVICE_ADMIN_TOKEN: TOKEN });
  const tcp = daemon.grpc.tcpAddress!;
  t.match(tcp, /^127\.0\.0\.1:\d+$/, 'bound on 127.0.0.1 with a real port');
  t.not(tcp, '127.0.0.1:0');
  const client = connect(t, { tcp });

  const none = await call(client, 'OrganizationService', 'ListOrganizations', {});
  t.equal(none.error?.code, status.UNAUTHENTICATED, 'no token: UNAUTHENTICATED');
  t.equal(none.error?.metadata.get('error-code')[0], 'unauthenticated');
  const wrong = await call(client, 'OrganizationService', 'ListOrganizations', {}, bearer(`${TOKEN}x`));
  t.equal(wrong.error?.code, status.UNAUTHENTICATED, 'wrong token: UNAUTHENTICATED');
  const basic = new Metadata();
  basic.set('authorization', `Basic ${TOKEN}`);
  t.equal(
    (await call(client, 'OrganizationService', 'ListOrganizations', {}, basic)).error?.code,
    status.UNAUTHENTICATED,
    'not a bearer: UNAUTHENTICATED',
  );

  const ok = await call(client, 'DaemonService', 'GetStatus', {}, bearer(TOKEN));
  t.equal(ok.error, null, 'the token: OK');
  t.equal(ok.value?.grpc_address, tcp, 'status names the TCP address');

  const socket = await call(connect(t, { socket: daemon.grpc.socketPath }), 'DaemonService', 'GetStatus', {});
  t.equal(socket.error, null, 'the socket still needs no token');
});

t.test('health service answers SERVING', async (t) => {
  const daemon = await startTestDaemon(t);
  const alias = socketAddress(daemon.grpc.socketPath);
  t.teardown(() => alias.release());
  const Health = makeClientConstructor(healthService, 'grpc.health.v1.Health');
  const health = new Health(`unix:${alias.path}`, credentials.createInsecure()) as unknown as Client & {
    check: (req: { service: string }, cb: (err: ServiceError | null, res: { status: string }) => void) => void;
  };
  t.teardown(() => health.close());
  const check = (service: string) =>
    new Promise<{ err: ServiceError | null; res: { status: string } | undefined }>((resolve) =>
      health.check({ service }, (err, res) => resolve({ err, res })),
    );
  t.same((await check('')).res, { status: 'SERVING' }, 'the server as a whole');
  t.same((await check('switchyard.admin.v1.OrganizationService')).res, { status: 'SERVING' }, 'a service by name');
  t.equal((await check('no.such.Service')).err?.code, status.NOT_FOUND, 'an unknown service is NOT_FOUND');
});

t.test('reflection lists the services', async (t) => {
  const daemon = await startTestDaemon(t);
  const reflectionProto = path.join(repoRoot, 'node_modules/@grpc/reflection/build/proto');
  const pkg = loadPackageDefinition(
    loadSync('grpc/reflection/v1/reflection.proto', {
      includeDirs: [reflectionProto],
      keepCase: true,
      defaults: true,
      oneofs: true,
    }),
  ) as any;
  const alias = socketAddress(daemon.grpc.socketPath);
  t.teardown(() => alias.release());
  const client = new pkg.grpc.reflection.v1.ServerReflection(`unix:${alias.path}`, credentials.createInsecure());
  t.teardown(() => client.close());
  const stream = client.ServerReflectionInfo();
  stream.write({ list_services: '*' });
  const [response] = (await once(stream, 'data')) as [{ list_services_response: { service: { name: string }[] } }];
  stream.end();
  const names = response.list_services_response.service.map((s) => s.name).sort();
  // Every module of the admin API, so a service added later is covered without editing this test.
  t.ok(adminServices.length >= 9, 'the admin API has its services');
  for (const { serviceName } of adminServices) t.ok(names.includes(serviceName), `lists ${serviceName}`);
  t.ok(names.includes('grpc.health.v1.Health'), 'lists the health service');

  // `grpcurl describe`: the descriptors are built on the first reflection call (grpc/reflection.ts).
  const describe = client.ServerReflectionInfo();
  describe.write({ file_containing_symbol: 'switchyard.admin.v1.OrganizationService' });
  const [described] = (await once(describe, 'data')) as [{ file_descriptor_response?: { file_descriptor_proto: Buffer[] } }];
  describe.end();
  const files = described.file_descriptor_response?.file_descriptor_proto ?? [];
  t.ok(files.length > 0, 'describes the file that declares a service');
  t.ok(
    files.some((file) => file.includes('OrganizationService')),
    'and that file names the service',
  );
});

t.test('AppErrors map to gRPC status codes with the HTTP code text', async (t) => {
  const daemon = await startTestDaemon(t);
  const client = connect(t, { socket: daemon.grpc.socketPath });

  const missing = await call(client, 'OrganizationService', 'GetOrganization', { organization: 'nope' });
  t.equal(missing.error?.code, status.NOT_FOUND, 'unknown org: NOT_FOUND');
  t.equal(missing.error?.details, 'not_found: organization not found', 'details start with the code text');
  t.equal(missing.error?.metadata.get('error-code')[0], 'not_found', 'and error-code metadata carries it');

  t.equal((await call(client, 'OrganizationService', 'CreateOrganization', { slug: 'acme' })).error, null);
  const duplicate = await call(client, 'OrganizationService', 'CreateOrganization', { slug: 'acme' });
  t.equal(duplicate.error?.code, status.ALREADY_EXISTS, 'duplicate slug: ALREADY_EXISTS');
  t.match(duplicate.error?.details, /^conflict: /);

  const bad = await call(client, 'OrganizationService', 'CreateOrganization', { slug: 'Not A Slug!' });
  t.equal(bad.error?.code, status.INVALID_ARGUMENT, 'bad slug: INVALID_ARGUMENT');
  t.equal(bad.error?.metadata.get('error-code')[0], 'validation_failed');
  t.match(bad.error?.details, /^validation_failed: invalid slug: /, 'the message names the field');
  t.match(
    JSON.parse(bad.error?.metadata.get('error-details')[0] as string),
    { fields: { slug: String } },
    'details name every failing field',
  );

  const badKey = await call(client, 'ApiKeyService', 'CreateApiKey', { organization: 'acme', name: 'k', scopes: ['root'] });
  t.equal(badKey.error?.code, status.INVALID_ARGUMENT, 'unknown scope: INVALID_ARGUMENT');
  const lastOwner = await call(client, 'MemberService', 'ListMembers', { organization: 'acme' });
  const owner = (lastOwner.value?.memberships as Array<{ id: string }>)[0];
  const demote = await call(client, 'MemberService', 'UpdateMemberRole', {
    organization: 'acme',
    membership_id: owner.id,
    role: 'viewer',
  });
  t.equal(demote.error?.code, status.FAILED_PRECONDITION, 'the last owner: FAILED_PRECONDITION (invalid_state)');
  t.match(demote.error?.details, /^invalid_state: /);
});

t.test('an unexpected failure is INTERNAL without a stack trace', async (t) => {
  const daemon = await startTestDaemon(t);
  const client = connect(t, { socket: daemon.grpc.socketPath });
  await daemon.storage.close(); // the database goes away under the running daemon
  const answer = await call(client, 'OrganizationService', 'ListOrganizations', {});
  t.equal(answer.error?.code, status.INTERNAL);
  t.equal(answer.error?.details, 'internal: internal error');
  t.notMatch(answer.error?.details, /\n\s+at /, 'no stack trace');
});

t.test('generated types match the protos', async (t) => {
  const out = t.testdir();
  const gen = await runOwned(t, 'npm', ['run', '--silent', 'proto:gen'], {
    cwd: repoRoot,
    env: { ...process.env, PROTO_GEN_OUT_DIR: out },
  });
  if (gen.code !== 0) throw new Error(`npm run proto:gen exited ${gen.code}:\n${gen.stderr}`);
  const list = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  const checkedIn = path.join(repoRoot, 'src/grpc/generated');
  const fresh = list(out);
  t.ok(fresh.length > 10, 'the generator wrote the types');
  t.same(list(checkedIn), fresh, 'the same files (run `npm run proto:gen` after changing a .proto)');
  for (const file of fresh) {
    t.equal(
      readFileSync(path.join(checkedIn, file), 'utf8'),
      readFileSync(path.join(out, file), 'utf8'),
      `${file} is up to date`,
    );
  }
});
