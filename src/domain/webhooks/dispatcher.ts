// The undici side of the target guard, loaded on the first attempt (a daemon that sends no webhook
// never pays undici's memory): a dispatcher whose every new connection is checked by target-guard.ts.
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isRefusedAddress, refusedLiteral, TargetRefusedError, type GuardOptions } from './target-guard.js';

export { request } from 'undici';

/** Every address of a hostname; the default is `dns.lookup` with `all: true` (the system resolver, /etc/hosts). */
export type Resolver = (hostname: string, options: Pick<LookupOptions, 'family' | 'hints'>) => Promise<LookupAddress[]>;

const lookupAll: Resolver = (hostname, options) =>
  dns.lookup(hostname, { family: options.family, hints: options.hints, all: true });

/**
 * A `net.connect` lookup that resolves once and hands Node only addresses it has checked, so the socket connects
 * to exactly what was checked. One refused address refuses the whole name: a name that also points inside is
 * not a receiver to trust, and connecting to "the other" address would depend on answer order.
 */
function createGuardedLookup(options: GuardOptions, resolve: Resolver): LookupFunction {
  const resolveChecked = async (hostname: string, lookupOptions: LookupOptions): Promise<LookupAddress[]> => {
    const answers = await resolve(hostname, { family: lookupOptions.family, hints: lookupOptions.hints });
    if (answers.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND', hostname });
    const checked: LookupAddress[] = [];
    for (const { address } of answers) {
      const range = isRefusedAddress(address, options);
      if (range !== undefined) throw new TargetRefusedError(hostname, address, range);
      checked.push({ address, family: isIP(address) });
    }
    return checked;
  };
  return (hostname, lookupOptions, callback) => {
    resolveChecked(hostname, lookupOptions).then(
      (checked) => (lookupOptions.all === true ? callback(null, checked) : callback(null, checked[0].address, checked[0].family)),
      (err: Error) => callback(err, ''),
    );
  };
}

export interface GuardedDispatcherOptions extends GuardOptions {
  connectTimeoutMs: number;
  /** Keep-alive connections per origin (the Agent keeps one pool per origin). */
  connectionsPerOrigin: number;
  /** Where hostnames are resolved, once per connection; tests inject answers here. */
  resolve?: Resolver;
}

/**
 * The undici dispatcher for webhook deliveries. Every new connection is checked: a hostname by the lookup hook
 * on the addresses the socket then connects to, an IP literal (which Node never looks up) before connecting.
 * A refused connection fails its request with TargetRefusedError.
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions): Agent {
  const guard = { allowPrivate: options.allowPrivate };
  const connectChecked = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: createGuardedLookup(guard, options.resolve ?? lookupAll),
  });
  return new Agent({
    connections: options.connectionsPerOrigin,
    connect: (connectOptions, callback) => {
      // `isIP` is the test Node uses to skip the lookup, so every host meets exactly one of the two checks.
      const refused = refusedLiteral(connectOptions.hostname, guard);
      if (refused !== undefined) return callback(new TargetRefusedError(refused.address, refused.address, refused.range), null);
      connectChecked(connectOptions, callback);
    },
  });
}
