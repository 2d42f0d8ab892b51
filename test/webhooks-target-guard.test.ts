// The webhook target guard: every address range is named, URLs are checked when saved, and the delivery
// dispatcher refuses loopback and private targets on the address it connects to. Real connections go only to
// 127.0.0.1 and ::1; private, link-local and metadata addresses are only ever classified, never dialled.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { fetch, request } from 'undici';
import {
  TargetRefusedError,
  checkTargetHost,
  classifyAddress,
  isRefusedAddress,
  validateWebhookUrl,
  type AddressClass,
} from '../src/domain/webhooks/target-guard.js';
import { createGuardedDispatcher, type GuardedDispatcherOptions, type Resolver } from '../src/domain/webhooks/dispatcher.js';

const ADDRESSES: [string, AddressClass][] = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['192.168.1.1', 'private'],
  ['169.254.1.1', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['192.0.0.192', 'reserved'],
  ['192.0.2.1', 'reserved'], // TEST-NET-1 (documentation)
  ['198.51.100.1', 'reserved'], // TEST-NET-2
  ['203.0.113.1', 'reserved'], // TEST-NET-3
  ['198.18.0.1', 'reserved'], // benchmarking (RFC 2544), in ipaddr.js's reserved
  ['240.0.0.1', 'reserved'],
  ['192.175.48.1', 'as112'],
  ['192.52.193.1', 'amt'],
  // Metadata wins over the range it sits in
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['169.254.170.23', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['169.254.169.253', 'link-local'],
  // IPv6
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:81c::200e', 'public'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2:0:0::254', 'metadata'],
  ['fd00:ec2::23', 'metadata'],
  ['fd00:ec2::253', 'unique-local'],
  ['2001:db8::1', 'reserved'], // documentation
  ['3fff::1', 'reserved'], // documentation (RFC 9637)
  ['2001:2::1', 'benchmarking'],
  ['2001::1', 'teredo'],
  ['2001:3::1', 'amt'],
  ['2001:4:112::1', 'as112'],
  ['2001:10::1', 'orchid'],
  ['2001:20::1', 'orchid'],
  ['2001:30::1', 'drone-remote-id'],
  ['100::1', 'discard'],
  ['5f00::1', 'segment-routing'],
  // IPv4-mapped and IPv4-translated: the IPv4 address they carry
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:7F00:0001', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['::ffff:0:7f00:1', 'loopback'],
  ['::ffff:0:808:808', 'public'],
  // NAT64 (64:ff9b::/96 carries the IPv4 address in its last 32 bits; the local-use /48 places it anywhere)
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::c0a8:101', 'private'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::7f00:1', 'nat64-local'],
  // 6to4 (2002:AABB:CCDD::/48 is relayed to AA.BB.CC.DD)
  ['2002:7f00:1::1', 'loopback'],
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:808:808::1', 'public'],
  // IPv4-compatible (deprecated ::a.b.c.d)
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['::a00:1', 'private'],
  ['::808:808', 'public'],
];

t.test('classifyAddress names the range of every kind of address', async (t) => {
  for (const [address, expected] of ADDRESSES) t.equal(classifyAddress(address), expected, address);
});

t.test('classifyAddress throws a TypeError for anything that is not an address as a socket spells it', async (t) => {
  for (const input of [
    '',
    'localhost',
    '[::1]',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
    '1.2.3.04',
    '256.0.0.1',
    '::ffff:1.2.3',
    'fe80::/10',
  ]) {
    t.throws(() => classifyAddress(input), TypeError, JSON.stringify(input));
  }
});

