import type { Bundle, BundleEntry, Condition, DocumentReference, Encounter, Patient, Reference } from '@medplum/fhirtypes';
import { TEMPLATE_FIELDS, type Template } from '../../engine/templates.js';
import type { NoteReady } from '../../outbound-events/note-ready.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { LOINC_PROGRESS_NOTE, renderNoteText } from './note-text.js';

export const ICD10CM_SYSTEM = 'http://hl7.org/fhir/sid/icd-10-cm';
const URI = 'urn:ietf:rfc:3986';

/** The business identifier a resource is created under, and the conditional create on it. */
const identifierOf = (id: string) => ({ system: URI, value: `urn:uuid:${id}` });
const ifNoneExist = (id: string) => `identifier=${URI}|urn:uuid:${id}`;

/** The identifier system of an assigning authority no map names (PID-3 CX.4 `GENHOSP` -> `urn:clinigate:authority:GENHOSP`). */
export const authorityUrn = (authority: string) => `urn:clinigate:authority:${encodeURIComponent(authority)}`;

const patientSystem = (note: NoteReady) =>
  note.patient_system ?? (note.patient_authority ? authorityUrn(note.patient_authority) : undefined);

/**
 * `note.ready` as a FHIR R4 transaction: one DocumentReference (the note as text/plain, LOINC
 * 11506-3 progress note, docStatus preliminary, the patient by identifier, the visit as the
 * encounter) and one Condition per final code (encounter-diagnosis, ICD-10-CM, provisional).
 * Every entry is a conditional create on an identifier derived from the note id, so a retry or
 * a replay finds what the first one made and creates nothing twice.
 */
export function noteBundle(note: NoteReady, at: Date): Bundle {
  if (!note.patient_id) throw new Error('note.ready has no patient_id: a FHIR Condition needs its subject');
  // The patient by business identifier, in its namespace (DESIGN 2026-11-26): an MRN is only unique within its authority.
  const patient: Reference<Patient> = {
    type: 'Patient',
    identifier: { ...(patientSystem(note) ? { system: patientSystem(note) } : {}), value: note.patient_id },
  };
  const encounter: Reference<Encounter> | undefined = note.visit_id
    ? { type: 'Encounter', identifier: { value: note.visit_id } }
    : undefined;
  const text = renderNoteText({ template: note.template as Template, ai_generated_content: note.ai_generated_content });
  const known = note.template in TEMPLATE_FIELDS;

  const document: DocumentReference = {
    resourceType: 'DocumentReference',
    identifier: [identifierOf(note.note_id)],
    status: 'current',
    docStatus: 'preliminary',
    type: { coding: [LOINC_PROGRESS_NOTE], text: known ? `${note.template} progress note` : 'Progress note' },
    subject: patient,
    date: at.toISOString(),
    ...(note.doctor_id ? { author: [{ type: 'Practitioner', identifier: { value: note.doctor_id } }] } : {}),
    description: `${note.template} clinical note (AI draft)`,
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
  const entries: BundleEntry[] = [
    {
      fullUrl: `urn:uuid:${note.note_id}`,
      resource: document,
      request: { method: 'POST', url: 'DocumentReference', ifNoneExist: ifNoneExist(note.note_id) },
    },
  ];
  for (const assessment of note.final_code_assessments) {
    const id = derivedUuid('fhir-condition', note.note_id, assessment.code);
    const condition: Condition = {
      resourceType: 'Condition',
      identifier: [identifierOf(id)],
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'provisional' }] },
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
      code: {
        coding: [{ system: ICD10CM_SYSTEM, code: assessment.code, ...(assessment.description ? { display: assessment.description } : {}) }],
      },
      subject: patient,
      ...(encounter ? { encounter } : {}),
      recordedDate: at.toISOString(),
      evidence: [{ detail: [{ reference: `urn:uuid:${note.note_id}` }] }],
    };
    entries.push({
      fullUrl: `urn:uuid:${id}`,
      resource: condition,
      request: { method: 'POST', url: 'Condition', ifNoneExist: ifNoneExist(id) },
    });
  }
  return { resourceType: 'Bundle', type: 'transaction', entry: entries };
}
