/** The outbound message body: `{id, type, created_at, data}`, serialised once and signed as sent. */
export interface OutboundMessage {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** Thin endpoints get only the ids: keys ending in `_id`, which includes `group_id`. */
export function thinData(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => key.endsWith('_id')));
}

export function messageBody(message: OutboundMessage, thin: boolean): string {
  return JSON.stringify({ ...message, data: thin ? thinData(message.data) : message.data });
}
