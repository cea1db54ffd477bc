import type { Queryable } from '../../db/pool.js';

/** The tables whose `secret` rotates with overlap (each has `previous_secret`, `previous_secret_expires_at`). */
export type RotatingTable = 'integrations' | 'webhook_endpoints';

/** The rows still in force: not revoked (integrations), not deleted (endpoints); `groupId` scopes an endpoint to its group. */
const IN_FORCE: Record<RotatingTable, string> = {
  integrations: 'revoked_at IS NULL',
  webhook_endpoints: `status <> 'deleted' AND ($2::text IS NULL OR group_id = $2)`,
};

/** Locks a row in force and reads its sealed secret; undefined when there is none. */
export async function lockSecret(db: Queryable, table: RotatingTable, id: string, groupId?: string): Promise<string | undefined> {
  const { rows } = await db.query<{ secret: string }>(
    `SELECT secret FROM ${table} WHERE id = $1 AND ${IN_FORCE[table]} FOR UPDATE`,
    table === 'integrations' ? [id] : [id, groupId ?? null],
  );
  return rows[0]?.secret;
}

/** Stores the new (sealed) secret, and the previous one (sealed for its own column) until `expiresInSeconds` from now. */
export async function storeRotation(
  db: Queryable,
  table: RotatingTable,
  id: string,
  sealed: { secret: string; previous: string },
  expiresInSeconds: number,
): Promise<string> {
  const { rows } = await db.query<{ previous_expires_at: string }>(
    `UPDATE ${table} SET secret = $2, previous_secret = $3, previous_secret_expires_at = now() + make_interval(secs => $4)
     WHERE id = $1
     RETURNING to_char(previous_secret_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS previous_expires_at`,
    [id, sealed.secret, sealed.previous, expiresInSeconds],
  );
  return rows[0].previous_expires_at;
}
