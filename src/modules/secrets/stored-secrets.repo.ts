import type { Queryable } from '../../db/pool.js';

/** Tables whose `secret` column holds a credential sealed by lib/secret-box.ts. */
const TABLES = ['webhook_endpoints', 'integrations'] as const;

/** Rows whose secret was stored before encryption was on (not `enc:v1:`, not wiped). */
export async function unsealedSecrets(db: Queryable): Promise<Array<{ table: (typeof TABLES)[number]; id: string; secret: string }>> {
  const out = [];
  for (const table of TABLES) {
    const { rows } = await db.query<{ id: string; secret: string }>(`SELECT id, secret FROM ${table} WHERE secret NOT LIKE 'enc:v1:%' AND secret <> ''`);
    out.push(...rows.map((r) => ({ table, ...r })));
  }
  return out;
}

/** Replaces one secret with its sealed form, unless another process did it first. */
export async function replaceSecret(db: Queryable, table: (typeof TABLES)[number], id: string, was: string, sealed: string): Promise<void> {
  await db.query(`UPDATE ${table} SET secret = $3 WHERE id = $1 AND secret = $2`, [id, was, sealed]);
}
