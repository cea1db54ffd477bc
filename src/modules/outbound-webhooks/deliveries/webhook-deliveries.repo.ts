import type { Queryable } from '../../../db/pool.js';
import { isoTime } from '../../../db/sql.js';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface ClaimedDelivery {
  id: string;
  attempt_count: number;
  retry_index: number;
  endpoint_id: string;
  endpoint_status: string;
  url: string;
  secret: string;
  thin: boolean;
  allow_private: boolean;
  /** webhook, hl7-mllp or fhir; `auth` and its sealed private key for fhir. */
  kind: 'webhook' | 'hl7-mllp' | 'fhir';
  auth: Record<string, unknown> | null;
  auth_private_key: string | null;
  /** hl7-mllp: MSH-5 and MSH-6 of what it is sent. */
  receiving_application: string | null;
  receiving_facility: string | null;
  event_id: string;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: string;
  /** The event's payload was redacted after RETENTION_DAYS: there is nothing left to send. */
  event_redacted: boolean;
  /** sealed; the secret before a rotation, while it has not expired (it signs too) */
  previous_secret: string | null;
  /** the endpoint's delivery rules (DESIGN "Delivery operations") */
  ordering: 'none' | 'patient';
  max_per_second: number | null;
}

/** What a claim returns, from a delivery `d` joined with its endpoint `e` and its event `o`. */
export const CLAIMED = `d.id, d.attempt_count, d.retry_index, e.id AS endpoint_id, e.status AS endpoint_status, e.url, e.secret,
  e.thin, e.allow_private, e.kind, e.auth, e.auth_private_key, e.receiving_application, e.receiving_facility, o.id AS event_id, o.type AS event_type, o.data AS event_data,
  o.redacted_at IS NOT NULL AS event_redacted, ${isoTime('o.created_at', 'event_created_at')}, e.ordering, e.max_per_second,
  CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret`;

/**
 * Takes attempt number `attempt` of a pending delivery for `leaseSeconds`. Undefined when the
 * attempt was already made, another process holds it, or the delivery is no longer pending.
 */
