import type { Queryable } from '../../db/pool.js';
import { inChunks, isoTime } from '../../db/sql.js';
import { enqueueJobsSql } from '../../jobs/pgboss.repo.js';
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
  /** The integration that sent it; null for the deployment-wide senders. */
  integrationId?: string | null;
  /**
   * Its work is cheap and done many at once (its type has processMany): its job may carry the
   * other such events of its statement (one job row for them all, see insertInboundEventsWithJobs).
   */
  sharedJob?: boolean;
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
  error: { error: string; details: string } | null;
  attempts: number;
  occurred_at: string | null;
  received_at: string;
  processed_at: string | null;
}

/**
 * The inbound event job's queue (inbound-event.job.ts): named here, where the statement that
 * stores events sends their jobs (`{id}`, the row id) in the same round trip.
 */
export const INBOUND_EVENT_QUEUE = 'inbound-event';

const enqueue = enqueueJobsSql(INBOUND_EVENT_QUEUE, 'new_jobs');

/** What the storing statement did with one event of its batch. */
export interface IngestOutcome {
  /** Ids of the rows inserted (and enqueued); the others of the batch were stored before (duplicates) or refused. */
  stored: Set<string>;
  /** Ids refused because their integration is revoked (or gone) at the moment of the insert: nothing stored. */
  revoked: Set<string>;
}

/**
 * Stores many events and enqueues their jobs in one prepared statement (one round trip, one
 * implicit transaction); returns the ids of the rows inserted, duplicates skipped, and those refused
 * because their integration was revoked. The batch travels as one JSON document: one
 * JSON.stringify, no per-value escaping.
 *
 * Revocation is checked again here: the sender was found in force before its body was
 * read, but a revoke may commit while the body trickles in. The statement locks the integrations
 * of its batch FOR SHARE and keeps only those not revoked: a revoke committed before the statement
 * began is in its snapshot, one committed while it waits for the lock is seen by READ COMMITTED's
 * re-check of the locked row, and one that comes later waits for this commit (its UPDATE conflicts
 * with the share lock), so no event is stored once DELETE /integrations/{id} has answered 204.
 * Events of the deployment-wide senders (no integration) take no lock.
 *
 * Each new event gets its own job `{id}`, except those marked sharedJob: they share one job
 * `{ids: [...]}` for the statement (a pg-boss job row, its fetch and its completion per event
 * would cost the database more than applying the event). The job still processes,
 * retries and records each event by itself (process-events.ts).
 */
export async function insertInboundEventsWithJobs(db: Queryable, events: NewInboundEvent[]): Promise<IngestOutcome> {
  const shared = events.filter((e) => e.sharedJob).map((e) => e.id);
  const { rows } = await db.query<{ id: string; stored: boolean }>({
    name: 'inbound-events-insert-with-jobs-v4',
    text: `WITH batch AS (
       SELECT * FROM json_to_recordset($1::json) AS e (id uuid, source text, "eventId" text, type text, "occurredAt" timestamptz,
                                                        "groupId" text, data jsonb, "correlationId" text, "integrationId" uuid)
     ),
     live AS (
       SELECT id FROM integrations
        WHERE id IN (SELECT "integrationId" FROM batch WHERE "integrationId" IS NOT NULL) AND revoked_at IS NULL
          FOR SHARE
     ),
     events AS (
       INSERT INTO inbound_events (id, source, event_id, type, occurred_at, group_id, data, correlation_id, integration_id)
       SELECT id, source, "eventId", type, "occurredAt", "groupId", data, "correlationId", "integrationId"
         FROM batch
        WHERE "integrationId" IS NULL OR "integrationId" IN (SELECT id FROM live)
       -- no conflict target: the id is derived from (source, event_id), so a concurrent copy can
       -- meet either unique index first, and both must read as a duplicate
       ON CONFLICT DO NOTHING
       RETURNING id, id = ANY($2::uuid[]) AS shared
     ),
     new_jobs AS (
       SELECT jsonb_build_object('id', id) AS job_data FROM events WHERE NOT shared
       UNION ALL
       SELECT jsonb_build_object('ids', jsonb_agg(id)) FROM events WHERE shared HAVING count(*) > 0
     ),
     ${enqueue.ctes}
     SELECT id, true AS stored FROM events WHERE ${enqueue.guard}
     UNION ALL
     SELECT id, false FROM batch WHERE "integrationId" IS NOT NULL AND "integrationId" NOT IN (SELECT id FROM live)`,
    values: [JSON.stringify(events), shared],
  });
  const outcome: IngestOutcome = { stored: new Set(), revoked: new Set() };
  for (const r of rows) (r.stored ? outcome.stored : outcome.revoked).add(r.id);
  return outcome;
}

