import type { AppDeps } from '../app-deps.js';
import { runWithContext } from '../lib/request-context.js';
import { executeRun } from '../modules/runs/execute-run.js';
import { runJobSchema } from '../modules/runs/start-run.js';
import { queue, RUN_QUEUE } from './queues.js';

/** Runs of different threads execute side by side; one thread's runs never do (key_strict_fifo). */
const CONCURRENCY = 4;

/**
 * The run worker. Each of its loops is its own work() registration so that, when a run ends, it
 * can wake itself to fetch the thread's next run at once instead of sleeping out its poll.
 */
export async function startRunWorker(deps: Pick<AppDeps, 'boss' | 'pool' | 'engine' | 'notifications' | 'logger'>): Promise<void> {
  const retryLimit = queue(RUN_QUEUE).options.retryLimit ?? 2;
  for (let i = 0; i < CONCURRENCY; i++) {
    let workerId = '';
    workerId = await deps.boss.work(RUN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2 }, async ([job]) => {
      const data = runJobSchema.parse(job.data);
      const context = { requestId: data.request_id ?? `job-${job.id}`, correlationId: data.correlation_id };
      try {
        await runWithContext(context, async () => {
          const started = Date.now();
          const status = await executeRun(deps, data.run_id, { jobSignal: job.signal, finalAttempt: job.retryCount >= retryLimit });
          deps.logger.info('run executed', { run_id: data.run_id, status: status ?? 'already ended', attempt: job.retryCount + 1, ms: Date.now() - started });
        });
      } finally {
        deps.boss.notifyWorker(workerId);
      }
    });
  }
}
