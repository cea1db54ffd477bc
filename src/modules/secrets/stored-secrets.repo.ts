import type { Queryable } from '../../db/pool.js';

/** Columns that hold a credential sealed by lib/secret-box.ts (a FHIR endpoint's private key too). */
const COLUMNS = [
  { table: 'webhook_endpoints', column: 'secret' },
  { table: 'integrations', column: 'secret' },
  { table: 'webhook_endpoints', column: 'auth_private_key' },
] as const;

type Place = (typeof COLUMNS)[number];

/** Values stored before encryption was on (not `enc:v1:`, not wiped). */
export async function unsealedSecrets(db: Queryable): Promise<Array<{ place: Place; id: string; secret: string }>> {
  const out = [];
  for (const place of COLUMNS) {
    const { rows } = await db.query<{ id: string; secret: string }>(
      `SELECT id, ${place.column} AS secret FROM ${place.table} WHERE ${place.column} NOT LIKE 'enc:v1:%' AND ${place.column} <> ''`,
    );
    out.push(...rows.map((r) => ({ place, ...r })));
  }
  return out;
}

/** Replaces one value with its sealed form, unless another process did it first. */
export async function replaceSecret(db: Queryable, place: Place, id: string, was: string, sealed: string): Promise<void> {
  await db.query(`UPDATE ${place.table} SET ${place.column} = $3 WHERE id = $1 AND ${place.column} = $2`, [id, was, sealed]);
}