const COLUMNS = `id, source, event_id, type, group_id, data, status, correlation_id, error, attempts,
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
  const { rows } = await db.query<StoredInboundEvent>(`SELECT ${COLUMNS} FROM inbound_events WHERE event_id = $1 ORDER BY source`, [
    eventId,
  ]);
  return rows;
}

/**
 * Claims many events for processing in one statement: those not yet ended move to `processing`
 * with one more attempt, and are returned; ended ones (completed or failed) are left out.
 */
export async function claimInboundEvents(db: Queryable, ids: string[]): Promise<StoredInboundEvent[]> {
  const { rows } = await db.query<StoredInboundEvent>({
    name: 'inbound-events-claim-v2',
    text: `UPDATE inbound_events SET status = 'processing', attempts = attempts + 1
     WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed')
     RETURNING ${COLUMNS}`,
    values: [ids],
  });
  return rows;
}

/** What a batch type's processMany() reads of an event: its ids, type, data and correlation id. */
export type OpenInboundEvent = Pick<StoredInboundEvent, 'id' | 'source' | 'event_id' | 'type' | 'data' | 'correlation_id'>;

/**
 * The events of `ids` not yet ended (completed or failed), read without claiming them, and only
 * the columns a batch's work needs (no status or formatted times: the claim of those
 * processed one by one reads the whole row).
 */
export async function findOpenInboundEvents(db: Queryable, ids: string[]): Promise<OpenInboundEvent[]> {
  const { rows } = await db.query<OpenInboundEvent>({
    name: 'inbound-events-open-v2',
    text: `SELECT id, source, event_id, type, data, correlation_id FROM inbound_events
     WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed')`,
    values: [ids],
  });
  return rows;
}

/**
 * Events whose work was done without a claim (a batch type's processMany), completed in one
 * statement that also counts the attempt: one row update per event instead of two (claim, then
 * completion). Ended ones are left as they are.
 */
export async function markCompletedUnclaimed(db: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query({
    name: 'inbound-events-completed-unclaimed-v1',
    text: `UPDATE inbound_events SET status = 'completed', attempts = attempts + 1, error = NULL, processed_at = now()
     WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed')`,
    values: [ids],
  });
}

/** Many events completed in one statement (the batch job's successes). */
export async function markCompleted(db: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query({
    name: 'inbound-events-completed-v1',
    text: `UPDATE inbound_events SET status = 'completed', error = NULL, processed_at = now() WHERE id = ANY($1::uuid[])`,
    values: [ids],
  });
}

export async function markProcessing(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE inbound_events SET status = 'processing', attempts = attempts + 1 WHERE id = $1 AND status <> 'completed'`, [id]);
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

/**
 * Data retention: the bodies of events received more than `days` ago (transcripts, PHI) are
 * replaced by `{}`; the row, its ids, type, state and times stay (and its pipeline's). In chunks, so one
 * run never holds a long lock. Returns how many were redacted.
 */
export async function redactInboundEventsOlderThan(db: Queryable, days: number, chunk = 5_000): Promise<number> {
  return inChunks(chunk, async (limit) => {
    const { rowCount } = await db.query(
      `UPDATE inbound_events SET data = '{}'::jsonb, redacted_at = now()
       WHERE id IN (SELECT id FROM inbound_events WHERE redacted_at IS NULL AND received_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    return rowCount;
  });
}

/** Whether the event's body was redacted after the retention period (it can no longer be processed). */
export async function isInboundEventRedacted(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM inbound_events WHERE id = $1 AND redacted_at IS NOT NULL`, [id]);
  return rows.length > 0;
}
