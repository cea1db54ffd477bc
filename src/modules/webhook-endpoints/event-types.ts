import type { OutboundEventType } from '../outbox/outbox.repo.js';

/** DESIGN.md's outbound events: the only types an endpoint may subscribe to. */
export const OUTBOUND_EVENT_TYPES = [
  'transcription.created',
  'run.completed',
  'run.failed',
  'note.created',
  'note.updated',
  'note.ready',
  'codify.completed',
  'call.updated',
  'call.completed',
] as const satisfies readonly OutboundEventType[];
