import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Keeps outbound webhooks off the service's own network: loopback, private, link-local,
 * unique-local, CGNAT, cloud metadata and other non-public ranges. Checked when an endpoint is
 * subscribed and again on every attempt after DNS resolution; the request then connects to the
 * very address that was checked (see `pinnedLookup`), so DNS rebinding cannot slip past.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, includes the 169.254.169.254 metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');

/**
 * IPv6: global unicast only (2000::/3). Everything outside it is refused, which takes in every
 * form that embeds an IPv4 address outside that range: IPv4-compatible `::127.0.0.1`,
 * IPv4-translated `::ffff:0:7f00:1`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, as well as
 * loopback, unique-local (the fd00:ec2::254 metadata service), link-local and multicast.
 */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');
// Inside 2000::/3, the ranges that tunnel to an embedded IPv4 address or are not routable.
for (const [net, prefix] of [
  ['2001::', 32], // Teredo
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: 2002:7f00:1::1 is 127.0.0.1
  ['3fff::', 20], // documentation (RFC 9637)
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export class SsrfError extends Error {}

/**
 * Unwraps IPv4-mapped IPv6 so it is judged as the IPv4 address it is: `::ffff:127.0.0.1`, and
 * the hex form `::ffff:7f00:1` that URL parsing turns it into.
 */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return { address: dotted[1], family: 'ipv4' };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return { address: [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.'), family: 'ipv4' };
  }
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isPrivateAddress(address: string): boolean {
  const n = normalise(address.replace(/%.*$/, ''));
  if (n.family === 'ipv6' && !globalUnicast.check(n.address, 'ipv6')) return true;
  return blocked.check(n.address, n.family);
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Where outbound traffic may go (DESIGN 2026-11-26). To public addresses only over TLS (`https://`,
 * `mllps://`); cleartext (`http://`, `mllp://`) and private addresses only inside the ranges an
 * operator lists in OUTBOUND_ALLOW_CIDRS (a hospital's VPN); anything anywhere under
 * WEBHOOK_ALLOW_PRIVATE (development). `true`/`false` is the private switch alone.
 */
export interface OutboundRules {
  allowPrivate: boolean;
  /** OUTBOUND_ALLOW_CIDRS */
  allowCidrs?: readonly string[];
}

const rulesOf = (rules: boolean | OutboundRules): OutboundRules => (typeof rules === 'boolean' ? { allowPrivate: rules } : rules);

/** The rules of this service: OUTBOUND_ALLOW_CIDRS, and WEBHOOK_ALLOW_PRIVATE when the endpoint was made under it too. */
export const outboundRules = (
  config: { WEBHOOK_ALLOW_PRIVATE: boolean; OUTBOUND_ALLOW_CIDRS: readonly string[] },
  endpointAllowsPrivate = true,
) => ({
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE && endpointAllowsPrivate,
  allowCidrs: config.OUTBOUND_ALLOW_CIDRS,
});

const listCache = new WeakMap<readonly string[], BlockList>();

function inAllowedRange(address: string, cidrs: readonly string[] | undefined): boolean {
  if (!cidrs || cidrs.length === 0) return false;
  let list = listCache.get(cidrs);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const [net, prefix] = cidr.split('/');
      const family = isIP(net) === 6 ? 'ipv6' : 'ipv4';
      list.addSubnet(net, prefix === undefined ? (family === 'ipv6' ? 128 : 32) : Number(prefix), family);
    }
    listCache.set(cidrs, list);
  }
  const n = normalise(address.replace(/%.*$/, ''));
  return list.check(n.address, n.family);
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Parses an endpoint URL: http(s) only, no credentials; throws SsrfError with a clear reason. */
export function parseEndpointUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfError('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SsrfError('url must use http or https');
  if (url.username || url.password) throw new SsrfError('url must not carry credentials');
  return url;
}

/**
 * Resolves the URL's host and refuses it when any of its addresses may not be reached under the
 * rules (a private address outside OUTBOUND_ALLOW_CIDRS; `http://` outside them). Returns the
 * first address, to which the request must then be pinned.
 */
export async function resolveTarget(
  raw: string,
  rules: boolean | OutboundRules,
  resolve: Resolver = systemResolver,
): Promise<ResolvedTarget> {
  const url = parseEndpointUrl(raw);
  return { url, ...(await resolveHost(url.hostname, rules, resolve, url.protocol === 'http:' ? 'http://' : undefined)) };
}

/**
 * The same check for a bare host (an MLLP destination): its first address. `cleartext` names the
 * scheme when the traffic would travel unencrypted (`mllp://`, `http://`).
 */
export async function resolveHost(
  hostname: string,
  rules: boolean | OutboundRules,
  resolve: Resolver = systemResolver,
  cleartext?: string,
): Promise<{ address: string; family: 4 | 6 }> {
  const { allowPrivate, allowCidrs } = rulesOf(rules);
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      throw new SsrfError(`url host ${host} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
    if (addresses.length === 0) throw new SsrfError(`url host ${host} cannot be resolved`);
  }
  if (!allowPrivate) {
    for (const a of addresses) {
      if (inAllowedRange(a.address, allowCidrs)) continue;
      if (isPrivateAddress(a.address))
        throw new SsrfError(
          `url host ${host} resolves to a non-public address (${a.address}); list its range in OUTBOUND_ALLOW_CIDRS (a hospital network), or set WEBHOOK_ALLOW_PRIVATE=true to allow private and loopback receivers (development)`,
        );
      if (cleartext)
        throw new SsrfError(
          `${cleartext} sends in clear text, which is allowed only to the ranges in OUTBOUND_ALLOW_CIDRS; use ${cleartext === 'http://' ? 'https://' : 'mllps://'} for ${host}`,
        );
    }
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` (axios's async form) that always answers the address already checked. */
export function pinnedLookup(target: ResolvedTarget) {
  return async (_hostname: string, _options: object) => ({ address: target.address, family: target.family });
}
