import type { Queryable } from '../../../db/pool.js';
import { isoTime } from '../../../db/sql.js';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  group_id: string | null;
  description: string | null;
  thin: boolean;
  kind: 'webhook' | 'hl7-mllp' | 'fhir';
  /** A fhir endpoint's SMART client (token_url, client_id, scope), never its private key; null otherwise. */
  auth: Record<string, unknown> | null;
  /** An hl7-mllp endpoint's MSH-5 and MSH-6: the application and facility it is. */
  receiving_application: string | null;
  receiving_facility: string | null;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  /** DESIGN "Delivery operations": `none` (parallel) or `patient` (one at a time per patient, in record order). */
  ordering: 'none' | 'patient';
  max_per_second: number | null;
  /** `failing` after WEBHOOK_FAILING_AFTER attempts in a row failed; `disabled` with the status. */
  health: 'ok' | 'failing' | 'disabled';
  health_since: string;
  created_at: string;
  updated_at: string;
}

export interface NewWebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  groupId: string | null;
  description: string | null;
  thin: boolean;
  secret: string;
  allowPrivate: boolean;
  /** Default webhook. */
  kind?: WebhookEndpoint['kind'];
  auth?: Record<string, unknown> | null;
  /** Sealed. */
  authPrivateKey?: string | null;
  ordering?: WebhookEndpoint['ordering'];
  maxPerSecond?: number | null;
  receivingApplication?: string | null;
  receivingFacility?: string | null;
}

// The secret is never selected here: it is shown once, by the creation handler.
const COLUMNS = `id, url, events, group_id, description, thin, kind, auth, receiving_application, receiving_facility, status, disabled_reason, ordering, max_per_second,
  CASE WHEN status = 'disabled' THEN 'disabled' WHEN failing THEN 'failing' ELSE 'ok' END AS health, ${isoTime('health_since')},
  ${isoTime('created_at')}, ${isoTime('updated_at')}`;

export async function insertEndpoint(db: Queryable, e: NewWebhookEndpoint): Promise<WebhookEndpoint> {
  const { rows } = await db.query<WebhookEndpoint>(
    `INSERT INTO webhook_endpoints (id, url, events, group_id, description, thin, secret, allow_private, kind, auth, auth_private_key,
       ordering, max_per_second, receiving_application, receiving_facility)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${COLUMNS}`,
    [
      e.id,
      e.url,
      e.events,
      e.groupId,
      e.description,
      e.thin,
      e.secret,
      e.allowPrivate,
      e.kind ?? 'webhook',
      e.auth ? JSON.stringify(e.auth) : null,
      e.authPrivateKey ?? null,
      e.ordering ?? 'none',
      e.maxPerSecond ?? null,
      e.receivingApplication ?? null,
      e.receivingFacility ?? null,
    ],
  );
  return rows[0];
}

/**
 * `groupId` scopes every read and change to one group's endpoints (a group's own bearer token);
 * undefined is the operator's view of all of them.
 */
export async function listEndpoints(db: Queryable, limit: number, offset: number, groupId?: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<WebhookEndpoint>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE status <> 'deleted' AND ($3::text IS NULL OR group_id = $3)
     ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [limit, offset, groupId ?? null],
  );
  return rows;
}

export async function findEndpoint(db: Queryable, id: string, groupId?: string): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<WebhookEndpoint>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND status <> 'deleted' AND ($2::text IS NULL OR group_id = $2)`,
    [id, groupId ?? null],
  );
  return rows[0];
}

/**
 * Takes an endpoint out of delivery (deleted by the operator, or disabled after a 410) and
 * cancels its pending deliveries; jobs that already hold one see the status and stop.
 * A deleted endpoint's secret is wiped: nothing can sign with it again. Returns false when there
 * was no such endpoint (or it was already deleted, or it is not of `groupId` when given).
 */
export async function retireEndpoint(
  db: Queryable,
  id: string,
  status: 'deleted' | 'disabled',
  reason: string,
  groupId?: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhook_endpoints SET status = $2, disabled_reason = $3, updated_at = now(),
       secret = CASE WHEN $2 = 'deleted' THEN '' ELSE secret END,
       previous_secret = CASE WHEN $2 = 'deleted' THEN NULL ELSE previous_secret END,
       auth_private_key = CASE WHEN $2 = 'deleted' THEN NULL ELSE auth_private_key END
     WHERE id = $1 AND status <> 'deleted' AND (status = 'active' OR $2 = 'deleted') AND ($4::text IS NULL OR group_id = $4)`,
    [id, status, reason, groupId ?? null],
  );
  if (!rowCount) return false;
  await db.query(
    `UPDATE webhook_deliveries SET status = 'cancelled', last_error = $2, updated_at = now(), waiting = false, slot_until = NULL
     WHERE endpoint_id = $1 AND status = 'pending'`,
    [id, `endpoint ${status}: ${reason}`],
  );
  return true;
}

/**
 * Serialises endpoint creations of one group (to the end of the caller's transaction) and counts
 * the group's endpoints that are not deleted, so that two creations at once cannot pass the cap.
 */
export async function lockAndCountGroupEndpoints(db: Queryable, groupId: string): Promise<number> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-endpoints-of-group'), hashtext($1))`, [groupId]);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_endpoints WHERE group_id = $1 AND status <> 'deleted'`,
    [groupId],
  );
  return rows[0].n;
}

/** disabled -> active (an operator's decision after a 410 or an outage), healthy again; undefined when it was not disabled. */
export async function enableEndpoint(db: Queryable, id: string): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<WebhookEndpoint>(
    `UPDATE webhook_endpoints SET status = 'active', disabled_reason = NULL, updated_at = now(),
       consecutive_failures = 0, failing = false, health_since = now()
     WHERE id = $1 AND status = 'disabled' RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0];
}
