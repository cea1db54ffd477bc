import { randomUUID } from 'node:crypto';
import { CHANNELS } from '../db/notifications.js';
import type { Queryable } from '../db/pool.js';
import { inChunks } from '../db/sql.js';
import type { OutboundEventType } from './outbound-event-types.js';

export type { OutboundEventType };

export interface OutboundEvent {
  type: OutboundEventType;
  groupId: string | null;
  data: Record<string, unknown>;
}

/**
 * Records an event for the outbound webhooks. Call it with the transaction client of the change
 * it announces, so the event exists exactly when the change does. The row and the NOTIFY that
 * wakes the dispatchers (sent at commit) in one statement: one round trip in the transaction that
 * ends a pipeline, where the two took two.
 */
export async function recordEvent(db: Queryable, event: OutboundEvent): Promise<string> {
  const id = randomUUID();
  await db.query({
    name: 'outbox-record-v2',
    text: `WITH recorded AS (INSERT INTO outbox (id, type, group_id, data) VALUES ($1, $2, $3, $4) RETURNING id)
     SELECT pg_notify($5, id::text) FROM recorded`,
    values: [id, event.type, event.groupId, JSON.stringify(event.data), CHANNELS.outbox],
  });
  return id;
}

/**
 * Data retention: payloads of outbound events recorded more than `days` ago (note text, codes:
 * what deliveries and replays send) are replaced by `{}`; the event row, its type, group and
 * times, and every delivery with its attempts, stay. Returns how many were redacted.
 */
export async function redactOutboxOlderThan(db: Queryable, days: number, chunk = 5_000): Promise<number> {
  return inChunks(chunk, async (limit) => {
    const { rowCount } = await db.query(
      `UPDATE outbox SET data = '{}'::jsonb, redacted_at = now()
       WHERE id IN (SELECT id FROM outbox WHERE redacted_at IS NULL AND created_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    return rowCount;
  });
}
