import type { AppDeps } from './app-deps.js';
import { JOBS } from './job-registry.js';
import { startDeadRowSweeper } from './jobs/dead-row-sweeper.js';
import { startJobLoops } from './jobs/define-job.js';
import { instrumentBoss } from './metrics/instrument-boss.js';
import type { JobTimer } from './metrics/metrics.js';
import { startOutboxDispatcher } from './modules/outbound-webhooks/fan-out/outbox-dispatcher.js';

/** What runs the jobs: every queue's pg-boss loops, the outbox dispatcher and the dead-row sweeper. */
export interface JobRunner {
  /** Stops what runs beside pg-boss (the outbox dispatcher, the dead-row sweeper); the job loops stop with pg-boss. */
  stop(): void;
}

/**
 * Starts the job runner (a ROLE=worker process runs it on its main thread, ROLE=all in the job
 * runner thread): every queue's job loops, registered through a pg-boss instance that times and
 * counts their jobs (in `jobTimer`: the process's metrics unless a thread reports them to its
 * parent), the outbox dispatcher, and the dead-row sweeper.
 */
export async function startJobRunner(deps: AppDeps, jobTimer: JobTimer = deps.metrics): Promise<JobRunner> {
  const instrumented = { ...deps, boss: instrumentBoss(deps.boss, jobTimer) };
  for (const job of JOBS) await startJobLoops(instrumented, job);
  const dispatcher = startOutboxDispatcher(instrumented);
  const sweeper = startDeadRowSweeper(deps);
  return {
    stop: () => {
      dispatcher.stop();
      sweeper.stop();
    },
  };
}
