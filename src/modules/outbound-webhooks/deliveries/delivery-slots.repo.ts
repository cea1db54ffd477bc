import type { Queryable } from '../../../db/pool.js';
import { CLAIMED, type ClaimedDelivery } from './webhook-deliveries.repo.js';

/**
 * Slots per endpoint, kept in the database so that they hold across every process that runs jobs
 * (DESIGN "Fair share between groups"): a delivery holds one of its endpoint's
 * WEBHOOK_ENDPOINT_CONCURRENCY slots while `slot_until` lies ahead (admitted, or its attempt in
 * flight). One whose endpoint is full, or whose patient has an earlier delivery pending on an
 * `ordering: "patient"` endpoint, waits (`waiting`, no job) until a slot is handed to it.
 *
 * Two ways a slot is taken, and neither can pass the cap:
 * - admission (an endpoint's job after a fan-out or a sweep, a delivery's own job for a retry or
 *   a replay) counts the held slots under the endpoint row's lock (FOR UPDATE), so admissions of
 *   one endpoint are serialised across processes;
 * - a transfer: the transaction that records an attempt releases its slot and claims the next
 *   waiting delivery in one commit, so the count never rises; it takes no endpoint lock (SKIP
 *   LOCKED on the waiting rows), so the endpoint's finishing attempts never queue behind each
 *   other while holding database connections.
 */
export interface SlotEndpoint {
  id: string;
  status: string;
  ordering: 'none' | 'patient';
  /** slots held now */
  held: number;
}

/**
 * Locks an endpoint for an admission (the lock comes before any of its delivery rows), then
 * counts its held slots; undefined when there is none. Two statements on purpose: a count inside
 * the locking SELECT would read the snapshot taken before the lock was granted, and miss the
 * slots that the transaction it waited for had just taken.
 */
export async function lockEndpoint(db: Queryable, endpointId: string): Promise<SlotEndpoint | undefined> {
  const { rows } = await db.query<Omit<SlotEndpoint, 'held'>>(
    `SELECT id, status, ordering FROM webhook_endpoints WHERE id = $1 FOR UPDATE`,
    [endpointId],
  );
  if (!rows[0]) return undefined;
  const held = await db.query<{ held: number }>(
    `SELECT count(*)::int AS held FROM webhook_deliveries WHERE endpoint_id = $1 AND slot_until > now()`,
    [endpointId],
  );
  return { ...rows[0], held: held.rows[0].held };
}

/** Slots of a locked endpoint not held now. */
export const freeSlots = (ep: Pick<SlotEndpoint, 'held'>, concurrency: number): number => Math.max(0, concurrency - ep.held);

/** An earlier delivery of the same patient is still pending on the endpoint (it holds this one). */
const heldByEarlier = (d: string) => `EXISTS (SELECT 1 FROM webhook_deliveries p
  WHERE p.endpoint_id = ${d}.endpoint_id AND p.patient_id = ${d}.patient_id AND p.status = 'pending' AND p.event_seq < ${d}.event_seq)`;

/** Waiting, due deliveries of endpoint $1 that may go now, oldest event first, at most $2 ($3: the endpoint's ordering); rows another transaction is taking are skipped. */
const ADMISSIBLE = `SELECT w.id FROM webhook_deliveries w
  WHERE w.endpoint_id = $1 AND w.status = 'pending' AND w.waiting AND w.next_attempt_at <= now()
    AND ($3 = 'none' OR w.patient_id IS NULL OR NOT ${heldByEarlier('w')})
  ORDER BY w.event_seq NULLS FIRST, w.created_at, w.id LIMIT $2
  FOR UPDATE OF w SKIP LOCKED`;

/**
 * Claims up to `limit` of the endpoint's waiting deliveries that may go now, for `leaseSeconds`,
 * for the caller to send. Either under the endpoint's lock with `limit` its free slots (an
 * admission), or as the transfer of a slot just released (`limit` 1, no endpoint lock). An
 * endpoint that is no longer active gives none.
 */
export async function takeWaiting(
  db: Queryable,
  endpointId: string,
  ordering: SlotEndpoint['ordering'],
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { rows } = await db.query<ClaimedDelivery>(
    `UPDATE webhook_deliveries d SET waiting = false, lease_until = now() + make_interval(secs => $4),
       slot_until = now() + make_interval(secs => $4), updated_at = now()
     FROM (${ADMISSIBLE}) s, webhook_endpoints e, outbox o
     WHERE d.id = s.id AND e.id = d.endpoint_id AND e.status = 'active' AND o.id = d.event_id
     RETURNING ${CLAIMED}`,
    [endpointId, limit, ordering, leaseSeconds],
  );
  return rows;
}

export interface SlotState {
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
    `SELECT COALESCE(d.slot_until > now(), false) AS has_slot,
       (d.patient_id IS NOT NULL AND ${heldByEarlier('d')}) AS held_by_earlier
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
 * Reserves the endpoint's next start under `max_per_second` (one statement, so concurrent
 * reservations of one endpoint queue on its row and each gets its own time): the attempt may
 * start after the returned ms, the next one 1/max_per_second later.
 */
export async function reservePace(db: Queryable, endpointId: string, maxPerSecond: number): Promise<number> {
  const { rows } = await db.query<{ wait_ms: number }>(
    `UPDATE webhook_endpoints SET next_send_at = GREATEST(now(), COALESCE(next_send_at, now())) + make_interval(secs => $2)
     WHERE id = $1
     RETURNING GREATEST(0, ceil(extract(epoch FROM (next_send_at - now())) * 1000 - 1000.0 / $3))::int AS wait_ms`,
    [endpointId, 1 / maxPerSecond, maxPerSecond],
  );
  return rows[0]?.wait_ms ?? 0;
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
