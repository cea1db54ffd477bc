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
 * it announces, so the event exists exactly when the change does.
 */
export async function recordEvent(db: Queryable, event: OutboundEvent): Promise<string> {
  const id = randomUUID();
  await db.query(`INSERT INTO outbox (id, type, group_id, data) VALUES ($1, $2, $3, $4)`, [
    id,
    event.type,
    event.groupId,
    JSON.stringify(event.data),
  ]);
  await db.query(`SELECT pg_notify($1, $2)`, [CHANNELS.outbox, id]);
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
