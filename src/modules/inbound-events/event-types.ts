import type { WebhookSource } from './envelope.js';
import type { InboundEventType } from './inbound-event-type.js';
import { callEventTypes } from './types/call-events.js';
import { catalogEventTypes } from './types/catalog.js';
import { encounterTranscriptType } from './types/encounter-transcript.js';
import { hl7EventTypes } from './types/hl7-messages.js';

export type { InboundEventType };

const TYPES: InboundEventType[] = [encounterTranscriptType, ...catalogEventTypes, ...callEventTypes, ...hl7EventTypes];

export function eventTypeFor(source: WebhookSource, type: string): InboundEventType | undefined {
  return TYPES.find((t) => t.source === source && t.type === type);
}
