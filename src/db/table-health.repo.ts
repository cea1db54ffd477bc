import type { Queryable } from './pool.js';

/** The tables that grow with ingest and whose rows change state: the inbound events and pg-boss's jobs. */
export const HOT_TABLES = ['public.inbound_events', 'pgboss.job_common'] as const;

export interface TableHealth {
  table: string;
  live: number;
  dead: number;
}

/** Whether PostgreSQL's autovacuum daemon runs on this server (some test servers turn it off). */
export async function autovacuumOn(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum')::boolean AS on`);
  return rows[0].on;
}

/** Live and dead row counts of the given tables, from the statistics collector. */
export async function tableHealth(db: Queryable, tables: readonly string[]): Promise<TableHealth[]> {
  const { rows } = await db.query<TableHealth>(
    `SELECT schemaname || '.' || relname AS table, n_live_tup::float8 AS live, n_dead_tup::float8 AS dead
       FROM pg_stat_user_tables WHERE schemaname || '.' || relname = ANY($1::text[])`,
    [tables],
  );
  return rows;
}

/**
 * VACUUM of one table (never in a transaction: a plain pool query). SKIP_LOCKED: when another
 * process vacuums it now, this one does nothing. The name comes from HOT_TABLES, never a caller.
 */
export async function vacuumTable(db: Queryable, table: (typeof HOT_TABLES)[number]): Promise<void> {
  if (!HOT_TABLES.includes(table)) throw new Error(`not a hot table: ${table}`);
  await db.query(`VACUUM (SKIP_LOCKED, ANALYZE) ${table}`);
}
