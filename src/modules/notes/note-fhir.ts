import { LOINC_PROGRESS_NOTE, renderNoteText } from './note-text.js';
import { isUuid } from '../../http/validate.js';
import type { DocumentReference, Reference } from '@medplum/fhirtypes';
import type { NoteRow } from './notes.repo.js';

/** A reference by business identifier to a Clinigate resource that has no FHIR resource type. */
function related(kind: string, id: string): Reference {
  return {
    identifier: isUuid(id)
      ? { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${id}`, type: { text: kind } }
      : { value: id, type: { text: kind } },
    display: `${kind} ${id}`,
  };
}

/**
 * FHIR R4 DocumentReference of a note: a progress note (LOINC 11506-3), `preliminary` while a
 * draft, `final` once signed (the signer its authenticator), `amended` after an amendment; subject
 * and author referenced by the x-patient and x-doctor identifiers, the text as a base64 attachment.
 */
export function toDocumentReference(row: NoteRow): DocumentReference {
  const relatedRefs: Reference[] = [];
  if (row.transcription_id) relatedRefs.push(related('transcription', row.transcription_id));
  if (row.report_thread_id) relatedRefs.push(related('thread', row.report_thread_id));
  for (const run of row.report_run_id) relatedRefs.push(related('run', run));

  const doc: DocumentReference = {
    resourceType: 'DocumentReference',
    id: row.id,
    meta: { versionId: String(row.version), lastUpdated: row.updated_at },
    identifier: [{ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${row.id}` }],
    status: 'current',
    docStatus: row.status === 'draft' ? 'preliminary' : row.status === 'signed' ? 'final' : 'amended',
    type: { coding: [LOINC_PROGRESS_NOTE], text: `${row.template} progress note` },
    date: row.updated_at,
    description: `${row.template} clinical note`,
    content: [
      {
        attachment: {
          contentType: 'text/plain; charset=utf-8',
          data: Buffer.from(renderNoteText(row), 'utf8').toString('base64'),
          title: `${row.template} progress note`,
          creation: row.created_at,
        },
      },
    ],
  };
  if (row.patient_id) doc.subject = { type: 'Patient', identifier: { value: row.patient_id } };
  if (row.doctor_id) doc.author = [{ type: 'Practitioner', identifier: { value: row.doctor_id } }];
  if (row.signed_by) doc.authenticator = { type: 'Practitioner', identifier: { value: row.signed_by } };
  if (relatedRefs.length > 0) doc.context = { related: relatedRefs };
  return doc;
}
