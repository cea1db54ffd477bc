import type { AppDeps } from '../../../app-deps.js';
import { SmartTokenCache, type SmartClient } from '../../fhir/smart-token.js';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { fhirBundleOf, hl7MessagesOf } from './note-by-kind.js';
import { messageBody } from './payload.js';
import type { SendResult } from './send-result.js';
import { sendFhirNote } from './send-fhir.js';
import { sendHl7Note } from './send-hl7-mllp.js';
import { sendWebhook } from './send-webhook.js';

/** What a transport reads from the service: the private-address switch and the sealed secrets' key. */
export type TransportDeps = Pick<AppDeps, 'config' | 'secrets'>;

/** What transports keep between attempts in one worker process (FHIR access tokens). */
export interface TransportState {
  tokens: SmartTokenCache;
}

export const newTransportState = (): TransportState => ({ tokens: new SmartTokenCache() });

/**
 * One attempt of a claimed delivery by its endpoint's kind: a signed JSON POST (webhook), an
 * note's HL7 messages over MLLP (hl7-mllp), or its transaction Bundle under SMART Backend Services
 * (fhir). The last two carry the note events only (note-by-kind.ts); anything else is not theirs
 * to send (a string: the reason the delivery is cancelled).
 */
export async function sendByKind(
  deps: TransportDeps,
  d: ClaimedDelivery,
  timeoutMs: number,
  state: TransportState,
): Promise<SendResult | string> {
  const allowPrivate = deps.config.WEBHOOK_ALLOW_PRIVATE && d.allow_private;
  if (d.kind === 'webhook') {
    const body = messageBody({ id: d.event_id, type: d.event_type, created_at: d.event_created_at, data: d.event_data }, d.thin);
    return sendWebhook({
      url: d.url,
      secret: deps.secrets.open(d.secret, { table: 'webhook_endpoints', column: 'secret', id: d.endpoint_id }),
      messageId: d.id,
      body,
      allowPrivate,
      timeoutMs,
    });
  }
  if (d.kind === 'hl7-mllp') {
    const messages = hl7MessagesOf(d.event_type, d.event_data, d.id);
    if (typeof messages === 'string') return messages;
    return sendHl7Note({ url: d.url, messages, allowPrivate, timeoutMs });
  }
  let bundle;
  try {
    bundle = fhirBundleOf(d.event_type, d.event_data);
  } catch (err) {
    return { statusCode: null, durationMs: 0, error: (err as Error).message, permanent: true }; // no patient: dead
  }
  if (typeof bundle === 'string') return bundle;
  return sendFhirNote({
    url: d.url,
    bundle,
    client: d.auth as unknown as SmartClient,
    privateKey: deps.secrets.open(d.auth_private_key ?? '', { table: 'webhook_endpoints', column: 'auth_private_key', id: d.endpoint_id }),
    cacheKey: d.endpoint_id,
    tokens: state.tokens,
    allowPrivate,
    timeoutMs,
  });
}
