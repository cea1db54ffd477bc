import type { InboundEventType } from '../inbound-events/inbound-event-type.js';
import { pipelineProgress } from './documentation-pipelines.repo.js';
import { encounterTranscriptData, type EncounterTranscript } from './encounter-transcript-data.js';
import { startPipeline } from './start-pipeline.js';

/** EHR `encounter.transcript`: starts the documentation pipeline for the event's group; its state is the pipeline's. */
export const encounterTranscriptType: InboundEventType<EncounterTranscript> = {
  source: 'ehr',
  type: 'encounter.transcript',
  data: encounterTranscriptData,
  groupId: (data) => data.group_id,
  process: (deps, event) => startPipeline(deps, event),
  progress: pipelineProgress,
};
