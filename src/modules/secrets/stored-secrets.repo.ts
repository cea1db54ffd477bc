import type { Queryable } from '../../db/pool.js';

/** A column that holds values sealed by lib/secret-box.ts, keyed by the table's `id`. */
export interface SealedColumn {
  table: string;
  column: string;
}

/**
 * Every column that holds a sealed credential: start-up sealing and `clinigate secrets rotate-key`
 * re-seal exactly these. A new sealed column is added here (and sealed with its place).
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'webhook_endpoints', column: 'secret' },
  { table: 'webhook_endpoints', column: 'auth_private_key' },
  { table: 'integrations', column: 'secret' },
  { table: 'webhook_endpoints', column: 'previous_secret' },
  { table: 'integrations', column: 'previous_secret' },
];

/** The stored values of one sealed column (not null, not wiped), in id order. */
export async function storedValues(db: Queryable, place: SealedColumn): Promise<Array<{ id: string; value: string }>> {
  const { rows } = await db.query<{ id: string; value: string }>(
    `SELECT id::text AS id, ${place.column} AS value FROM ${place.table}
      WHERE ${place.column} IS NOT NULL AND ${place.column} <> '' ORDER BY id`,
  );
  return rows;
}

/** Replaces one value with its new sealed form, unless another process changed it first; true when replaced. */
export async function replaceValue(db: Queryable, place: SealedColumn, id: string, was: string, sealed: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE ${place.table} SET ${place.column} = $3 WHERE id = $1 AND ${place.column} = $2`, [
    id,
    was,
    sealed,
  ]);
  return (rowCount ?? 0) > 0;
}
