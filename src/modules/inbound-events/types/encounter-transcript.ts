import { encounterTranscriptData, type EncounterTranscript } from '../../pipeline/encounter-transcript-data.js';
import { startDocumentationPipeline } from '../../pipeline/advance-pipeline.js';
import type { InboundEventType } from '../inbound-event-type.js';

export { encounterTranscriptData, type EncounterTranscript };

/** EHR `encounter.transcript`: starts the documentation pipeline for the event's group. */
export const encounterTranscriptType: InboundEventType<EncounterTranscript> = {
  source: 'ehr',
  type: 'encounter.transcript',
  data: encounterTranscriptData,
  groupId: (data) => data.group_id,
  process: (deps, event) => startDocumentationPipeline(deps, event),
};
