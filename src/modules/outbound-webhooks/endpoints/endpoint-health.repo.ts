import type { Queryable } from '../../../db/pool.js';
import { isoTime } from '../../../db/sql.js';

/** What `endpoint.failing` and `endpoint.recovered` carry (DESIGN "Delivery operations"). */
export interface EndpointHealthChange {
  endpoint_id: string;
  group_id: string | null;
  health: 'ok' | 'failing' | 'disabled';
  since: string;
  last_status: number | null;
}

const CHANGE = `id AS endpoint_id, group_id,
  CASE WHEN status = 'disabled' THEN 'disabled' WHEN failing THEN 'failing' ELSE 'ok' END AS health,
  ${isoTime('health_since', 'since')}, last_status_code AS last_status`;

/**
 * Counts one attempt of an endpoint: a success resets the count of failures in a row, a failure
 * adds one, and `failingAfter` in a row make it failing. One statement, evaluated on the row as
 * it is when its lock is granted, so concurrent attempts count exactly; a success of a healthy
 * endpoint writes (and locks) nothing. Returns the endpoint's health when this attempt changed
 * it, else undefined.
 */
export async function countAttempt(
  db: Queryable,
  endpointId: string,
  ok: boolean,
  statusCode: number | null,
  failingAfter: number,
): Promise<EndpointHealthChange | undefined> {
  const failingNow = `CASE WHEN $2 THEN false WHEN e.consecutive_failures + 1 >= $4 THEN true ELSE e.failing END`;
  const { rows } = await db.query<EndpointHealthChange & { changed: boolean }>(
    `UPDATE webhook_endpoints e SET
       consecutive_failures = CASE WHEN $2 THEN 0 ELSE e.consecutive_failures + 1 END,
       failing = ${failingNow},
       health_since = CASE WHEN ${failingNow} <> e.failing THEN now() ELSE e.health_since END,
       last_status_code = $3
     WHERE e.id = $1 AND (NOT $2 OR e.consecutive_failures > 0 OR e.failing)
     RETURNING e.id AS endpoint_id, e.group_id, CASE WHEN e.failing THEN 'failing' ELSE 'ok' END AS health,
       ${isoTime('e.health_since', 'since')}, e.last_status_code AS last_status,
       e.health_since = now() AS changed`,
    [endpointId, ok, statusCode, failingAfter],
  );
  const row = rows[0];
  if (!row?.changed) return undefined;
  const { changed: _changed, ...change } = row;
  return change;
}

/**
 * Sets an endpoint's health after a change of its status (disabled by a 410, enabled again by an
 * operator): the count of failures starts again. Returns the new health.
 */
export async function resetHealth(db: Queryable, endpointId: string): Promise<EndpointHealthChange | undefined> {
  const { rows } = await db.query<EndpointHealthChange>(
    `UPDATE webhook_endpoints SET consecutive_failures = 0, failing = false, health_since = now() WHERE id = $1 RETURNING ${CHANGE}`,
    [endpointId],
  );
  return rows[0];
}
