import { Hl7Context, Hl7Message, Hl7Segment } from '@medplum/core';
import { TEMPLATE_FIELDS, type Template } from '../../engine/templates.js';
import { escapeHl7 } from './hl7-escape.js';
import type { NoteReady } from '../../outbound-events/note-ready.js';

export const ctx = new Hl7Context();
export const esc = (value: string | null | undefined, max = 250) => escapeHl7((value ?? '').slice(0, max), ctx);

/** HL7 DTM to the second, UTC (the `+0000` makes the zone explicit). */
export function hl7Time(at: Date): string {
  return `${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

/** A segment from its numbered fields (values already escaped where they carry text). */
export function segment(name: string, fields: Record<number, string>): Hl7Segment {
  const last = Math.max(...Object.keys(fields).map(Number));
  return new Hl7Segment([name, ...Array.from({ length: last }, (_, i) => fields[i + 1] ?? '')], ctx);
}

/** MSH-5 / MSH-6 of what Clinigate sends: the endpoint's receiving application and facility. */
export interface Receiver {
  application?: string | null;
  facility?: string | null;
}

export function header(type: string, controlId: string, note: Pick<NoteReady, 'group_id'>, at: Date, receiver: Receiver = {}): Hl7Segment {
  // new Hl7Segment counts MSH-1 (the separator) as a field of its own: key n is MSH-(n+1).
  return segment('MSH', {
    1: '^~\\&',
    2: 'CLINIGATE',
    3: esc(note.group_id, 180),
    4: esc(receiver.application, 227),
    5: esc(receiver.facility, 227),
    6: hl7Time(at),
    8: type,
    9: controlId,
    10: 'P',
    11: '2.5',
    14: 'AL',
    15: 'NE',
    17: 'UNICODE UTF-8',
  });
}

/** Who a note event is about: the patient id and its assigning authority (every note event carries both). */
type NotePatient = Pick<NoteReady, 'patient_id' | 'patient_authority'>;

/** PID-3 as CX: the id, its assigning authority (CX.4) when the note has one, identifier type MR. */
export const patientCx = (note: NotePatient) => (note.patient_id ? `${esc(note.patient_id)}^^^${esc(note.patient_authority, 227)}^MR` : '');

/** The PID of every note message (note.ready's MDM^T02 and A08, the sign-off's MDM^T04/T08 and A08). */
export const pid = (note: NotePatient) => segment('PID', { 1: '1', 3: patientCx(note) });
export const pv1 = (note: Pick<NoteReady, 'doctor_id' | 'visit_id'>) =>
  segment('PV1', { 1: '1', 2: 'U', 7: note.doctor_id ? esc(note.doctor_id) : '', 19: note.visit_id ? esc(note.visit_id) : '' });

/**
 * One OBX per line of each section, template order: OBX-2 TX, OBX-3 the section, OBX-4 its
 * position, OBX-5 the line (escaped), OBX-11 the result status (P preliminary, F final, C corrected).
 */
export function contentObx(note: Pick<NoteReady, 'template' | 'ai_generated_content'>, status: 'P' | 'F' | 'C'): Hl7Segment[] {
  const fields = TEMPLATE_FIELDS[note.template as Template] ?? Object.keys(note.ai_generated_content);
  const obx: Hl7Segment[] = [];
  fields.forEach((field, sectionIndex) => {
    const lines = (note.ai_generated_content[field] ?? '').split(/\r\n|\r|\n/);
    for (const line of lines) {
      obx.push(
        segment('OBX', {
          1: String(obx.length + 1),
          2: 'TX',
          3: `${field.toUpperCase()}^${field[0].toUpperCase()}${field.slice(1)}^CLINIGATE`,
          4: String(sectionIndex + 1),
          5: esc(line, 65_536),
          11: status,
        }),
      );
    }
  });
  return obx;
}

/**
 * `note.ready` as an MDM^T02 (original document notification and content): TXA-12 is the note id,
 * TXA-17 DO (documented, not yet authenticated: the note is an AI draft awaiting the doctor), and
 * one OBX per line of each section, OBX-3 naming the section and OBX-4 its position.
 */
export function noteMdmT02(note: NoteReady, controlId: string, at: Date, receiver: Receiver = {}): Hl7Message {
  const obx = contentObx(note, 'P');
  const doctor = note.doctor_id ? esc(note.doctor_id) : '';
  return new Hl7Message(
    [
      header('MDM^T02^MDM_T02', controlId, note, at, receiver),
      segment('EVN', { 1: 'T02', 2: hl7Time(at) }),
      pid(note),
      pv1(note),
      segment('TXA', {
        1: '1',
        2: esc(note.template),
        3: 'TX',
        4: hl7Time(at),
        5: doctor,
        6: hl7Time(at),
        9: doctor,
        12: esc(note.note_id),
        17: 'DO',
      }),
      ...obx,
    ],
    ctx,
  );
}

/**
 * The final codes as DG1 segments of an ADT^A08 (update patient information), the message type
 * hospital interfaces take diagnoses in. DG1-3 `code^title^I10` (HL7 table 0396: ICD-10), DG1-6
 * W (working: the codes are suggestions until coded by the hospital), DG1-15 the rank. Empty
 * PID/PV1 fields mean "no change" in HL7, so the update touches nothing else. Undefined
 * when there are no codes.
 */
export function noteDiagnosesA08(note: NoteReady, controlId: string, at: Date, receiver: Receiver = {}): Hl7Message | undefined {
  if (note.final_code_assessments.length === 0) return undefined;
  return new Hl7Message(
    [
      header('ADT^A08^ADT_A01', controlId, note, at, receiver),
      segment('EVN', { 1: 'A08', 2: hl7Time(at) }),
      pid(note),
      pv1(note),
      ...note.final_code_assessments.map((c, i) =>
        segment('DG1', {
          1: String(i + 1),
          3: `${esc(c.code, 20)}^${esc(c.description)}^I10`,
          4: esc(c.description),
          5: hl7Time(at),
          6: 'W',
          15: String(i + 1),
        }),
      ),
    ],
    ctx,
  );
}
