import type { AppDeps } from '../../../app-deps.js';
import type { SmartClient } from '../../fhir/smart-token.js';
import type { Receiver } from '../../hl7/note-messages.js';
import { noteReadySchema, type NoteReady } from '../../../outbound-events/note-ready.js';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import type { OutboundMessage } from './payload.js';
import { outboundRules, type OutboundRules } from './ssrf-guard.js';

interface Common {
  /** The delivery's id: the message id of a webhook, the control ids of HL7 messages. */
  deliveryId: string;
  endpointId: string;
  url: string;
  rules: OutboundRules;
}

/** One message and where it goes, with its secrets opened: all a transport is given (never a database row). */
export type OutboundDelivery =
  | (Common & { kind: 'webhook'; secret: string; thin: boolean; message: OutboundMessage })
  | (Common & { kind: 'hl7-mllp'; receiver: Receiver; note: NoteReady })
  | (Common & { kind: 'fhir'; client: SmartClient; privateKey: string; note: NoteReady });

/**
 * A claimed delivery as the message its endpoint's kind sends: the signed JSON event, or the
 * `note.ready` an HL7 or FHIR destination is sent (a string instead: why it cannot be sent, and
 * the delivery is cancelled).
 */
export function outboundDeliveryOf(deps: Pick<AppDeps, 'config' | 'secrets'>, d: ClaimedDelivery): OutboundDelivery | string {
  const common = {
    deliveryId: d.id,
    endpointId: d.endpoint_id,
    url: d.url,
    rules: outboundRules(deps.config, d.allow_private),
  };
  if (d.kind === 'webhook') {
    return {
      ...common,
      kind: 'webhook',
      secret: deps.secrets.open(d.secret, { table: 'webhook_endpoints', column: 'secret', id: d.endpoint_id }),
      thin: d.thin,
      message: { id: d.event_id, type: d.event_type, created_at: d.event_created_at, data: d.event_data },
    };
  }
  if (d.event_type !== 'note.ready') return `${d.event_type} is not sent to ${d.kind} endpoints`;
  const parsed = noteReadySchema.safeParse(d.event_data);
  if (!parsed.success) return 'note.ready payload lacks what an HL7 or FHIR message needs';
  if (d.kind === 'hl7-mllp') return { ...common, kind: 'hl7-mllp', receiver: {}, note: parsed.data };
  return {
    ...common,
    kind: 'fhir',
    client: d.auth as unknown as SmartClient,
    privateKey: deps.secrets.open(d.auth_private_key ?? '', { table: 'webhook_endpoints', column: 'auth_private_key', id: d.endpoint_id }),
    note: parsed.data,
  };
}