t.test('isRefusedAddress: public passes; allowPrivate opens loopback and private ranges, never metadata', async (t) => {
  const cases: [string, string | undefined, string | undefined][] = [
    // address, refused by default, refused with allowPrivate
    ['8.8.8.8', undefined, undefined],
    ['2606:4700:4700::1111', undefined, undefined],
    ['127.0.0.1', 'loopback', undefined],
    ['::1', 'loopback', undefined],
    ['::ffff:127.0.0.1', 'loopback', undefined],
    ['10.0.0.1', 'private', undefined],
    ['192.168.0.10', 'private', undefined],
    ['169.254.10.10', 'link-local', undefined],
    ['fe80::1', 'link-local', undefined],
    ['fd12::1', 'unique-local', undefined],
    ['fec0::1', 'site-local', undefined],
    ['100.64.1.1', 'cgnat', undefined],
    ['169.254.169.254', 'metadata', 'metadata'],
    ['fd00:ec2::254', 'metadata', 'metadata'],
    ['100.100.100.200', 'metadata', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata', 'metadata'],
    ['0.0.0.0', 'unspecified', 'unspecified'],
    ['::', 'unspecified', 'unspecified'],
    ['255.255.255.255', 'broadcast', 'broadcast'],
    ['224.0.0.251', 'multicast', 'multicast'],
    ['ff02::1', 'multicast', 'multicast'],
    ['192.0.2.1', 'reserved', 'reserved'],
    ['2001:2::1', 'benchmarking', 'benchmarking'],
    ['64:ff9b:1::1', 'nat64-local', 'nat64-local'],
  ];
  for (const [address, refused, refusedWhenPrivateAllowed] of cases) {
    t.equal(isRefusedAddress(address, { allowPrivate: false }), refused, `${address} by default`);
    t.equal(isRefusedAddress(address, { allowPrivate: true }), refusedWhenPrivateAllowed, `${address} with allowPrivate`);
  }
});

t.test('validateWebhookUrl accepts absolute http(s) URLs and names what is wrong with the others', async (t) => {
  const dev = { production: false, allowPrivate: false };
  const prod = { production: true, allowPrivate: false };
  const devPrivate = { production: false, allowPrivate: true };
  const cases: [string, typeof dev, string | undefined][] = [
    ['https://hooks.example.com/in?x=1', prod, undefined],
    ['http://hooks.example.com/in', dev, undefined],
    ['http://hooks.example.com/in', prod, 'url must use https in production'],
    ['https://8.8.8.8/hook', prod, undefined],
    ['https://[2606:4700:4700::1111]:8443/hook', prod, undefined],
    ['https://example.com/' + 'a'.repeat(2048 - 'https://example.com/'.length), prod, undefined],
    ['https://example.com/' + 'a'.repeat(2049 - 'https://example.com/'.length), prod, 'url must be at most 2048 characters'],
    ['ftp://example.com/file', dev, 'url must be an absolute http or https URL'],
    ['javascript:alert(1)', dev, 'url must be an absolute http or https URL'],
    ['/relative/path', dev, 'url must be an absolute http or https URL'],
    ['example.com/hook', dev, 'url must be an absolute http or https URL'],
    ['https://', dev, 'url must be an absolute http or https URL'],
    ['https://user:pass@example.com/', prod, 'url must not contain credentials (user:pass@)'],
    ['https://user@example.com/', prod, 'url must not contain credentials (user:pass@)'],
    ['https://:pass@example.com/', prod, 'url must not contain credentials (user:pass@)'],
    ['https://example.com/hook#part', prod, 'url must not contain a fragment (#)'],
    ['https://example.com/hook#', prod, 'url must not contain a fragment (#)'],
    ['https://exa mple.com/', prod, 'url must not contain spaces or control characters'],
    [' https://example.com/', prod, 'url must not contain spaces or control characters'],
    ['https://example.com/\nx', prod, 'url must not contain spaces or control characters'],
    ['https://example.com/\tx', prod, 'url must not contain spaces or control characters'],
    // IP literals are classified at creation (the URL parser has normalized every IPv4 spelling)
    ['http://127.0.0.1:8080/', dev, 'url must not target 127.0.0.1 (loopback)'],
    ['http://127.0.0.1:8080/', devPrivate, undefined],
    ['http://0x7f.1/', dev, 'url must not target 127.0.0.1 (loopback)'],
    ['http://2130706433/', dev, 'url must not target 127.0.0.1 (loopback)'],
    ['http://[::1]/', dev, 'url must not target ::1 (loopback)'],
    ['http://[::1]/', devPrivate, undefined],
    ['http://[::ffff:127.0.0.1]/', dev, 'url must not target ::ffff:7f00:1 (loopback)'],
    ['https://10.1.2.3/', prod, 'url must not target 10.1.2.3 (private)'],
    ['https://192.168.1.20/', { production: true, allowPrivate: true }, undefined],
    ['http://169.254.169.254/latest/meta-data/', dev, 'url must not target 169.254.169.254 (metadata)'],
    ['http://169.254.169.254/latest/meta-data/', devPrivate, 'url must not target 169.254.169.254 (metadata)'],
    ['http://[fd00:ec2::254]/', devPrivate, 'url must not target fd00:ec2::254 (metadata)'],
    ['http://0.0.0.0:8080/', devPrivate, 'url must not target 0.0.0.0 (unspecified)'],
    ['http://[64:ff9b::a9fe:a9fe]/', devPrivate, 'url must not target 64:ff9b::a9fe:a9fe (metadata)'],
    // Names under localhost are loopback by definition; other names are checked when they are resolved
    ['http://localhost:8080/', dev, 'url must not target localhost (loopback)'],
    ['http://LocalHost./', dev, 'url must not target localhost. (loopback)'],
    ['http://api.localhost/', dev, 'url must not target api.localhost (loopback)'],
    ['http://localhost:8080/', devPrivate, undefined],
    ['http://internal.example/', dev, undefined],
  ];
  for (const [raw, options, message] of cases) {
    const result = validateWebhookUrl(raw, options);
    const name = `${JSON.stringify(raw.length > 60 ? raw.slice(0, 40) + '...' : raw)} ${JSON.stringify(options)}`;
    if (message === undefined) {
      t.ok(result.ok, name);
      if (result.ok) t.type(result.url, URL, `${name}: the parsed URL`);
    } else {
      t.same(result, { ok: false, message }, name);
    }
  }
});

t.test('checkTargetHost refuses IP literals (brackets stripped) and leaves names to the lookup', async (t) => {
  const refusal = (href: string, allowPrivate: boolean): unknown => {
    try {
      checkTargetHost(new URL(href), { allowPrivate });
    } catch (err) {
      return err;
    }
    return undefined;
  };
  const loopback = refusal('http://[::1]:8080/x', false);
  t.type(loopback, TargetRefusedError);
  t.match(loopback, { host: '::1', address: '::1', range: 'loopback', message: 'target refused: ::1 (loopback)' });
  t.match(refusal('https://127.0.0.1/', false), { address: '127.0.0.1', range: 'loopback' });
  t.match(refusal('https://169.254.169.254/', true), { address: '169.254.169.254', range: 'metadata' });
  t.equal(refusal('https://127.0.0.1/', true), undefined, 'loopback with allowPrivate');
  t.equal(refusal('https://8.8.8.8/', false), undefined, 'a public literal');
  t.equal(refusal('https://localhost/', false), undefined, 'a name: checked at connect time');
});

interface Receiver {
  port: number;
  /** TCP connections the receiver accepted. */
  connections: () => number;
}

/** A real HTTP receiver on a loopback address that counts the connections reaching it. */
async function startReceiver(t: Test, host: string, { keepAlive = true } = {}): Promise<Receiver> {
  let connections = 0;
  const server = http.createServer((_req, res) => {
    if (!keepAlive) res.setHeader('connection', 'close');
    res.end('received');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

function guardedDispatcher(t: Test, options: Partial<GuardedDispatcherOptions> = {}) {
  const dispatcher = createGuardedDispatcher({
    allowPrivate: false,
    connectTimeoutMs: 5000,
    connectionsPerOrigin: 4,
    ...options,
  });
  t.teardown(() => dispatcher.destroy());
  return dispatcher;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

async function answer(url: string, dispatcher: ReturnType<typeof createGuardedDispatcher>): Promise<string> {
  const { statusCode, body } = await request(url, { dispatcher });
  const text = await body.text();
  return `${statusCode} ${text}`;
}

t.test('the dispatcher refuses loopback targets before any connection is made', async (t) => {
  const receiver = await startReceiver(t, '127.0.0.1');
  const dispatcher = guardedDispatcher(t);

  const literal = await failure(request(`http://127.0.0.1:${receiver.port}/`, { dispatcher }));
  t.type(literal, TargetRefusedError, 'an IP literal (never looked up) is refused');
  t.match(literal, { address: '127.0.0.1', range: 'loopback', message: 'target refused: 127.0.0.1 (loopback)' });

  const named = await failure(request(`http://localhost:${receiver.port}/`, { dispatcher }));
  t.type(named, TargetRefusedError, 'a name that resolves to loopback is refused');
  t.match(named, {
    host: 'localhost',
    range: 'loopback',
    message: /^target refused: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)$/,
  });

  const fetched = await failure(fetch(`http://localhost:${receiver.port}/`, { dispatcher }));
  t.type((fetched as Error).cause, TargetRefusedError, 'fetch fails with the refusal as its cause');

  const tls = await failure(request(`https://localhost:${receiver.port}/`, { dispatcher }));
  t.type(tls, TargetRefusedError, 'https connections go through the same lookup');
  const tlsLiteral = await failure(request(`https://127.0.0.1:${receiver.port}/`, { dispatcher }));
  t.type(tlsLiteral, TargetRefusedError, 'and through the same literal check');

  t.equal(receiver.connections(), 0, 'no connection reached the receiver');
});

t.test('with allowPrivate the same targets are reached', async (t) => {
  const receiver = await startReceiver(t, '127.0.0.1');
  const dispatcher = guardedDispatcher(t, { allowPrivate: true });
  t.equal(await answer(`http://127.0.0.1:${receiver.port}/`, dispatcher), '200 received', 'the IP literal');
  // localhost may resolve to ::1 first; Node then tries each checked address in turn.
  t.equal(await answer(`http://localhost:${receiver.port}/hook`, dispatcher), '200 received', 'the name');
  const fetched = await fetch(`http://127.0.0.1:${receiver.port}/`, { dispatcher });
  t.equal(await fetched.text(), 'received', 'fetch too');
  t.ok(receiver.connections() >= 2, 'the receiver saw the connections');
});

t.test('with allowPrivate, a refused literal is still refused before connecting', async (t) => {
  // Metadata is never handed to the dispatcher (isRefusedAddress above proves it stays refused): a regression
  // would dial it. 0.0.0.0 is refused too and is safe to dial: it reaches this machine's receiver.
  const receiver = await startReceiver(t, '127.0.0.1');
  const dispatcher = guardedDispatcher(t, { allowPrivate: true });
  const literal = await failure(request(`http://0.0.0.0:${receiver.port}/`, { dispatcher }));
  t.type(literal, TargetRefusedError);
  t.match(literal, { address: '0.0.0.0', range: 'unspecified', message: 'target refused: 0.0.0.0 (unspecified)' });
  t.equal(receiver.connections(), 0, 'no connection reached the receiver');
});

const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = net.createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

t.test(
  'IPv6 loopback [::1] is refused, and reached with allowPrivate',
  { skip: ipv6Loopback ? false : 'this machine has no IPv6 loopback (::1)' },
  async (t) => {
    const receiver = await startReceiver(t, '::1');
    const refused = await failure(request(`http://[::1]:${receiver.port}/`, { dispatcher: guardedDispatcher(t) }));
    t.match(refused, { address: '::1', range: 'loopback', message: 'target refused: ::1 (loopback)' });
    t.equal(receiver.connections(), 0, 'no connection reached the receiver');
    t.equal(await answer(`http://[::1]:${receiver.port}/`, guardedDispatcher(t, { allowPrivate: true })), '200 received');
    t.equal(receiver.connections(), 1);
  },
);

/** A resolver that answers `answers[i]` on its i-th call (the last answer from then on), counting calls. */
function scriptedResolver(answers: string[][]): Resolver & { calls: number } {
  const resolver = Object.assign(
    () => {
      const addresses = answers[Math.min(resolver.calls, answers.length - 1)];
      resolver.calls++;
      return Promise.resolve(addresses.map((address) => ({ address, family: net.isIP(address) })));
    },
    { calls: 0 },
  );
  return resolver;
}

t.test('a DNS answer that changes between a check and the connection cannot get through', async (t) => {
  const receiver = await startReceiver(t, '127.0.0.1');
  // Rebinding: the first answer looks public, every later one is loopback.
  const resolve = scriptedResolver([['93.184.215.14'], ['127.0.0.1']]);
  const dispatcher = guardedDispatcher(t, { resolve });

  // The check a guard outside the connection would make: it sees the public answer.
  const [first] = await resolve('rebind.example', {});
  t.equal(isRefusedAddress(first.address, { allowPrivate: false }), undefined, 'a check before connecting passes');

  // The connection resolves for itself, once, and checks that answer.
  const err = await failure(request(`http://rebind.example:${receiver.port}/`, { dispatcher }));
  t.match(err, { address: '127.0.0.1', message: 'target refused: rebind.example resolves to 127.0.0.1 (loopback)' });
  t.equal(resolve.calls, 2, 'the connection made exactly one resolution of its own');
  t.equal(receiver.connections(), 0, 'and connected nowhere');
});

t.test('each new connection resolves once and connects to the address it checked', async (t) => {
  // allowPrivate: loopback is allowed, unspecified is not. Connections are closed after each answer.
  const receiver = await startReceiver(t, '127.0.0.1', { keepAlive: false });
  const resolve = scriptedResolver([['127.0.0.1'], ['127.0.0.1'], ['0.0.0.0']]);
  const dispatcher = guardedDispatcher(t, { allowPrivate: true, resolve });
  const url = `http://receiver.example:${receiver.port}/`;

  t.equal(await answer(url, dispatcher), '200 received');
  t.equal(await answer(url, dispatcher), '200 received');
  t.equal(resolve.calls, 2, 'one resolution per connection');
  t.equal(receiver.connections(), 2);

  const err = await failure(request(url, { dispatcher }));
  t.match(err, {
    address: '0.0.0.0',
    range: 'unspecified',
    message: 'target refused: receiver.example resolves to 0.0.0.0 (unspecified)',
  });
  t.equal(resolve.calls, 3, 'the third connection resolved once, and that answer was refused');
  t.equal(receiver.connections(), 2, 'no third connection was made');
});

t.test('keep-alive: requests to one origin share a checked connection', async (t) => {
  const receiver = await startReceiver(t, '127.0.0.1');
  const resolve = scriptedResolver([['127.0.0.1'], ['0.0.0.0']]);
  const dispatcher = guardedDispatcher(t, { allowPrivate: true, resolve, connectionsPerOrigin: 1 });
  for (let i = 0; i < 3; i++) t.equal(await answer(`http://receiver.example:${receiver.port}/${i}`, dispatcher), '200 received');
  t.equal(receiver.connections(), 1, 'one connection');
  t.equal(resolve.calls, 1, 'resolved once');
});

t.test('one refused address refuses the whole name', async (t) => {
  // With allowPrivate the first answer (loopback) may be reached and the second (unspecified) may not: the
  // name is refused, and the receiver shows that the allowed address was not dialled either.
  const receiver = await startReceiver(t, '127.0.0.1');
  const resolve = scriptedResolver([['127.0.0.1', '0.0.0.0']]);
  const dispatcher = guardedDispatcher(t, { allowPrivate: true, resolve });
  const err = await failure(request(`http://mixed.example:${receiver.port}/`, { dispatcher }));
  t.match(err, {
    address: '0.0.0.0',
    range: 'unspecified',
    message: 'target refused: mixed.example resolves to 0.0.0.0 (unspecified)',
  });
  t.equal(receiver.connections(), 0);
});

t.test('a name with no address fails as not found', async (t) => {
  const err = await failure(
    request('http://nowhere.example/', { dispatcher: guardedDispatcher(t, { resolve: scriptedResolver([[]]) }) }),
  );
  t.match(err, { code: 'ENOTFOUND', message: 'no address for nowhere.example' });
});

t.test('without autoSelectFamily Node asks for one address: it is a checked one', async (t) => {
  const before = net.getDefaultAutoSelectFamily();
  net.setDefaultAutoSelectFamily(false);
  t.teardown(() => net.setDefaultAutoSelectFamily(before));
  const receiver = await startReceiver(t, '127.0.0.1');
  const allowed = guardedDispatcher(t, { allowPrivate: true, resolve: scriptedResolver([['127.0.0.1']]) });
  t.equal(await answer(`http://receiver.example:${receiver.port}/`, allowed), '200 received');
  const refused = await failure(
    request(`http://receiver.example:${receiver.port}/`, {
      dispatcher: guardedDispatcher(t, { resolve: scriptedResolver([['127.0.0.1']]) }),
    }),
  );
  t.type(refused, TargetRefusedError);
  t.equal(receiver.connections(), 1);
});
