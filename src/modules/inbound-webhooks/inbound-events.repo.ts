import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { WebhookSource } from './envelope.js';

export interface NewInboundEvent {
  id: string;
  source: WebhookSource;
  eventId: string;
  type: string;
  occurredAt: string;
  groupId: string | null;
  data: unknown;
  correlationId: string;
}

export interface StoredInboundEvent {
  id: string;
  source: WebhookSource;
  event_id: string;
  type: string;
  group_id: string | null;
  data: Record<string, unknown>;
  status: 'received' | 'processing' | 'completed' | 'failed';
  correlation_id: string;
  pipeline: Record<string, unknown>;
  error: { error: string; details: string } | null;
  attempts: number;
  occurred_at: string | null;
  received_at: string;
  processed_at: string | null;
}

/** Stores an event; false when the sender's id was stored before (a duplicate, concurrent or not). */
export async function insertInboundEvent(db: Queryable, e: NewInboundEvent): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO inbound_events (id, source, event_id, type, occurred_at, group_id, data, correlation_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT DO NOTHING`,
    [e.id, e.source, e.eventId, e.type, e.occurredAt, e.groupId, JSON.stringify(e.data), e.correlationId],
  );
  return rowCount === 1;
}

/** Stores many events in one statement; returns the ids of the rows inserted (duplicates skipped). */
export async function insertInboundEvents(db: Queryable, events: NewInboundEvent[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO inbound_events (id, source, event_id, type, occurred_at, group_id, data, correlation_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::jsonb[], $8::text[])
     -- no conflict target: the id is derived from (source, event_id), so a concurrent copy can
     -- meet either unique index first, and both must read as a duplicate
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [
      events.map((e) => e.id),
      events.map((e) => e.source),
      events.map((e) => e.eventId),
      events.map((e) => e.type),
      events.map((e) => e.occurredAt),
      events.map((e) => e.groupId),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => e.correlationId),
    ],
  );
  return new Set(rows.map((r) => r.id));
}

const COLUMNS = `id, source, event_id, type, group_id, data, status, correlation_id, pipeline, error, attempts,
  ${isoTime('occurred_at')}, ${isoTime('received_at')}, ${isoTime('processed_at')}`;

export async function findInboundEvent(db: Queryable, id: string, forUpdate = false): Promise<StoredInboundEvent | undefined> {
  const { rows } = await db.query<StoredInboundEvent>(
    `SELECT ${COLUMNS} FROM inbound_events WHERE id = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

/** Events with the sender's id, from either source (EHR first). */
export async function findInboundEventsBySenderId(db: Queryable, eventId: string): Promise<StoredInboundEvent[]> {
  const { rows } = await db.query<StoredInboundEvent>(
    `SELECT ${COLUMNS} FROM inbound_events WHERE event_id = $1 ORDER BY source`,
    [eventId],
  );
  return rows;
}

export async function markProcessing(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE inbound_events SET status = 'processing', attempts = attempts + 1 WHERE id = $1 AND status <> 'completed'`,
    [id],
  );
}

/** Merges step results into the pipeline state (each step records its ids once done). */
export async function recordPipelineStep(db: Queryable, id: string, step: Record<string, unknown>): Promise<void> {
  await db.query(`UPDATE inbound_events SET pipeline = pipeline || $2::jsonb WHERE id = $1`, [id, JSON.stringify(step)]);
}

export async function markEnded(
  db: Queryable,
  id: string,
  status: 'completed' | 'failed',
  error: { error: string; details: string } | null = null,
): Promise<void> {
  await db.query(`UPDATE inbound_events SET status = $2, error = $3, processed_at = now() WHERE id = $1`, [
    id,
    status,
    error === null ? null : JSON.stringify(error),
  ]);
}

/** failed -> received, for an operator's retry: the error is cleared and the job is queued again by the caller. */
export async function reopenFailedEvent(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE inbound_events SET status = 'received', error = NULL, processed_at = NULL WHERE id = $1 AND status = 'failed'`,
    [id],
  );
  return rowCount === 1;
}
