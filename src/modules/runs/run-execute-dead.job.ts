import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { abandonRun } from './execute-run.js';
import { RUN_DEAD_QUEUE, RUN_QUEUE } from './run-execute.job.js';

/**
 * A run job that failed for good (its process crashed on every attempt, or the database was down
 * for the last one) is copied here by pg-boss. Its run ends failed, and the failed job is deleted:
 * on the key_strict_fifo queue it would otherwise hold back every later run of the thread.
 */
export const runExecuteDeadJob = defineJob<{ run_id?: string }, Pick<AppDeps, 'boss' | 'pool' | 'logger'>>({
  queue: { name: RUN_DEAD_QUEUE, options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 300 } },
  // Loose: the dead job is deleted from the run queue even when its data names no run.
  schema: z.object({ run_id: z.uuid().optional().catch(undefined) }),
  // pg-boss moves a job here without a NOTIFY: poll every second.
  fetch: { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
  async handle(deps, data, attempt) {
    if (data.run_id) await abandonRun(deps, data.run_id);
    if (attempt.sourceId) await deps.boss.deleteJob(RUN_QUEUE, attempt.sourceId);
    deps.logger.warn('run job dead-lettered; run ended failed, thread released', { run_id: data.run_id, job_id: attempt.sourceId });
  },
});
