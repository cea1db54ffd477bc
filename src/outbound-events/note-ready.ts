import { z } from 'zod';

/**
 * The patient id's assigning authority (HL7 PID-3 CX.4) and its FHIR identifier system, when the
 * sender named one: carried by every note event (note.ready, note.signed, note.amended), so the
 * HL7 and FHIR builders keep the id in its namespace (DESIGN 2026-11-26). Null by default, so a
 * payload recorded before they existed still reads.
 */
export const patientAuthorityFields = {
  patient_authority: z.string().nullable().optional().default(null),
  patient_system: z.string().nullable().optional().default(null),
};

/**
 * The identifier system of an assigning authority no map names (PID-3 CX.4 `GENHOSP` ->
 * `urn:clinigate:authority:GENHOSP`): what the HL7 intake records as `patient_system` when the
 * sender's integration maps none, and what the FHIR builder falls back to for a payload without it.
 */
export const authorityUrn = (authority: string) => `urn:clinigate:authority:${encodeURIComponent(authority)}`;

/** A code as the codification gave it: code and description read by HL7 (DG1) and FHIR (Condition); the rest kept as sent. */
const codeAssessment = z.looseObject({ code: z.string(), description: z.string().optional().default('') });

/**
 * `note.ready`, the one contract of the event: the pipeline records its data through this schema
 * (pipeline/advance-pipeline.ts), and the webhook, HL7 and FHIR builders read it through the same
 * one at delivery. The person and visit ids default to null, so a payload recorded before they
 * existed still reads. The schemas of the other outbound events that carry a note (sign-off) sit beside it.
 */
export const noteReadySchema = z.object({
  /** The inbound event's id as its sender gave it. */
  event_id: z.string(),
  correlation_id: z.string(),
  group_id: z.string(),
  // Who and which visit the note is about: what HL7 and FHIR destinations address it by.
  patient_id: z.string().nullable().optional().default(null),
  ...patientAuthorityFields,
  doctor_id: z.string().nullable().optional().default(null),
  visit_id: z.string().nullable().optional().default(null),
  note_id: z.string(),
  transcription_id: z.string(),
  thread_id: z.string(),
  run_id: z.string(),
  codify_run_id: z.string(),
  template: z.string(),
  ai_generated_content: z.record(z.string(), z.string()),
  final_code_assessments: z.array(codeAssessment).default([]),
});

export type NoteReady = z.infer<typeof noteReadySchema>;
