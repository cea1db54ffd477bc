import { noteReadySchema } from '../../../outbound-events/note-ready.js';

/** The outbound message body: `{id, type, created_at, data}`, serialised once and signed as sent. */
export interface OutboundMessage {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** Identifiers of people and visits (PHI): never in a thin payload, whose receiver fetches what it needs. */
const PERSON_IDS = new Set(['patient_id', 'doctor_id', 'visit_id']);

/** Thin endpoints get only the resource ids: keys ending in `_id` (with `group_id`), not a patient's or a visit's. */
export function thinData(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => key.endsWith('_id') && !PERSON_IDS.has(key)));
}

/** The event's data as its contract reads it (note.ready: noteReadySchema); data no contract describes goes as recorded. */
function contractData(type: string, data: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'note.ready') return data;
  const parsed = noteReadySchema.safeParse(data);
  return parsed.success ? parsed.data : data;
}

export function messageBody(message: OutboundMessage, thin: boolean): string {
  const data = contractData(message.type, message.data);
  return JSON.stringify({ ...message, data: thin ? thinData(data) : data });
}
