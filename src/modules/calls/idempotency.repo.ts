import type { Queryable } from '../../db/pool.js';

export interface IdempotencyRecord {
  requestHash: string;
  status: number;
  body: unknown;
}

export interface IdempotencyKeyRef {
  scope: string;
  route: string;
  key: string;
}

/**
 * Claims the key inside the caller's transaction. True when this request owns it; false when a
 * row exists. A concurrent claimant blocks on the primary key until the owner commits (then it
 * gets false and reads the stored answer) or rolls back (then it owns the key).
 */
export async function claimIdempotencyKey(db: Queryable, ref: IdempotencyKeyRef, requestHash: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO idempotency_keys (scope, route, key, request_hash, status, body)
     VALUES ($1, $2, $3, $4, 0, 'null'::jsonb)
     ON CONFLICT (scope, route, key) DO NOTHING`,
    [ref.scope, ref.route, ref.key, requestHash],
  );
  return rowCount === 1;
}

export async function findIdempotencyRecord(db: Queryable, ref: IdempotencyKeyRef): Promise<IdempotencyRecord | undefined> {
  const { rows } = await db.query<IdempotencyRecord>(
    `SELECT request_hash AS "requestHash", status, body FROM idempotency_keys WHERE scope = $1 AND route = $2 AND key = $3`,
    [ref.scope, ref.route, ref.key],
  );
  return rows[0];
}

export async function storeIdempotentAnswer(
  db: Queryable,
  ref: IdempotencyKeyRef,
  answer: { status: number; body: unknown; resourceId?: string },
): Promise<void> {
  await db.query(`UPDATE idempotency_keys SET status = $4, body = $5, resource_id = $6 WHERE scope = $1 AND route = $2 AND key = $3`, [
    ref.scope,
    ref.route,
    ref.key,
    answer.status,
    JSON.stringify(answer.body),
    answer.resourceId ?? null,
  ]);
}

/** Forgets answers older than `hours`: a retry later than that is a new request. */
export async function deleteIdempotencyKeysOlderThan(db: Queryable, hours: number): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1::int)`, [hours]);
  return rowCount ?? 0;
}
