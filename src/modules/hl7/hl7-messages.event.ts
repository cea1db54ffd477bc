import { z } from 'zod';
import { ADT_TYPES, TRANSCRIPT_TYPES } from './hl7-event.js';
import type { InboundEventType } from '../inbound-events/inbound-event-type.js';
import { pipelineProgress } from '../pipeline/documentation-pipelines.repo.js';
import { startPipeline } from '../pipeline/start-pipeline.js';

/**
 * HL7 v2 messages received over MLLP (modules/hl7). They are validated and mapped when
 * read, so `data` here is what the listener stored: an MDM^T02 or ORU^R01 is an
 * `encounter.transcript` and runs the same documentation pipeline; an ADT is only kept.
 */
const stored = z.looseObject({ group_id: z.string() });

const transcriptType = (type: string): InboundEventType => ({
  source: 'hl7',
  type,
  data: stored,
  groupId: (data: { group_id: string }) => data.group_id,
  process: (deps, event) => startPipeline(deps, event),
  progress: pipelineProgress,
});

const adtType = (type: string): InboundEventType => ({
  source: 'hl7',
  type,
  data: stored,
  groupId: (data: { group_id: string }) => data.group_id,
  process: async () => {},
});

export const hl7EventTypes: InboundEventType[] = [...TRANSCRIPT_TYPES.map(transcriptType), ...ADT_TYPES.map(adtType)];
