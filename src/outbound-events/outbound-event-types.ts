/** DESIGN.md's outbound events: what the outbox records and the only types an endpoint may subscribe to. */
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
  'note.signed',
  'note.amended',
  'endpoint.failing',
  'endpoint.recovered',
] as const;

export type OutboundEventType = (typeof OUTBOUND_EVENT_TYPES)[number];
