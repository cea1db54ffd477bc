import type { AppDeps } from '../../../app-deps.js';
import { SmartTokenCache, type SmartClient } from '../../fhir/smart-token.js';
import { noteReadySchema } from '../../../outbound-events/note-ready.js';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
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
 * MDM^T02 (+ ADT^A08 with the codes) over MLLP (hl7-mllp), or a transaction Bundle under SMART
 * Backend Services (fhir). The last two carry `note.ready` only; anything else is not theirs to
 * send (a string: the reason the delivery is cancelled).
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
  if (d.event_type !== 'note.ready') return `${d.event_type} is not sent to ${d.kind} endpoints`;
  const parsed = noteReadySchema.safeParse(d.event_data);
  if (!parsed.success) return 'note.ready payload lacks what an HL7 or FHIR message needs';
  if (d.kind === 'hl7-mllp') return sendHl7Note({ url: d.url, note: parsed.data, deliveryId: d.id, allowPrivate, timeoutMs });
  return sendFhirNote({
    url: d.url,
    note: parsed.data,
    client: d.auth as unknown as SmartClient,
    privateKey: deps.secrets.open(d.auth_private_key ?? '', { table: 'webhook_endpoints', column: 'auth_private_key', id: d.endpoint_id }),
    cacheKey: d.endpoint_id,
    tokens: state.tokens,
    allowPrivate,
    timeoutMs,
  });
}
