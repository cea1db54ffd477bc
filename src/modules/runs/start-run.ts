import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { RUN_QUEUE } from '../../jobs/queues.js';
import { insertRun, type NewRun, type Run } from './runs.repo.js';

/** Data of a run job: ids only. */
export const runJobSchema = z.object({
  run_id: z.uuid(),
  request_id: z.string().optional(),
  correlation_id: z.string().optional(),
});
export type RunJob = z.infer<typeof runJobSchema>;

/**
 * Stores a run `pending` and enqueues its job in the caller's transaction, so the two commit
 * together. The job's singletonKey is the thread: the key_strict_fifo queue runs one job per
 * thread at a time, in creation order. Callers lock the thread first (lockThread).
 */
export async function startRun(
  tx: Queryable,
  boss: PgBoss,
  run: Omit<NewRun, 'id'> & { id?: string; requestId?: string },
): Promise<Run> {
  const created = await insertRun(tx, { ...run, id: run.id ?? randomUUID() });
  const job: RunJob = { run_id: created.run_id, request_id: run.requestId, correlation_id: run.correlationId };
  await boss.send(RUN_QUEUE, job, { singletonKey: run.threadId, db: { executeSql: (text, values) => tx.query(text, values) } });
  return created;
}
