import { callEventTypes } from './modules/calls/call.event.js';
import { catalogEventTypes } from './modules/centers/catalog.event.js';
import { hl7EventTypes } from './modules/hl7/hl7-messages.event.js';
import { InboundEventTypes, type InboundEventType } from './modules/inbound-events/inbound-event-type.js';
import { encounterTranscriptType } from './modules/pipeline/encounter-transcript.event.js';

/**
 * Every inbound event type of the service, each declared by the module that handles it
 * (`<type>.event.ts`: source, type, data schema, group and work), as job-registry.ts lists the
 * jobs. The intake (modules/inbound-events) knows none of them: it is given this list.
 */
export const EVENT_TYPES: InboundEventType[] = [encounterTranscriptType, ...catalogEventTypes, ...callEventTypes, ...hl7EventTypes];

export const eventTypes = new InboundEventTypes(EVENT_TYPES);
