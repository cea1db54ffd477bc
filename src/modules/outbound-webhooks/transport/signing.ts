import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Outbound signing, shared by the voice-provider dispatch and the outbound webhooks. Every
 * request carries two signatures over the exact body bytes sent:
 * - `X-Integration-Signature: sha256=<hex HMAC-SHA256(secret, body)>`, the whole secret string
 *   as the key (as GitHub does);
 * - Standard Webhooks `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
 *   `id.timestamp.body`, keyed by the base64-decoded part after `whsec_` (the `standardwebhooks`
 *   libraries' convention). A secret without the `whsec_` prefix is used as raw bytes.
 */
export interface SignedHeaders {
  'x-integration-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function integrationSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function standardWebhook(secret: string): Webhook {
  return secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
}

/**
 * Headers for one request. `id` stays the same across retries and replays of one message, so
 * receivers can drop duplicates; `timestamp` is the time of this attempt.
 */
export function signPayload(
  secret: string,
  id: string,
  body: string,
  timestamp: Date = new Date(),
  previousSecret?: string,
): SignedHeaders {
  const signatures = [secret, ...(previousSecret ? [previousSecret] : [])].map((s) => standardWebhook(s).sign(id, timestamp, body));
  return {
    'x-integration-signature': integrationSignature(secret, body),
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    // After a rotation, until the old secret expires: `v1,<new> v1,<old>` (Standard Webhooks allows several).
    'webhook-signature': signatures.join(' '),
  };
}
