import type { Queryable } from '../../../db/pool.js';

/**
 * Slots per endpoint, kept in the database so that they hold across every worker process
 * (DESIGN "Fair share between groups"): a delivery holds one of its endpoint's
 * WEBHOOK_ENDPOINT_CONCURRENCY slots while `slot_until` lies ahead (admitted, or its attempt in
 * flight); one whose endpoint is full, or whose patient has an earlier delivery pending on an
 * `ordering: "patient"` endpoint, waits (`waiting`) until a finishing attempt or the sweep admits
 * it. Every change of slots runs under the endpoint row's lock, taken before any of its delivery
 * rows, so admissions, claims and finished attempts of one endpoint never race or deadlock.
 */
export interface SlotEndpoint {
  id: string;
  status: string;
  group_id: string | null;
  ordering: 'none' | 'patient';
  max_per_second: number | null;
  /** ms until the pacing allows the next start (0: now) */
  pace_wait_ms: number;
  failing: boolean;
}

/** Locks an endpoint for a change of its slots or health; undefined when there is no such endpoint. */
export async function lockEndpoint(db: Queryable, endpointId: string): Promise<SlotEndpoint | undefined> {
  const { rows } = await db.query<SlotEndpoint>(
    `SELECT id, status, group_id, ordering, max_per_second, failing,
       GREATEST(0, ceil(extract(epoch FROM (next_send_at - now())) * 1000))::int AS pace_wait_ms
     FROM webhook_endpoints WHERE id = $1 FOR UPDATE`,
    [endpointId],
  );
  return rows[0] && { ...rows[0], pace_wait_ms: rows[0].pace_wait_ms ?? 0 };
}

/** Slots of the endpoint not held now (call it under the endpoint's lock). */
export async function freeSlots(db: Queryable, endpointId: string, concurrency: number): Promise<number> {
  const { rows } = await db.query<{ held: number }>(
    `SELECT count(*)::int AS held FROM webhook_deliveries WHERE endpoint_id = $1 AND slot_until > now()`,
    [endpointId],
  );
  return Math.max(0, concurrency - rows[0].held);
}

/** An earlier delivery of the same patient is still pending on the endpoint (it holds this one). */
const HELD_BY_EARLIER = `EXISTS (SELECT 1 FROM webhook_deliveries p
  WHERE p.endpoint_id = d.endpoint_id AND p.patient_id = d.patient_id AND p.status = 'pending' AND p.event_seq < d.event_seq)`;

/**
 * Admits up to `limit` waiting, due deliveries of a locked, active endpoint, oldest event first
 * (on an ordered endpoint, only the first pending one of each patient): each takes a slot for
 * `admitSeconds` (its job should start by then; if not, the slot frees itself). Returns the
 * attempts to queue.
 */
export async function admitWaiting(
  db: Queryable,
  ep: Pick<SlotEndpoint, 'id' | 'ordering'>,
  limit: number,
  admitSeconds: number,
): Promise<Array<{ delivery_id: string; attempt: number }>> {
  if (limit <= 0) return [];
  const { rows } = await db.query<{ delivery_id: string; attempt: number }>(
    `UPDATE webhook_deliveries w SET waiting = false, slot_until = now() + make_interval(secs => $3), updated_at = now()
     FROM (SELECT d.id FROM webhook_deliveries d
           WHERE d.endpoint_id = $1 AND d.status = 'pending' AND d.waiting AND d.next_attempt_at <= now()
             AND ($4 = 'none' OR d.patient_id IS NULL OR NOT ${HELD_BY_EARLIER})
           ORDER BY d.event_seq NULLS FIRST, d.created_at, d.id LIMIT $2) s
     WHERE w.id = s.id AND w.status = 'pending' AND w.waiting
     RETURNING w.id AS delivery_id, w.attempt_count + 1 AS attempt`,
    [ep.id, limit, admitSeconds, ep.ordering],
  );
  return rows;
}

export interface SlotState {
  endpoint_id: string;
  /** it was admitted: its slot is already counted */
  has_slot: boolean;
  /** an earlier delivery of its patient is pending (counts only on an ordered endpoint) */
  held_by_earlier: boolean;
}

/**
 * Locks a delivery that is ready for attempt number `attempt` (pending, that attempt not made,
 * no live lease) and tells whether it holds a slot; undefined when it is not ready. Call it
 * after locking its endpoint.
 */
export async function lockReadyDelivery(db: Queryable, id: string, attempt: number): Promise<SlotState | undefined> {
  const { rows } = await db.query<SlotState>(
    `SELECT d.endpoint_id, COALESCE(d.slot_until > now(), false) AS has_slot,
       (d.patient_id IS NOT NULL AND ${HELD_BY_EARLIER}) AS held_by_earlier
     FROM webhook_deliveries d
     WHERE d.id = $1 AND d.attempt_count = $2 - 1 AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
     FOR UPDATE OF d`,
    [id, attempt],
  );
  return rows[0];
}

/** The endpoint a delivery is for (read without a lock, to know which endpoint to lock first). */
export async function endpointOfDelivery(db: Queryable, id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ endpoint_id: string }>(`SELECT endpoint_id FROM webhook_deliveries WHERE id = $1`, [id]);
  return rows[0]?.endpoint_id;
}

/** The delivery waits for a slot (or for its patient's earlier delivery) and gives up any slot it had. */
export async function parkDelivery(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE webhook_deliveries SET waiting = true, slot_until = NULL, updated_at = now() WHERE id = $1`, [id]);
}

/**
 * Reserves the endpoint's next start under `max_per_second`: the attempt may start in
 * `pace_wait_ms`, and the one after it 1/max_per_second later. Call it under the endpoint's lock.
 */
export async function reservePace(db: Queryable, ep: SlotEndpoint): Promise<number> {
  if (!ep.max_per_second) return 0;
  await db.query(
    `UPDATE webhook_endpoints SET next_send_at = now() + make_interval(secs => $2) WHERE id = $1`,
    [ep.id, (ep.pace_wait_ms + 1000 / ep.max_per_second) / 1000],
  );
  return ep.pace_wait_ms;
}

/** Endpoints with due waiting deliveries, for the sweep that admits what no finishing attempt handed on. */
export async function endpointsWithWaiting(db: Queryable, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ endpoint_id: string }>(
    `SELECT DISTINCT endpoint_id FROM webhook_deliveries
     WHERE status = 'pending' AND waiting AND next_attempt_at <= now() LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.endpoint_id);
}
