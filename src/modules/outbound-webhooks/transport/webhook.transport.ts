import { refusedAs, type OutboundTransport } from './outbound-transport.js';
import { messageBody } from './payload.js';
import { sendWebhook } from './send-webhook.js';
import { resolveTarget } from './ssrf-guard.js';

/** A webhook's message: the JSON body, signed as sent with the endpoint's secret (and, after a rotation, its previous one). */
export interface WebhookMessage {
  secret: string;
  previousSecret?: string;
  body: string;
}

/** The `webhook` kind: the event as a signed JSON POST (Standard Webhooks and X-Integration-Signature). */
export const webhookTransport: OutboundTransport<WebhookMessage, undefined> = {
  kind: 'webhook',
  build(d, open) {
    const secret = open('secret', d.secret);
    const previousSecret = d.previous_secret ? open('previous_secret', d.previous_secret) : undefined;
    const body = messageBody({ id: d.event_id, type: d.event_type, created_at: d.event_created_at, data: d.event_data }, d.thin);
    return { send: { secret, ...(previousSecret ? { previousSecret } : {}), body } };
  },
  newState: () => undefined,
  send: (to, message, timeoutMs) =>
    sendWebhook({
      url: to.url,
      secret: message.secret,
      previousSecret: message.previousSecret,
      messageId: to.deliveryId,
      body: message.body,
      rules: to.rules,
      timeoutMs,
    }),
  checkDestination: ({ url }, rules) => refusedAs('url', resolveTarget(url, rules)),
};
