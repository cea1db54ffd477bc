import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/lib/webhook-secret.js';
import { integrationSignature, signPayload } from '../../src/modules/outbound-webhooks/transport/signing.js';

describe('outbound signing (src/modules/outbound-webhooks/transport/signing.ts)', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'call.updated', data: { callId: 'c1', note: 'ünïcode' } });

  it('signs with both schemes; the standardwebhooks library verifies the second', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signPayload(secret, 'msg_1', body);
    expect(headers['x-integration-signature']).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('c1', 'c2'), { ...headers })).toThrow();
  });

  it('uses a secret without the whsec_ prefix as raw bytes', () => {
    const secret = 'plain-secret';
    const ts = new Date();
    const headers = signPayload(secret, 'msg_2', body, ts);
    const expected = createHmac('sha256', secret)
      .update(`msg_2.${Math.floor(ts.getTime() / 1000)}.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(integrationSignature(secret, Buffer.from(body))).toBe(headers['x-integration-signature']);
  });
});
