import { noteSignoffSchema, type NoteSignoff, type NoteSignoffEvent } from '../../outbound-events/note-signoff.js';
import type { Queryable } from '../../db/pool.js';
import { recordEvent, type OutboundEvent } from '../../outbound-events/outbox.repo.js';
import { lastCodificationCodes, notePatientAuthority, type NoteRow, type PatientAuthority } from './notes.repo.js';

/**
 * The event of a signature or an amendment of `row` (its current version); `patient` is the
 * patient id's namespace as note.ready carried it (notePatientAuthority).
 */
export function signoffEvent(
  type: NoteSignoffEvent,
  row: NoteRow,
  patient: PatientAuthority,
  suggested: { code: string }[] = [],
): OutboundEvent {
  const signedCodes = row.signed_codes ?? [];
  const kept = new Set(signedCodes.map((c) => c.code));
  const data: NoteSignoff = noteSignoffSchema.parse({
    note_id: row.id,
    group_id: row.group_id,
    version: row.version,
    status: row.status,
    patient_id: row.patient_id,
    patient_authority: patient.patient_authority,
    patient_system: patient.patient_system,
    visit_id: row.visit_id,
    doctor_id: row.doctor_id,
    signed_by: row.signed_by,
    signed_at: row.signed_at,
    signed_codes: signedCodes,
    dropped_codes: suggested.filter((c) => !kept.has(c.code)),
    amendment_reason: row.amendment_reason,
    changed_at: row.updated_at,
    template: row.template,
    ai_generated_content: row.ai_generated_content,
  });
  return { type, groupId: row.group_id, data };
}

/** Records the `note.amended` of an amendment (applyNoteChange's `amended`), after its `note.updated`, in the caller's transaction. */
export async function recordAmendment(tx: Queryable, row: NoteRow): Promise<void> {
  const patient = await notePatientAuthority(tx, row.id);
  await recordEvent(tx, signoffEvent('note.amended', row, patient, (await lastCodificationCodes(tx, row.id)) ?? []));
}
