import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  webhookId: string;
  at: number;
  /** the status this request was answered with (undefined while held open) */
  answered?: number;
}

/** What the receiver answers: a status with headers, or 'hold' to keep the request open. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hold';
export type Responder = (r: Received, sameIdCount: number) => Answer;

/**
 * A webhook receiver on 127.0.0.1 playing a subscriber: records every request and answers by
 * its responder (200 by default). It can be stopped and started again on the same port.
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 200 });
  private server?: Server;
  private readonly held: ServerResponse[] = [];
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = this.port): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const webhookId = String(req.headers['webhook-id']);
        const r: Received = { headers: req.headers, body, json: JSON.parse(body), webhookId, at: Date.now() };
        const same = this.received.filter((x) => x.webhookId === webhookId).length;
        this.received.push(r);
        const answer = this.respond(r, same);
        if (answer === 'hold') {
          this.held.push(res);
          return;
        }
        r.answered = answer.status;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Requests carrying the event id (the body's `id`). */
  forEvent(eventId: string): Received[] {
    return this.received.filter((r) => r.json.id === eventId);
  }

  /** Requests answered 2xx, per webhook-id. */
  successesById(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of this.received) {
      if (r.answered && r.answered >= 200 && r.answered < 300) counts.set(r.webhookId, (counts.get(r.webhookId) ?? 0) + 1);
    }
    return counts;
  }
}

export const startReceiver = (port?: number) => new Receiver().start(port);

/** Checks both signatures the way a subscriber would; throws when either is wrong. */
export function verifySignatures(secret: string, r: Received): void {
  const expected = `sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`;
  const given = String(r.headers['x-integration-signature'] ?? '');
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
    throw new Error('X-Integration-Signature does not match');
  }
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

export { isolatedDatabase } from './isolated-database.js';
