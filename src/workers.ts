import type { AppDeps } from './app-deps.js';
import { JOBS } from './job-registry.js';
import { startDeadRowSweeper } from './jobs/dead-row-sweeper.js';
import { startWorker } from './jobs/define-job.js';
import { instrumentBoss } from './metrics/instrument-boss.js';
import type { JobTimer } from './metrics/metrics.js';
import { startOutboxDispatcher } from './modules/outbound-webhooks/fan-out/outbox-dispatcher.js';

export interface Workers {
  /** Stops what runs beside pg-boss (the outbox dispatcher, the dead-row sweeper); pg-boss's own workers stop with it. */
  stop(): void;
}

/**
 * Starts every queue's worker (ROLE worker or all), each registered through a pg-boss instance
 * that times and counts its jobs (in `jobTimer`: the process's metrics unless a thread reports
 * them to its parent), the outbox dispatcher, and the dead-row sweeper.
 */
export async function startWorkers(deps: AppDeps, jobTimer: JobTimer = deps.metrics): Promise<Workers> {
  const instrumented = { ...deps, boss: instrumentBoss(deps.boss, jobTimer) };
  for (const job of JOBS) await startWorker(instrumented, job);
  const dispatcher = startOutboxDispatcher(instrumented);
  const sweeper = startDeadRowSweeper(deps);
  return {
    stop: () => {
      dispatcher.stop();
      sweeper.stop();
    },
  };
}
