// Webhook targets and SSRF: which addresses a delivery may reach. A URL is checked when it is saved, and every
// connection is checked again on the address the socket connects to, so a DNS answer that changes between the
// two (rebinding) cannot reach an internal service. Ranges come from ipaddr.js; this file only names them.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused as a webhook target. */
export type RefusedRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'site-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | 'broadcast'
  | 'multicast'
  | 'reserved'
  | 'benchmarking'
  | 'as112'
  | 'amt'
  | 'discard'
  | 'teredo'
  | 'nat64-local'
  | 'orchid'
  | 'drone-remote-id'
  | 'segment-routing';

/** `public` (ipaddr.js's `unicast`) or the range that refuses the address. */
export type AddressClass = 'public' | RefusedRange;

export interface GuardOptions {
  /** SERVICE_WEBHOOK_ALLOW_PRIVATE=1: see `isRefusedAddress` for what it opens. */
  allowPrivate: boolean;
}

// Cloud metadata and credential endpoints (AWS IMDS v4/v6, ECS container credentials, EKS Pod Identity v4/v6,
// Alibaba; GCP, Azure and Oracle share 169.254.169.254). Checked first, so `metadata` wins over the link-local,
// unique-local or cgnat range each sits in, and stays refused when private targets are allowed.
const METADATA_RANGES: Record<string, [ipaddr.IPv4 | ipaddr.IPv6, number][]> = {
  metadata: [
    '169.254.169.254/32',
    '169.254.170.2/32',
    '169.254.170.23/32',
    '100.100.100.200/32',
    'fd00:ec2::254/128',
    'fd00:ec2::23/128',
  ].map((cidr) => ipaddr.parseCIDR(cidr)),
};

// ipaddr.js's names for its special ranges, as this guard reports them. Forms that embed an IPv4 address
// (mapped, translated, NAT64, 6to4, IPv4-compatible) are not here: they are classified as that address.
const RANGE_NAMES: Readonly<Record<string, RefusedRange>> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  carrierGradeNat: 'cgnat',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
  benchmarking: 'benchmarking',
  as112: 'as112',
  as112v6: 'as112',
  amt: 'amt',
  discard: 'discard',
  teredo: 'teredo',
  deprecatedOrchid: 'orchid',
  orchid2: 'orchid',
  droneRemoteIdProtocolEntityTags: 'drone-remote-id',
  segmentRouting: 'segment-routing',
};

const WELL_KNOWN_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * The class of an IP address as the socket layer spells it (`net.isIP`; no brackets, no `127.1` shorthand).
 * Throws a TypeError for anything else.
 */
export function classifyAddress(ip: string): AddressClass {
  if (isIP(ip) === 0) throw new TypeError(`not an IP address: ${ip}`);
  return classifyParsed(ipaddr.parse(ip));
}

function classifyParsed(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (ipaddr.subnetMatch(address, METADATA_RANGES, 'other') === 'metadata') return 'metadata';
  const range: string = address.range();
  if (address.kind() === 'ipv6') {
    const bytes = address.toByteArray();
    switch (range) {
      case 'ipv4Mapped': // ::ffff:a.b.c.d, what a dual-stack socket connects to as IPv4
      case 'rfc6145': // ::ffff:0:a.b.c.d, IPv4-translated
        return classifyParsed(ipaddr.fromByteArray(bytes.slice(12)));
      case 'rfc6052':
        // 64:ff9b::/96 reaches the IPv4 address in its last 32 bits; the local-use 64:ff9b:1::/48 places it
        // wherever its operator chose, so what it reaches cannot be known here.
        return address.match(WELL_KNOWN_NAT64) ? classifyParsed(ipaddr.fromByteArray(bytes.slice(12))) : 'nat64-local';
      case '6to4': // 2002:AABB:CCDD::/48 is relayed to AA.BB.CC.DD
        return classifyParsed(ipaddr.fromByteArray(bytes.slice(2, 6)));
      case 'unicast':
        // Deprecated IPv4-compatible ::a.b.c.d (:: and ::1 were matched above as unspecified and loopback).
        return address.match(IPV4_COMPATIBLE) ? classifyParsed(ipaddr.fromByteArray(bytes.slice(12))) : 'public';
    }
  }
  if (range === 'unicast') return 'public';
  // A range a newer ipaddr.js adds is refused, as reserved, until it is named here.
  return RANGE_NAMES[range] ?? 'reserved';
}

