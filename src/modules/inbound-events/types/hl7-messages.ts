import { z } from 'zod';
import { startDocumentationPipeline } from '../../pipeline/advance-pipeline.js';
import type { InboundEventType } from '../inbound-event-type.js';

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
  process: (deps, event) => startDocumentationPipeline(deps, event),
});

const adtType = (type: string): InboundEventType => ({
  source: 'hl7',
  type,
  data: stored,
  groupId: (data: { group_id: string }) => data.group_id,
  process: async () => {},
});

export const hl7EventTypes: InboundEventType[] = [
  transcriptType('MDM^T02'),
  transcriptType('ORU^R01'),
  adtType('ADT^A01'),
  adtType('ADT^A04'),
  adtType('ADT^A08'),
];
