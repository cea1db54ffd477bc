import { Hl7Message } from '@medplum/core';
import type { NoteSignoff } from '../../outbound-events/note-signoff.js';
import { contentObx, ctx, esc, header, hl7Time, pid, pv1, segment, type Receiver } from './note-messages.js';

/**
 * TXA of a signed or amended note: TXA-12 the note id (the unique document number, the same as
 * in the MDM^T02, so the receiver updates that document), TXA-17 AU (authenticated), TXA-22 the
 * signer and the time of signature (PPN: component 1 the id, component 15 the time).
 */
function signedTxa(note: NoteSignoff, at: Date) {
  const doctor = note.doctor_id ? esc(note.doctor_id) : '';
  return segment('TXA', {
    1: '1',
    2: esc(note.template),
    3: 'TX',
    4: hl7Time(at),
    5: doctor,
    6: hl7Time(new Date(note.signed_at)),
    8: hl7Time(at),
    9: doctor,
    12: esc(note.note_id),
    17: 'AU',
    22: `${esc(note.signed_by)}${'^'.repeat(14)}${hl7Time(new Date(note.signed_at))}`,
  });
}

/**
 * `note.signed` as an MDM^T04 (document status change notification and content) or
 * `note.amended` as an MDM^T08 (document edit notification and content): the signed TXA and the
 * current text as OBX (OBX-11 F final, C corrected).
 */
export function noteSignoffMdm(note: NoteSignoff, controlId: string, at: Date, receiver: Receiver = {}): Hl7Message {
  const event = note.status === 'signed' ? 'T04' : 'T08';
  return new Hl7Message(
    [
      header(`MDM^${event}^MDM_T02`, controlId, note, at, receiver),
      segment('EVN', { 1: event, 2: hl7Time(at) }),
      pid(note),
      pv1(note),
      signedTxa(note, at),
      ...contentObx(note, note.status === 'signed' ? 'F' : 'C'),
    ],
    ctx,
  );
}

/**
 * The signed codes as DG1 of an ADT^A08: DG1-3 `code^title^I10`, DG1-5 the signature time,
 * DG1-6 F (final: the clinician's codes), DG1-15 the rank, DG1-16 the signer. Undefined when the
 * clinician signed no code.
 */
export function signedDiagnosesA08(note: NoteSignoff, controlId: string, at: Date, receiver: Receiver = {}): Hl7Message | undefined {
  if (note.signed_codes.length === 0) return undefined;
  const signedAt = hl7Time(new Date(note.signed_at));
  return new Hl7Message(
    [
      header('ADT^A08^ADT_A01', controlId, note, at, receiver),
      segment('EVN', { 1: 'A08', 2: hl7Time(at) }),
      pid(note),
      pv1(note),
      ...note.signed_codes.map((c, i) =>
        segment('DG1', {
          1: String(i + 1),
          3: `${esc(c.code, 20)}^${esc(c.description)}^I10`,
          4: esc(c.description),
          5: signedAt,
          6: 'F',
          15: String(i + 1),
          16: esc(note.signed_by),
        }),
      ),
    ],
    ctx,
  );
}
