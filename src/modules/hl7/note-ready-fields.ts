import { z } from 'zod';

/**
 * What HL7 and FHIR destinations need from a `note.ready` payload (the full one: these kinds are
 * never thin). Parsed, so a payload from before these fields existed reads as nulls.
 */
export const noteReadySchema = z.object({
  note_id: z.string(),
  group_id: z.string(),
  template: z.string(),
  ai_generated_content: z.record(z.string(), z.string()),
  final_code_assessments: z.array(z.object({ code: z.string(), description: z.string().optional().default('') })).default([]),
  patient_id: z.string().nullable().optional().default(null),
  doctor_id: z.string().nullable().optional().default(null),
  visit_id: z.string().nullable().optional().default(null),
});

export type NoteReady = z.infer<typeof noteReadySchema>;
