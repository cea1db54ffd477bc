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
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 can reach IPv4 private space
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique-local, includes the fd00:ec2::254 metadata service
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

export class SsrfError extends Error {}

/** Unwraps IPv4-mapped IPv6 (`::ffff:127.0.0.1`) so it is judged as the IPv4 address it is. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isPrivateAddress(address: string): boolean {
  const n = normalise(address);
  return blocked.check(n.address, n.family);
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
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
 * Resolves the URL's host and refuses it when any of its addresses is not public (unless
 * `allowPrivate`). Returns the first address, to which the request must then be pinned.
 */
export async function resolveTarget(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<ResolvedTarget> {
  const url = parseEndpointUrl(raw);
  return { url, ...(await resolveHost(url.hostname, allowPrivate, resolve)) };
}

/** The same check for a bare host (an MLLP destination): its first address, refused when not public. */
export async function resolveHost(hostname: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<{ address: string; family: 4 | 6 }> {
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
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) throw new SsrfError(`url host ${host} resolves to a non-public address (${refused.address})`);
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` (axios's async form) that always answers the address already checked. */
export function pinnedLookup(target: ResolvedTarget) {
  return async (_hostname: string, _options: object) => ({ address: target.address, family: target.family });
}
