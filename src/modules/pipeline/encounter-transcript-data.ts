import { z } from 'zod';
import { templateSchema } from '../../engine/templates.js';
import { isLanguageTag } from '../../lib/language-tag.js';

/**
 * What the documentation pipeline is started with: the data of an EHR `encounter.transcript`
 * (and of an HL7 MDM/ORU, mapped to it when read). Here, with the pipeline that reads it, so the
 * event types import the pipeline and never the reverse.
 */
export const encounterTranscriptData = z.object({
  group_id: z.string().trim().min(1).max(256),
  doctor_id: z.string().trim().min(1).max(256),
  patient_id: z.string().trim().min(1).max(256).optional(),
  // The visit (encounter) number in the EHR, e.g. PV1-19 of an HL7 message; echoed in note.ready.
  visit_id: z.string().trim().min(1).max(256).optional(),
  transcript: z.string().refine((s) => s.trim().length > 0, 'must not be empty'),
  duration_seconds: z.number().finite().min(0),
  language: z.string().refine(isLanguageTag, 'must be a BCP 47 language tag').optional(),
  template: templateSchema.optional(),
});

export type EncounterTranscript = z.infer<typeof encounterTranscriptData>;