// SERVICE_WEBHOOK_ALLOW_PRIVATE=1 is for receivers on the operator's own machine or network (development, an
// internal service), so it opens the ranges such hosts live in. Metadata endpoints hand out cloud credentials,
// and unspecified, broadcast, multicast and reserved addresses name no single receiver: those stay refused.
const PRIVATE_RANGES: ReadonlySet<AddressClass> = new Set<AddressClass>([
  'loopback',
  'private',
  'link-local',
  'unique-local',
  'site-local',
  'cgnat',
]);

/** The range that refuses `ip` as a webhook target, or undefined when it may be reached. */
export function isRefusedAddress(ip: string, options: GuardOptions): RefusedRange | undefined {
  const range = classifyAddress(ip);
  if (range === 'public' || (options.allowPrivate && PRIVATE_RANGES.has(range))) return undefined;
  return range;
}

/** A webhook target the guard refused; the message is meant to be recorded on the delivery as it is. */
export class TargetRefusedError extends Error {
  readonly host: string;
  readonly address: string;
  readonly range: RefusedRange;

  constructor(host: string, address: string, range: RefusedRange) {
    super(
      host === address ? `target refused: ${address} (${range})` : `target refused: ${host} resolves to ${address} (${range})`,
    );
    this.name = 'TargetRefusedError';
    this.host = host;
    this.address = address;
    this.range = range;
  }
}

/** A URL or connection hostname that is a refused IP literal (brackets stripped), or undefined. */
export function refusedLiteral(hostname: string, options: GuardOptions): { address: string; range: RefusedRange } | undefined {
  const address = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(address) === 0) return undefined;
  const range = isRefusedAddress(address, options);
  return range === undefined ? undefined : { address, range };
}

/**
 * Throws TargetRefusedError when the URL's host is an IP literal the guard refuses. Node never resolves an IP
 * literal, so the lookup hook cannot see it; names are checked on their resolved addresses at connect time.
 */
export function checkTargetHost(url: URL, options: GuardOptions): void {
  const refused = refusedLiteral(url.hostname, options);
  if (refused !== undefined) throw new TargetRefusedError(refused.address, refused.address, refused.range);
}

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

export interface WebhookUrlOptions extends GuardOptions {
  /** https only. */
  production: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Checks a webhook URL when it is created or changed; a failure's message is meant for a 422 on the `url` field. */
export function validateWebhookUrl(raw: string, options: WebhookUrlOptions): WebhookUrlCheck {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  // The URL parser drops tabs and line breaks and trims spaces: refused rather than silently rewritten.
  if (/[\s\p{Cc}]/u.test(raw)) return refuse('url must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('url must be an absolute http or https URL');
  if (options.production && url.protocol !== 'https:') return refuse('url must use https in production');
  if (url.hostname === '') return refuse('url must name a host'); // the parser already insists, for http(s)
  if (url.username !== '' || url.password !== '') return refuse('url must not contain credentials (user:pass@)');
  // A '#' can only start a fragment; `url.hash` is empty for a bare trailing '#'.
  if (url.href.includes('#')) return refuse('url must not contain a fragment (#)');
  // Names under `localhost` are loopback by definition (RFC 6761): refused now rather than at every delivery.
  const name = url.hostname.replace(/\.$/, '');
  if (!options.allowPrivate && (name === 'localhost' || name.endsWith('.localhost'))) {
    return refuse(`url must not target ${url.hostname} (loopback)`);
  }
  const refused = refusedLiteral(url.hostname, options);
  if (refused !== undefined) return refuse(`url must not target ${refused.address} (${refused.range})`);
  return { ok: true, url };
}

function refuse(message: string): WebhookUrlCheck {
  return { ok: false, message };
}
