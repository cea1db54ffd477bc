import { z } from 'zod';
import { patientAuthorityFields } from './note-ready.js';

/** A code the clinician kept (or dropped) at signature, with its title in the code table. */
const code = z.object({ code: z.string(), description: z.string() });

/**
 * `note.signed` and `note.amended`, one contract for both: the notes module records their data
 * through this schema (notes/signoff-event.ts), and the HL7 and FHIR builders read it through the
 * same one at delivery (thin webhook endpoints keep the ids only). Who and which visit the note
 * is about (the patient id in its namespace), the version and status, the signature, the signed codes and those of the last
 * codification the clinician dropped, and the content.
 */
export const noteSignoffSchema = z.object({
  note_id: z.string(),
  group_id: z.string(),
  version: z.number().int(),
  status: z.enum(['signed', 'amended']),
  patient_id: z.string().nullable(),
  /** PID-3's assigning authority and identifier system, as in note.ready (the pipeline's inbound event). */
  ...patientAuthorityFields,
  visit_id: z.string().nullable(),
  doctor_id: z.string().nullable(),
  signed_by: z.string(),
  signed_at: z.string(),
  signed_codes: z.array(code),
  /** The last codification's final codes the clinician did not keep (provisional Conditions to refute). */
  dropped_codes: z.array(code),
  amendment_reason: z.string().nullable(),
  /** When this version was written: the signature's time, or the amendment's. */
  changed_at: z.string(),
  template: z.string(),
  ai_generated_content: z.record(z.string(), z.string()),
});

export type NoteSignoff = z.infer<typeof noteSignoffSchema>;

export const NOTE_SIGNOFF_EVENTS = ['note.signed', 'note.amended'] as const;
export type NoteSignoffEvent = (typeof NOTE_SIGNOFF_EVENTS)[number];

/** The note events HL7 and FHIR destinations take (a document, its signature, its amendment). */
export const NOTE_EVENTS = ['note.ready', ...NOTE_SIGNOFF_EVENTS] as const;
