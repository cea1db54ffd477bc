import { z } from 'zod';
import { isLanguageTag } from '../../../lib/language-tag.js';
import { templateSchema } from '../../../engine/templates.js';
import { runDocumentationPipeline } from '../../pipeline/run-pipeline.js';
import type { InboundEventType } from '../event-types.js';

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

/** EHR `encounter.transcript`: starts the documentation pipeline for the event's group. */
export const encounterTranscriptType: InboundEventType<EncounterTranscript> = {
  source: 'ehr',
  type: 'encounter.transcript',
  data: encounterTranscriptData,
  groupId: (data) => data.group_id,
  process: (deps, event) => runDocumentationPipeline(deps, event),
};
