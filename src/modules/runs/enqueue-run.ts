import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Queryable } from '../../db/pool.js';
import type { Continuation } from '../../jobs/continuation.js';
import { runExecuteJob } from './run-execute.job.js';
import { insertRun, type NewRun, type Run } from './runs.repo.js';

/**
 * Stores a run `pending` and enqueues its job in the caller's transaction, so the two commit
 * together. The job's singletonKey is the thread: the key_strict_fifo queue runs one job per
 * thread at a time, in creation order. Callers lock the thread first (lockThread).
 * `continuation`: a job sent in the transaction that ends the run, however it ends (end-run.ts),
 * stored on the run's row.
 */
export async function enqueueRun(
  tx: Queryable,
  boss: PgBoss,
  run: Omit<NewRun, 'id' | 'config'> & {
    id?: string;
    requestId?: string;
    config: { configurable: Record<string, unknown> };
    continuation?: Continuation;
  },
): Promise<Run> {
  const { requestId, ...fields } = run;
  const created = await insertRun(tx, { ...fields, id: run.id ?? randomUUID() });
  await runExecuteJob.send(
    boss,
    tx,
    { run_id: created.run_id, group_id: run.groupId, request_id: requestId, correlation_id: run.correlationId },
    { singletonKey: run.threadId },
  );
  return created;
}
