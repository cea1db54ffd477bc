import { z } from 'zod';
import { templateSchema } from '../../engine/templates.js';
import { isLanguageTag } from '../../lib/language-tag.js';
import { printableId } from '../../lib/printable-id.js';

/**
 * What the documentation pipeline is started with: the data of an EHR `encounter.transcript`
 * (and of an HL7 MDM/ORU, mapped to it when read). Here, with the pipeline that reads it, so the
 * event types import the pipeline and never the reverse.
 */
export const encounterTranscriptData = z.object({
  // Ids are printable (lib/printable-id.ts): they go back out in HL7 fields and FHIR identifiers.
  group_id: printableId(256),
  doctor_id: printableId(256),
  patient_id: printableId(256).optional(),
  // The assigning authority of patient_id (PID-3 CX.4, e.g. GENHOSP) and its FHIR identifier system.
  patient_authority: printableId(227).optional(),
  patient_system: printableId(500).optional(),
  // The visit (encounter) number in the EHR, e.g. PV1-19 of an HL7 message; echoed in note.ready.
  visit_id: printableId(256).optional(),
  transcript: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
  duration_seconds: z.number().finite().min(0),
  language: z.string().refine(isLanguageTag, 'must be a BCP 47 language tag').optional(),
  template: templateSchema.optional(),
});

export type EncounterTranscript = z.infer<typeof encounterTranscriptData>;
