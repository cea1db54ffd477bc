import type { Queryable } from '../db/pool.js';

export interface WaitingJobs {
  queue: string;
  depth: number;
  /** seconds the oldest job due now has waited */
  oldestSeconds: number;
}

/** Jobs due now and not yet taken (created or retry), per pg-boss queue: for health and metrics. */
export async function waitingJobsByQueue(db: Queryable): Promise<WaitingJobs[]> {
  const { rows } = await db.query<WaitingJobs>(
    `SELECT name AS queue, count(*)::int AS depth,
            extract(epoch FROM now() - min(created_on))::float AS "oldestSeconds"
       FROM pgboss.job WHERE state IN ('created', 'retry') AND start_after <= now() GROUP BY name`,
  );
  return rows;
}
