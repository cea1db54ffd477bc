import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One HTTP server on 127.0.0.1 playing many slow subscribers, one per path (`/hook/<n>`): each
 * request is answered 200 after `delayMs`. It counts, per path, the requests open at once (the
 * most seen) and the requests received, so a test can check a concurrency cap per endpoint.
 */
export class SlowReceiver {
  private server?: Server;
  private readonly open = new Map<string, number>();
  readonly maxOpen = new Map<string, number>();
  readonly received = new Map<string, number>();
  port = 0;
  constructor(private readonly delayMs: number) {}

  url(n: number): string {
    return `http://127.0.0.1:${this.port}/hook/${n}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '';
      req.resume();
      const now = (this.open.get(path) ?? 0) + 1;
      this.open.set(path, now);
      this.maxOpen.set(path, Math.max(now, this.maxOpen.get(path) ?? 0));
      this.received.set(path, (this.received.get(path) ?? 0) + 1);
      const timer = setTimeout(() => res.writeHead(200).end(), this.delayMs);
      res.on('close', () => {
        clearTimeout(timer);
        this.open.set(path, (this.open.get(path) ?? 1) - 1);
      });
    });
    this.server.keepAliveTimeout = 1;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Requests received over all paths. */
  total(): number {
    return [...this.received.values()].reduce((a, b) => a + b, 0);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
