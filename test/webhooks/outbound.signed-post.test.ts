import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedPost } from '../../src/modules/outbound-webhooks/transport/signed-post.js';
import { signPayload } from '../../src/modules/outbound-webhooks/transport/signing.js';
import { resolveTarget } from '../../src/modules/outbound-webhooks/transport/ssrf-guard.js';

/** The one signed POST of the outbound webhooks and the voice dispatch: exact bytes, header names in order, no redirect. */
describe('signedPost', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ names: string[]; headers: IncomingMessage['headers']; body: string }> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const names = req.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
        seen.push({ names, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/moved') res.writeHead(302, { location: '/elsewhere' }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"prov-1"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const body = '{"b":1,"a":"ünïcode"}';

  it('sends the body as given, signed, with the caller headers between user-agent and the signatures, and reads the answer', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const res = await signedPost({
      url: `${base}/call`,
      body,
      secret,
      messageId: 'call-1',
      userAgent: 'Clinigate-Voice/1',
      headers: { 'idempotency-key': 'call-1' },
      timeoutMs: 5_000,
      readBody: true,
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ id: 'prov-1' });
    const got = seen.at(-1)!;
    expect(got.body).toBe(body);
    const signed = signPayload(secret, 'call-1', body, new Date(Number(got.headers['webhook-timestamp']) * 1000));
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Clinigate-Voice/1',
      'idempotency-key': 'call-1',
      ...signed,
    });
    const order = [
      'content-type',
      'user-agent',
      'idempotency-key',
      'x-integration-signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ];
    expect(got.names.filter((n) => order.includes(n))).toEqual(order);
  });

  it('pinned to a checked address, reads no body and follows no redirect', async () => {
    const target = await resolveTarget(`${base}/moved`, true);
    const res = await signedPost({
      url: target.url.toString(),
      body,
      secret: 'plain',
      messageId: 'd-1',
      userAgent: 'Clinigate-Webhooks/x',
      timeoutMs: 5_000,
      pinned: target,
      readBody: false,
    });
    expect(res.status).toBe(302);
    expect(res.data).toBeUndefined();
    expect(seen.filter((s) => s.headers['webhook-id'] === 'd-1')).toHaveLength(1);
    expect(seen.at(-1)!.names).not.toContain('idempotency-key');
  });
});
