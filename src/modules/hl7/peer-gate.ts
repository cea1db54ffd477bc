import { BlockList, isIP } from 'node:net';
import type { Queryable } from '../../db/pool.js';
import { listHl7AllowedNetworks } from '../integrations/integrations.repo.js';

/** `::ffff:10.1.2.3` (an IPv4 peer on a dual-stack socket) as the IPv4 address it is. */
export function peerAddress(address: string | undefined): string {
  const raw = (address ?? '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw);
  return mapped ? mapped[1] : raw;
}

export interface PeerGateOptions {
  /** The list of allowed networks is read again after this long (ms). */
  maxAgeMs?: number;
  /** A refused address reads the list again if it is older than this (a sender added a moment ago). */
  missRefreshMs?: number;
}

/**
 * The listeners' first check: is the connecting address in the allowed_ips of any HL7 sender in
 * force? Answered from a copy of the list read at most every few seconds (so refused connections
 * cannot load the database); each message is then checked against its own sender (findHl7Sender),
 * so a revoked sender is refused at its next message.
 */
export class PeerGate {
  private allowed = new BlockList();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;
  private readonly maxAgeMs: number;
  private readonly missRefreshMs: number;

  constructor(
    private readonly db: Queryable,
    options: PeerGateOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 5_000;
    this.missRefreshMs = options.missRefreshMs ?? 1_000;
  }

  async admits(address: string): Promise<boolean> {
    const family = isIP(address);
    if (!family) return false;
    if (Date.now() - this.loadedAt > this.maxAgeMs) await this.refresh();
    if (this.check(address, family)) return true;
    if (Date.now() - this.loadedAt <= this.missRefreshMs) return false;
    await this.refresh();
    return this.check(address, family);
  }

  private check(address: string, family: number): boolean {
    return this.allowed.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  private refresh(): Promise<void> {
    this.loading ??= listHl7AllowedNetworks(this.db)
      .then((networks) => {
        const list = new BlockList();
        for (const n of networks) list.addSubnet(n.address, n.prefix, n.family === 6 ? 'ipv6' : 'ipv4');
        this.allowed = list;
        this.loadedAt = Date.now();
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
