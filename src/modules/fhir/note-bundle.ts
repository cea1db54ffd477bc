import type { Bundle, BundleEntry, Condition, DocumentReference, Encounter, Patient, Reference } from '@medplum/fhirtypes';
import { TEMPLATE_FIELDS, type Template } from '../../engine/templates.js';
import { authorityUrn, type NoteReady } from '../../outbound-events/note-ready.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { LOINC_PROGRESS_NOTE, renderNoteText } from '../notes/note-text.js';

export const ICD10CM_SYSTEM = 'http://hl7.org/fhir/sid/icd-10-cm';
const URI = 'urn:ietf:rfc:3986';

/** The business identifier a resource is created under, and the search on it (conditional create or update). */
export const identifierOf = (id: string) => ({ system: URI, value: `urn:uuid:${id}` });
export const identifierQuery = (id: string) => `identifier=${URI}|urn:uuid:${id}`;
/** The Condition of one code of one note: the same identifier in note.ready and in the sign-off. */
export const conditionId = (noteId: string, code: string) => derivedUuid('fhir-condition', noteId, code);

/** What the note's FHIR resources are built from (note.ready or a sign-off event). */
export interface NoteSubject {
  note_id: string;
  template: string;
  ai_generated_content: Record<string, string>;
  patient_id: string | null;
  /** The patient id's assigning authority (PID-3 CX.4) and its identifier system, when known (every note event carries them). */
  patient_authority: string | null;
  patient_system: string | null;
  doctor_id: string | null;
  visit_id: string | null;
}

const patientSystem = (note: NoteSubject) =>
  note.patient_system ?? (note.patient_authority ? authorityUrn(note.patient_authority) : undefined);

export function subjectRefs(note: NoteSubject): { patient: Reference<Patient>; encounter?: Reference<Encounter> } {
  if (!note.patient_id) throw new Error('the note has no patient_id: a FHIR Condition needs its subject');
  return {
    // By business identifier, in its namespace (DESIGN 2026-11-26): an MRN is only unique within its authority.
    patient: { type: 'Patient', identifier: { ...(patientSystem(note) ? { system: patientSystem(note) } : {}), value: note.patient_id } },
    encounter: note.visit_id ? { type: 'Encounter', identifier: { value: note.visit_id } } : undefined,
  };
}

/** The note as a DocumentReference (text/plain, LOINC 11506-3 progress note) in the given docStatus. */
export function noteDocument(note: NoteSubject, at: Date, docStatus: 'preliminary' | 'final' | 'amended'): DocumentReference {
  const { patient, encounter } = subjectRefs(note);
  const text = renderNoteText({ template: note.template as Template, ai_generated_content: note.ai_generated_content });
  const known = note.template in TEMPLATE_FIELDS;
  return {
    resourceType: 'DocumentReference',
    identifier: [identifierOf(note.note_id)],
    status: 'current',
    docStatus,
    type: { coding: [LOINC_PROGRESS_NOTE], text: known ? `${note.template} progress note` : 'Progress note' },
    subject: patient,
    date: at.toISOString(),
    ...(note.doctor_id ? { author: [{ type: 'Practitioner', identifier: { value: note.doctor_id } }] } : {}),
    description: `${note.template} clinical note${docStatus === 'preliminary' ? ' (AI draft)' : ''}`,
    content: [
      {
        attachment: {
          contentType: 'text/plain; charset=utf-8',
          data: Buffer.from(text, 'utf8').toString('base64'),
          title: `${note.template} progress note`,
        },
      },
    ],
    ...(encounter ? { context: { encounter: [encounter] } } : {}),
  };
}

/**
 * An encounter-diagnosis Condition of one ICD-10-CM code of the note: `provisional` (the engine's
 * suggestion, active), `confirmed` (signed, active) or `refuted` (dropped by the clinician: no
 * clinical status, which R4 allows outside the problem list).
 */
export function noteCondition(
  note: NoteSubject,
  code: { code: string; description?: string },
  verification: 'provisional' | 'confirmed' | 'refuted',
  at: Date,
): Condition {
  const { patient, encounter } = subjectRefs(note);
  return {
    resourceType: 'Condition',
    identifier: [identifierOf(conditionId(note.note_id, code.code))],
    ...(verification === 'refuted'
      ? {}
      : { clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] } }),
    verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: verification }] },
    category: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/condition-category',
            code: 'encounter-diagnosis',
            display: 'Encounter Diagnosis',
          },
        ],
      },
    ],
    code: { coding: [{ system: ICD10CM_SYSTEM, code: code.code, ...(code.description ? { display: code.description } : {}) }] },
    subject: patient,
    ...(encounter ? { encounter } : {}),
    recordedDate: at.toISOString(),
    evidence: [{ detail: [{ reference: `urn:uuid:${note.note_id}` }] }],
  };
}

/**
 * `note.ready` as a FHIR R4 transaction: one DocumentReference (docStatus preliminary, the
 * patient by identifier, the visit as the encounter) and one provisional Condition per final
 * code. Every entry is a conditional create on an identifier derived from the note id, so a
 * retry or a replay finds what the first one made and creates nothing twice.
 */
export function noteBundle(note: NoteReady, at: Date): Bundle {
  const entries: BundleEntry[] = [
    {
      fullUrl: `urn:uuid:${note.note_id}`,
      resource: noteDocument(note, at, 'preliminary'),
      request: { method: 'POST', url: 'DocumentReference', ifNoneExist: identifierQuery(note.note_id) },
    },
  ];
  for (const assessment of note.final_code_assessments) {
    const id = conditionId(note.note_id, assessment.code);
    entries.push({
      fullUrl: `urn:uuid:${id}`,
      resource: noteCondition(note, assessment, 'provisional', at),
      request: { method: 'POST', url: 'Condition', ifNoneExist: identifierQuery(id) },
    });
  }
  return { resourceType: 'Bundle', type: 'transaction', entry: entries };
}