export async function claimDelivery(
  db: Queryable,
  id: string,
  attempt: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery | undefined> {
  const { rows } = await db.query<ClaimedDelivery>(
    `UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $3), updated_at = now(),
       -- the attempt holds its endpoint's slot as long as its lease (delivery-slots.repo.ts)
       slot_until = now() + make_interval(secs => $3), waiting = false
     FROM webhook_endpoints e, outbox o
     WHERE d.id = $1 AND d.attempt_count = $2 - 1 AND d.status = 'pending'
       AND (d.lease_until IS NULL OR d.lease_until < now())
       AND e.id = d.endpoint_id AND o.id = d.event_id
     RETURNING ${CLAIMED}`,
    [id, attempt, leaseSeconds],
  );
  return rows[0];
}

export interface AttemptOutcome {
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** delivered, pending (retry after `retryInSeconds`), dead, or cancelled */
  status: 'delivered' | 'pending' | 'dead' | 'cancelled';
  retryInSeconds?: number;
  retryIndex?: number;
}

/**
 * Records one attempt and the delivery's new state, and releases its endpoint slot. Undefined
 * when the attempt had already been recorded (a duplicate job): the caller then must not
 * schedule anything. `hadSlot`: the slot was still its own (its lease had not run out), so the
 * caller may hand it on.
 */
export async function recordAttempt(db: Queryable, o: AttemptOutcome): Promise<{ hadSlot: boolean } | undefined> {
  const { rows } = await db.query<{ had_slot: boolean }>(
    `WITH old AS (SELECT id, COALESCE(slot_until > now(), false) AS had_slot FROM webhook_deliveries WHERE id = $1),
     updated AS (
       UPDATE webhook_deliveries d SET
         attempt_count = $2, status = $3, lease_until = NULL, slot_until = NULL, last_status_code = $4, last_error = $5,
         retry_index = COALESCE($6, retry_index),
         next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + make_interval(secs => $7) ELSE next_attempt_at END,
         delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END,
         updated_at = now()
       FROM old WHERE d.id = old.id AND d.attempt_count = $2 - 1
       RETURNING old.had_slot),
     logged AS (
       INSERT INTO webhook_delivery_attempts (delivery_id, attempt, status_code, duration_ms, error)
       SELECT $1, $2, $4, $8, $5 FROM updated ON CONFLICT DO NOTHING)
     SELECT had_slot FROM updated`,
    [o.deliveryId, o.attempt, o.status, o.statusCode, o.error, o.retryIndex ?? null, o.retryInSeconds ?? 0, o.durationMs],
  );
  return rows[0] && { hadSlot: rows[0].had_slot };
}

/** Ends a claimed delivery whose endpoint was disabled or deleted meanwhile. */
export async function cancelDelivery(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'cancelled', lease_until = NULL, slot_until = NULL, last_error = $2, updated_at = now()
     WHERE id = $1 AND status = 'pending'`,
    [id, reason],
  );
}

export interface DeliveryRef {
  id: string;
  endpoint_id: string;
  endpoint_status: string;
  attempt_count: number;
  /** Its event's payload was redacted after RETENTION_DAYS: it cannot be sent again. */
  redacted: boolean;
}

const REPLAY_REF = `d.id, d.endpoint_id, e.status AS endpoint_status, d.attempt_count, o.redacted_at IS NOT NULL AS redacted
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN outbox o ON o.id = d.event_id`;

/** Locks one delivery for a replay (of `groupId`'s endpoints, when given); undefined when there is none. */
export async function lockDeliveryForReplay(db: Queryable, id: string, groupId?: string): Promise<DeliveryRef | undefined> {
  const { rows } = await db.query<DeliveryRef>(
    `SELECT ${REPLAY_REF}
     WHERE d.id = $1 AND ($2::text IS NULL OR e.group_id = $2)
     FOR UPDATE OF d`,
    [id, groupId ?? null],
  );
  return rows[0];
}

/** Locks up to `limit` dead deliveries of an active endpoint whose payload is still there, oldest first. */
export async function lockDeadDeliveriesForReplay(db: Queryable, endpointId: string, limit: number): Promise<DeliveryRef[]> {
  const { rows } = await db.query<DeliveryRef>(
    `SELECT ${REPLAY_REF}
     -- a payload redacted after RETENTION_DAYS has nothing left to send
     WHERE d.endpoint_id = $1 AND d.status = 'dead' AND e.status = 'active' AND o.redacted_at IS NULL
     ORDER BY d.created_at LIMIT $2
     FOR UPDATE OF d`,
    [endpointId, limit],
  );
  return rows;
}

/** Makes deliveries pending again with a fresh retry schedule (replay); their ids, and so their `webhook-id`s, stay. */
export async function reopenDeliveries(db: Queryable, ids: readonly string[]): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'pending', retry_index = 0, next_attempt_at = now(), updated_at = now(),
       waiting = false, slot_until = NULL
     WHERE id = ANY ($1::uuid[])`,
    [ids],
  );
}

/** Dead deliveries, oldest first: of one endpoint, or of all when none is given. */
export async function listDeadDeliveryIds(db: Queryable, endpointId?: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM webhook_deliveries WHERE status = 'dead' AND ($1::uuid IS NULL OR endpoint_id = $1) ORDER BY created_at, id`,
    [endpointId ?? null],
  );
  return rows.map((r) => r.id);
}

export interface DeliveryAttempt {
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: string;
}

export interface DeliveryLogEntry {
  id: string;
  webhook_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  attempts: DeliveryAttempt[];
}

/** An endpoint's deliveries, newest first, each with every attempt (outcomes only, never bodies). */
export async function listDeliveries(db: Queryable, endpointId: string, limit: number, offset: number): Promise<DeliveryLogEntry[]> {
  const { rows } = await db.query<DeliveryLogEntry>(
    `SELECT d.id, d.id::text AS webhook_id, d.endpoint_id, d.event_id, o.type AS event_type, d.status, d.attempt_count,
       d.last_status_code, d.last_error,
       CASE WHEN d.status = 'pending' THEN ${iso('d.next_attempt_at')} END AS next_attempt_at,
       ${isoTime('d.created_at', 'created_at')}, ${isoTime('d.updated_at', 'updated_at')},
       CASE WHEN d.delivered_at IS NOT NULL THEN ${iso('d.delivered_at')} END AS delivered_at,
       COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'status_code', a.status_code,
                   'duration_ms', a.duration_ms, 'error', a.error, 'created_at', ${iso('a.created_at')}) ORDER BY a.attempt)
                 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts
     FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
     WHERE d.endpoint_id = $1
     -- one dispatch transaction can create several deliveries at the same instant: then the event's time decides
     ORDER BY d.created_at DESC, o.created_at DESC, d.id DESC
     LIMIT $2 OFFSET $3`,
    [endpointId, limit, offset],
  );
  return rows;
}
