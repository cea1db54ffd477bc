import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  group_id: string | null;
  description: string | null;
  thin: boolean;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
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
}

// The secret is never selected here: it is shown once, by the creation handler.
const COLUMNS = `id, url, events, group_id, description, thin, status, disabled_reason,
  ${isoTime('created_at')}, ${isoTime('updated_at')}`;

export async function insertEndpoint(db: Queryable, e: NewWebhookEndpoint): Promise<WebhookEndpoint> {
  const { rows } = await db.query<WebhookEndpoint>(
    `INSERT INTO webhook_endpoints (id, url, events, group_id, description, thin, secret, allow_private)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [e.id, e.url, e.events, e.groupId, e.description, e.thin, e.secret, e.allowPrivate],
  );
  return rows[0];
}

export async function listEndpoints(db: Queryable, limit: number, offset: number): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<WebhookEndpoint>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE status <> 'deleted'
     ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  return rows;
}

export async function findEndpoint(db: Queryable, id: string): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<WebhookEndpoint>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND status <> 'deleted'`,
    [id],
  );
  return rows[0];
}

/**
 * Takes an endpoint out of delivery (deleted by the operator, or disabled after a 410) and
 * cancels its pending deliveries; workers that already hold one see the status and stop.
 * Returns false when there was no such endpoint (or it was already deleted).
 */
export async function retireEndpoint(db: Queryable, id: string, status: 'deleted' | 'disabled', reason: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhook_endpoints SET status = $2, disabled_reason = $3, updated_at = now()
     WHERE id = $1 AND status <> 'deleted' AND (status = 'active' OR $2 = 'deleted')`,
    [id, status, reason],
  );
  if (!rowCount) return false;
  await db.query(
    `UPDATE webhook_deliveries SET status = 'cancelled', last_error = $2, updated_at = now()
     WHERE endpoint_id = $1 AND status = 'pending'`,
    [id, `endpoint ${status}: ${reason}`],
  );
  return true;
}

/** disabled -> active (an operator's decision after a 410 or an outage); undefined when it was not disabled. */
export async function enableEndpoint(db: Queryable, id: string): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<WebhookEndpoint>(
    `UPDATE webhook_endpoints SET status = 'active', disabled_reason = NULL, updated_at = now()
     WHERE id = $1 AND status = 'disabled' RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0];
}
