import { z } from 'zod';
import type { OutboundEvent } from '../outbound-webhooks/outbox/outbox.repo.js';
import type { NoteRow } from './notes.repo.js';

const signedCode = z.object({ code: z.string(), description: z.string() });

/**
 * The data of `note.signed` and `note.amended`: who and which visit the note is about, the
 * version and status, the signature and the signed codes, and the content. The recorder builds
 * it with this schema, the HL7 and FHIR builders read it with the same one (thin webhook
 * endpoints keep the ids only).
 */
export const noteSignoffSchema = z.object({
  note_id: z.string(),
  group_id: z.string(),
  version: z.number().int(),
  status: z.enum(['signed', 'amended']),
  patient_id: z.string().nullable(),
  visit_id: z.string().nullable(),
  doctor_id: z.string().nullable(),
  signed_by: z.string(),
  signed_at: z.string(),
  signed_codes: z.array(signedCode),
  /** The draft's codes the clinician did not keep (provisional Conditions to refute). */
  dropped_codes: z.array(signedCode),
  amendment_reason: z.string().nullable(),
  /** When this version was written: the signature's time, or the amendment's. */
  changed_at: z.string(),
  template: z.string(),
  ai_generated_content: z.record(z.string(), z.string()),
});

export type NoteSignoff = z.infer<typeof noteSignoffSchema>;

/** The event of a signature or an amendment of `row` (its current version). */
export function signoffEvent(type: 'note.signed' | 'note.amended', row: NoteRow, suggested: { code: string }[] = []): OutboundEvent {
  const signedCodes = row.signed_codes ?? [];
  const kept = new Set(signedCodes.map((c) => c.code));
  const data: NoteSignoff = noteSignoffSchema.parse({
    note_id: row.id,
    group_id: row.group_id,
    version: row.version,
    status: row.status,
    patient_id: row.patient_id,
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
