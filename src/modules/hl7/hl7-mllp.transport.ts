import type { Hl7Message } from '@medplum/core';
import { noteReadySchema } from '../../outbound-events/note-ready.js';
import { noteSignoffSchema } from '../../outbound-events/note-signoff.js';
import { refusedAs, type Built, type OutboundTransport } from '../outbound-webhooks/transport/outbound-transport.js';
import { MllpClientPool } from './mllp-client.js';
import { noteDiagnosesA08, noteMdmT02, type Receiver } from './note-messages.js';
import { noteSignoffMdm, signedDiagnosesA08 } from './note-signoff-messages.js';
import { controlIdOf, resolveMllpUrl, sendHl7Note } from './send-hl7-mllp.js';

/**
 * The HL7 messages of a note event, in sending order, or why it cannot be sent (the delivery is
 * cancelled). note.ready: MDM^T02 + ADT^A08 (codes W); note.signed: MDM^T04 + ADT^A08 (codes F);
 * note.amended: MDM^T08. Control ids derive from the delivery id; MSH-5/MSH-6 name the receiver.
 */
export function hl7MessagesOf(type: string, data: unknown, deliveryId: string, receiver: Receiver = {}): Built<Hl7Message[]> {
  const now = new Date();
  const m = controlIdOf(deliveryId, 'M');
  const d = controlIdOf(deliveryId, 'D');
  if (type === 'note.ready') {
    const note = noteReadySchema.safeParse(data);
    if (!note.success) return { cancel: 'note.ready payload lacks what an HL7 message needs' };
    const messages = [noteMdmT02(note.data, m, now, receiver), noteDiagnosesA08(note.data, d, now, receiver)];
    return { send: messages.filter((x): x is Hl7Message => x !== undefined) };
  }
  if (type === 'note.signed' || type === 'note.amended') {
    const note = noteSignoffSchema.safeParse(data);
    if (!note.success) return { cancel: `${type} payload lacks what an HL7 message needs` };
    const a08 = type === 'note.signed' ? signedDiagnosesA08(note.data, d, now, receiver) : undefined;
    return { send: [noteSignoffMdm(note.data, m, now, receiver), ...(a08 ? [a08] : [])] };
  }
  return { cancel: `${type} is not sent to hl7-mllp endpoints` };
}

/** The `hl7-mllp` kind: a note event's HL7 v2 messages over MLLP (or MLLP over TLS), each waiting for its ACK, on a kept connection per destination. */
export const hl7MllpTransport: OutboundTransport<Hl7Message[], MllpClientPool> = {
  kind: 'hl7-mllp',
  build: (d, _open) =>
    hl7MessagesOf(d.event_type, d.event_data, d.id, {
      application: d.receiving_application ?? null,
      facility: d.receiving_facility ?? null,
    }),
  newState: () => new MllpClientPool(),
  send: (to, messages, timeoutMs, connections) => sendHl7Note({ url: to.url, messages, rules: to.rules, timeoutMs, connections }),
  checkDestination: ({ url }, rules) => refusedAs('url', resolveMllpUrl(url, rules)),
};
