import type { AppDeps } from '../../../app-deps.js';
import { SmartTokenCache } from '../../fhir/smart-token.js';
import { MllpClientPool } from '../../hl7/mllp-client.js';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { outboundDeliveryOf, type OutboundDelivery } from './outbound-delivery.js';
import type { SendResult } from './send-result.js';
import { sendFhirNote } from './send-fhir.js';
import { sendHl7Note } from './send-hl7-mllp.js';
import { sendWebhook } from './send-webhook.js';

/** What a transport reads from the service: the outbound rules and the sealed secrets' key. */
export type TransportDeps = Pick<AppDeps, 'config' | 'secrets'>;

/** What transports keep between attempts in one process: FHIR access tokens, open MLLP connections. */
export interface TransportState {
  tokens: SmartTokenCache;
  mllp: MllpClientPool;
}

export const newTransportState = (): TransportState => ({ tokens: new SmartTokenCache(), mllp: new MllpClientPool() });

/**
 * One attempt of a built message by its destination's kind: a signed JSON POST (webhook), a note's
 * HL7 messages over MLLP (hl7-mllp), or its transaction Bundle under SMART Backend Services (fhir).
 */
export function sendDelivery(delivery: OutboundDelivery, timeoutMs: number, state: TransportState): Promise<SendResult> {
  const { url, rules, deliveryId } = delivery;
  switch (delivery.kind) {
    case 'webhook':
      return sendWebhook({
        url,
        secret: delivery.secret,
        previousSecret: delivery.previousSecret,
        messageId: deliveryId,
        body: delivery.body,
        rules,
        timeoutMs,
      });
    case 'hl7-mllp':
      return sendHl7Note({ url, messages: delivery.messages, rules, timeoutMs, connections: state.mllp });
    case 'fhir':
      return sendFhirNote({
        url,
        bundle: delivery.bundle,
        client: delivery.client,
        privateKey: delivery.privateKey,
        cacheKey: delivery.endpointId,
        tokens: state.tokens,
        rules,
        timeoutMs,
      });
  }
}

/**
 * One attempt of a claimed delivery: the row read once into its message (outbound-delivery.ts),
 * then sent. A string: why it is not sent (the delivery is cancelled).
 */
export async function sendByKind(
  deps: TransportDeps,
  d: ClaimedDelivery,
  timeoutMs: number,
  state: TransportState,
): Promise<SendResult | string> {
  const delivery = outboundDeliveryOf(deps, d);
  if ('cancel' in delivery) return delivery.cancel;
  if ('dead' in delivery) return { statusCode: null, durationMs: 0, error: delivery.dead, permanent: true };
  return sendDelivery(delivery, timeoutMs, state);
}
