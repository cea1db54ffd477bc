import type { Queryable } from '../../../db/pool.js';

/**
 * Claims undispatched outbox events, oldest first (FOR UPDATE, waiting for rows another dispatcher
 * holds: with SKIP LOCKED a dispatcher could fan out a patient's later event and commit it before
 * another's fan-out of the earlier one, and an `ordering: "patient"` endpoint would get them
 * reversed; rows are locked in one order, so dispatchers never deadlock),
 * creates one delivery per matching active endpoint and marks the events dispatched, all on the
 * caller's transaction. An endpoint receives events recorded after it subscribed, of its types
 * (none listed = all) and of its group (none = every group). The deliveries start waiting (with
 * the event's patient and record order), for their endpoints to admit them under their slots.
 * Returns the endpoints that got deliveries.
 */
export async function fanOutOutbox(db: Queryable, limit: number): Promise<{ events: number; endpoints: string[] }> {
  const { rows: claimed } = await db.query<{ id: string }>(
    `SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY created_at, seq LIMIT $1 FOR UPDATE`,
    [limit],
  );
  if (claimed.length === 0) return { events: 0, endpoints: [] };
  const ids = claimed.map((r) => r.id);
  const { rows } = await db.query<{ endpoint_id: string }>(
    `WITH created AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, event_id, patient_id, event_seq, waiting)
       SELECT gen_random_uuid(), e.id, o.id, o.data->>'patient_id', o.seq, true
       FROM outbox o JOIN webhook_endpoints e
         ON e.status = 'active'
        AND e.created_at <= o.created_at
        AND (e.group_id IS NULL OR e.group_id = o.group_id)
        AND (cardinality(e.events) = 0 OR o.type = ANY (e.events))
       WHERE o.id = ANY ($1::uuid[])
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING endpoint_id)
     -- in one order, so that dispatchers locking several endpoints never deadlock
     SELECT DISTINCT endpoint_id FROM created ORDER BY endpoint_id`,
    [ids],
  );
  await db.query(`UPDATE outbox SET dispatched_at = now() WHERE id = ANY ($1::uuid[])`, [ids]);
  return { events: ids.length, endpoints: rows.map((r) => r.endpoint_id) };
}

/**
 * Pending deliveries whose process died mid-attempt (lease expired), or whose job never ran
 * long after it was due: their lease is cleared and the caller queues the attempt again.
 */
export async function takeStalledDeliveries(db: Queryable, limit: number): Promise<Array<{ id: string; attempt_count: number }>> {
  const { rows } = await db.query<{ id: string; attempt_count: number }>(
    `UPDATE webhook_deliveries d SET lease_until = NULL, slot_until = NULL, next_attempt_at = now(), updated_at = now()
     FROM (SELECT id FROM webhook_deliveries
           WHERE status = 'pending'
             -- a waiting delivery has no job on purpose: its endpoint admits it (outbox-dispatcher.ts)
             AND (lease_until < now() OR (lease_until IS NULL AND NOT waiting AND next_attempt_at < now() - interval '10 minutes'))
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) s
     WHERE d.id = s.id
     RETURNING d.id, d.attempt_count`,
    [limit],
  );
  return rows;
}
