import type { AppDeps } from '../app-deps.js';
import { runWithContext } from '../lib/request-context.js';
import { abandonRun, executeRun } from '../modules/runs/execute-run.js';
import { runJobSchema } from '../modules/runs/start-run.js';
import { RUN_DEAD_QUEUE, RUN_QUEUE } from './queues.js';

/** Runs of different threads execute side by side; one thread's runs never do (key_strict_fifo). */
const CONCURRENCY = 4;

type RunWorkerDeps = Pick<AppDeps, 'boss' | 'pool' | 'engine' | 'notifications' | 'logger'>;

/**
 * The run worker. Each of its loops is its own work() registration so that, when a run ends, it
 * can wake itself to fetch the thread's next run at once instead of sleeping out its poll.
 *
 * A job must not end `failed`: on a key_strict_fifo queue a failed job holds back every later
 * job of its key, i.e. the thread. Run failures are stored on the run and the job completes;
 * only infrastructure errors throw (pg-boss retries), and the last attempt ends the run instead.
 */
export async function startRunWorker(deps: RunWorkerDeps): Promise<void> {
  for (let i = 0; i < CONCURRENCY; i++) {
    let workerId = '';
    workerId = await deps.boss.work(RUN_QUEUE, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2 }, async ([job]) => {
      const parsed = runJobSchema.safeParse(job.data);
      if (!parsed.success) {
        deps.logger.error('run job without a valid run id; dropped', { job_id: job.id });
        return;
      }
      const data = parsed.data;
      const context = { requestId: data.request_id ?? `job-${job.id}`, correlationId: data.correlation_id };
      const finalAttempt = job.retryCount >= job.retryLimit;
      try {
        await runWithContext(context, async () => {
          const started = Date.now();
          try {
            const status = await executeRun(deps, data.run_id, { jobSignal: job.signal });
            deps.logger.info('run executed', { run_id: data.run_id, status: status ?? 'already ended', attempt: job.retryCount + 1, ms: Date.now() - started });
          } catch (err) {
            deps.logger.error('run attempt failed', { run_id: data.run_id, attempt: job.retryCount + 1, error_name: (err as Error).name, final: finalAttempt });
            if (!finalAttempt) throw err;
            await abandonRun(deps, data.run_id);
          }
        });
      } finally {
        deps.boss.notifyWorker(workerId);
      }
    });
  }
  await startDeadRunWorker(deps);
}

/**
 * A run job that failed for good (its worker crashed on every attempt, or the database was down
 * for the last one) is copied here by pg-boss. Its run ends failed, and the failed job is deleted:
 * on the key_strict_fifo queue it would otherwise hold back every later run of the thread.
 */
async function startDeadRunWorker(deps: RunWorkerDeps): Promise<void> {
  // pg-boss moves a job here without a NOTIFY: poll every second.
  await deps.boss.work(RUN_DEAD_QUEUE, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 }, async ([job]) => {
    const parsed = runJobSchema.safeParse(job.data);
    if (parsed.success) await abandonRun(deps, parsed.data.run_id);
    if (job.sourceId) await deps.boss.deleteJob(RUN_QUEUE, job.sourceId);
    deps.logger.warn('run job dead-lettered; run ended failed, thread released', { run_id: parsed.data?.run_id, job_id: job.sourceId });
  });
}
