import type { Hl7Message } from '@medplum/core';
import type { Bundle } from '@medplum/fhirtypes';
import { noteBundle } from '../../fhir/note-bundle.js';
import { noteSignoffBundle } from '../../fhir/note-signoff-bundle.js';
import { noteDiagnosesA08, noteMdmT02, type Receiver } from '../../hl7/note-messages.js';
import { noteSignoffMdm, signedDiagnosesA08 } from '../../hl7/note-signoff-messages.js';
import { noteReadySchema } from '../../../outbound-events/note-ready.js';
import { noteSignoffSchema } from '../../../outbound-events/note-signoff.js';
import { controlIdOf } from './send-hl7-mllp.js';

/**
 * The HL7 messages of a note event, in sending order, or a string: why it cannot be sent (the
 * delivery is cancelled). note.ready: MDM^T02 + ADT^A08 (codes W); note.signed: MDM^T04 + ADT^A08
 * (codes F); note.amended: MDM^T08. Control ids derive from the delivery id; MSH-5/MSH-6 name the receiver.
 */
export function hl7MessagesOf(type: string, data: unknown, deliveryId: string, receiver: Receiver = {}): Hl7Message[] | string {
  const now = new Date();
  const m = controlIdOf(deliveryId, 'M');
  const d = controlIdOf(deliveryId, 'D');
  if (type === 'note.ready') {
    const note = noteReadySchema.safeParse(data);
    if (!note.success) return 'note.ready payload lacks what an HL7 message needs';
    return [noteMdmT02(note.data, m, now, receiver), noteDiagnosesA08(note.data, d, now, receiver)].filter(
      (x): x is Hl7Message => x !== undefined,
    );
  }
  if (type === 'note.signed' || type === 'note.amended') {
    const note = noteSignoffSchema.safeParse(data);
    if (!note.success) return `${type} payload lacks what an HL7 message needs`;
    const a08 = type === 'note.signed' ? signedDiagnosesA08(note.data, d, now, receiver) : undefined;
    return [noteSignoffMdm(note.data, m, now, receiver), ...(a08 ? [a08] : [])];
  }
  return `${type} is not sent to hl7-mllp endpoints`;
}

/**
 * The FHIR transaction of a note event, or a string: why it is not theirs to send (the delivery
 * is cancelled). Throws for a note without its patient (a Condition needs its subject).
 */
export function fhirBundleOf(type: string, data: unknown): Bundle | string {
  if (type === 'note.ready') {
    const note = noteReadySchema.safeParse(data);
    return note.success ? noteBundle(note.data, new Date()) : 'note.ready payload lacks what a FHIR transaction needs';
  }
  if (type === 'note.signed' || type === 'note.amended') {
    const note = noteSignoffSchema.safeParse(data);
    return note.success ? noteSignoffBundle(note.data) : `${type} payload lacks what a FHIR transaction needs`;
  }
  return `${type} is not sent to fhir endpoints`;
}
