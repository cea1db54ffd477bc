import type { Queryable } from './pool.js';

/** The tables whose rows move through states that operators watch (console overview, /metrics). */
const WATCHED_TABLES = ['runs', 'codify_runs', 'inbound_events', 'webhook_deliveries', 'calls'] as const;

export interface StatusCount {
  resource: string;
  status: string;
  count: number;
}

/** Rows by status of each watched table, ordered by table and status: one query for both readers. */
export async function statusCounts(db: Queryable): Promise<StatusCount[]> {
  const { rows } = await db.query<StatusCount>(
    WATCHED_TABLES.map((t) => `SELECT '${t}' AS resource, status, count(*)::int AS count FROM ${t} GROUP BY status`).join(' UNION ALL ') +
      ' ORDER BY 1, 2',
  );
  return rows;
}

/** Every outbound endpoint that is not deleted, with its health (DESIGN "Delivery operations"), for /metrics. */
export async function endpointHealthValues(db: Queryable): Promise<Array<{ endpoint_id: string; health: 'ok' | 'failing' | 'disabled' }>> {
  const { rows } = await db.query<{ endpoint_id: string; health: 'ok' | 'failing' | 'disabled' }>(
    `SELECT id AS endpoint_id, CASE WHEN status = 'disabled' THEN 'disabled' WHEN failing THEN 'failing' ELSE 'ok' END AS health
     FROM webhook_endpoints WHERE status <> 'deleted'`,
  );
  return rows;
}
