import type { Db } from 'pg-boss';
import type { Queryable } from '../db/pool.js';

/**
 * Every statement of ours that names pg-boss's tables: its schema is spelled here only.
 * pg-boss's schema: boss.ts keeps the default.
 */
const SCHEMA = 'pgboss';

/** pg-boss's job table, for a statement that joins it to our own (the console's minute series). */
export const JOB_TABLE = `${SCHEMA}.job`;

/** Lets pg-boss run its statements on our transaction client, so a row and its job commit together. */
export function bossDb(tx: Queryable): Db {
  return { executeSql: (text, values) => tx.query(text, values) };
}

/** The channel pg-boss 12 LISTENs on for its schema (plans.js notifyChannelSql). */
const NOTIFY_CHANNEL = `('pgboss_' || left(encode(sha224('${SCHEMA}'::bytea), 'hex'), 24))`;

export interface EnqueueSql {
  /** CTEs to list after the caller's own (`WITH rows AS (...), source AS (...), ${ctes} SELECT ...`). */
  ctes: string;
  /**
   * A condition for the caller's final WHERE: true when every row of `source` became a job, and the
   * statement fails (division by zero) when one did not, e.g. the queue is missing; it also reads
   * `woken`, which PostgreSQL would otherwise skip as a plain CTE that nothing reads.
   */
  guard: string;
}

/**
 * Common table expressions that enqueue one pg-boss job per row of `source` (a CTE of the caller's
 * statement with a jsonb column `job_data`), so that rows and their jobs are written by a single
 * statement: one round trip in an implicit transaction, where BEGIN, two INSERTs and COMMIT take
 * four.
 *
 * This writes pg-boss's tables directly, which pg-boss supports (its maintainer: "direct table
 * access is in the docs"), with the values its own insert() gives a job sent without options: the
 * queue's retry, expiry, retention and dead-letter settings, and the NOTIFY that wakes job loops at
 * once on a notify queue. test/jobs/enqueue-sql.test.ts compares such a job with one from
 * boss.insert(), column by column, so a pg-boss upgrade that changes them fails there first.
 */
export function enqueueJobsSql(queue: string, source: string): EnqueueSql {
  if (!/^[a-z0-9-]+$/.test(queue) || !/^[a-z_]+$/.test(source)) throw new Error(`unexpected queue or source name: ${queue}, ${source}`);
  const ctes = `
  enqueued AS (
    INSERT INTO ${SCHEMA}.job (id, name, data, priority, start_after, created_on, expire_seconds, deletion_seconds, keep_until,
                               retry_limit, retry_delay, retry_backoff, retry_delay_max, policy, dead_letter, heartbeat_seconds)
    SELECT gen_random_uuid(), q.name, s.job_data, 0, ${SCHEMA}.job_now(), ${SCHEMA}.job_now(), q.expire_seconds, q.deletion_seconds,
           ${SCHEMA}.job_now() + q.retention_seconds * interval '1s', q.retry_limit, q.retry_delay, q.retry_backoff, q.retry_delay_max,
           q.policy, q.dead_letter, q.heartbeat_seconds
      FROM ${source} s JOIN ${SCHEMA}.queue q ON q.name = '${queue}'
    RETURNING 1
  ),
  woken AS (
    SELECT pg_notify(${NOTIFY_CHANNEL}, q.name)
      FROM ${SCHEMA}.queue q
     WHERE q.name = '${queue}' AND q.notify AND EXISTS (SELECT 1 FROM enqueued)
  )`;
  const guard = `(SELECT count(*) FROM woken) >= 0
    AND (SELECT 1 / (count(*) = (SELECT count(*) FROM ${source}))::int FROM enqueued) = 1`;
  return { ctes, guard };
}

/**
 * One job with the queue's own settings, sent inside the caller's transaction without a pg-boss
 * instance: for a step's continuation, sent from the repo-level code that ends the step (a run's
 * end has no boss at hand). Fails when the queue does not exist.
 */
export async function insertJob(tx: Queryable, queue: string, data: Record<string, unknown>): Promise<void> {
  const enqueue = enqueueJobsSql(queue, 'one_job');
  await tx.query(`WITH one_job AS (SELECT $1::jsonb AS job_data), ${enqueue.ctes} SELECT ${enqueue.guard}`, [JSON.stringify(data)]);
}

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
       FROM ${SCHEMA}.job WHERE state IN ('created', 'retry') AND start_after <= now() GROUP BY name`,
  );
  return rows;
}

export interface QueueStat {
  queue: string;
  waiting: number;
  scheduled: number;
  active: number;
  failed_last_hour: number;
  oldest_waiting_seconds: number | null;
}

/** Every pg-boss queue (empty ones too): waiting (due now), scheduled, active, recent failures, oldest wait. */
export async function queueStats(db: Queryable): Promise<QueueStat[]> {
  const { rows } = await db.query<QueueStat>(
    `SELECT q.name AS queue,
            count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())::int AS waiting,
            count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after > now())::int AS scheduled,
            count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
            count(j.id) FILTER (WHERE j.state = 'failed' AND j.completed_on > now() - interval '1 hour')::int AS failed_last_hour,
            round(extract(epoch FROM now() - min(j.created_on) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now())))::int
              AS oldest_waiting_seconds
       FROM ${SCHEMA}.queue q
       LEFT JOIN ${SCHEMA}.job j ON j.name = q.name AND (j.state IN ('created', 'retry', 'active') OR j.completed_on > now() - interval '1 hour')
      GROUP BY q.name ORDER BY q.name`,
  );
  return rows;
}

/**
 * A group's jobs in the given queues: `waiting` (created or retry) and `outstanding` (those and the
 * active ones). Read on every fair-share send (define-job.ts) and codify request
 * (engine-queue-cap.ts), so it must not grow with the queue's history: as one count over the
 * states it scanned the whole job table, completed jobs of every queue included (331 ms at 100,000
 * completed jobs per queue). Counted apart, each count reads one of pg-boss's own partial indexes:
 * the waiting jobs of the queues (job_i11, the fetch's, `state < 'active' AND NOT blocked`) and the
 * group's active ones (job_i7, groupConcurrency's). Blocked jobs (pg-boss dependencies, which no
 * queue of ours uses) wait for other jobs rather than for a worker, and are not counted.
 */
export async function groupBacklog(
  db: Queryable,
  queues: readonly string[],
  groupId: string,
): Promise<{ waiting: number; outstanding: number }> {
  const { rows } = await db.query<{ waiting: number; outstanding: number }>({
    name: 'pgboss-group-backlog-v2',
    text: `SELECT w.n AS waiting, w.n + a.n AS outstanding
       FROM (SELECT count(*)::int AS n FROM ${SCHEMA}.job
              WHERE name = ANY ($1::text[]) AND state < 'active' AND NOT blocked AND group_id = $2) w,
            (SELECT count(*)::int AS n FROM ${SCHEMA}.job
              WHERE name = ANY ($1::text[]) AND state = 'active' AND group_id IS NOT NULL AND group_id = $2) a`,
    values: [queues, groupId],
  });
  return rows[0];
}
