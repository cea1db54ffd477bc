import type { AppDeps } from '../../app-deps.js';
import { awaitCodification } from '../codify/await-codification.js';
import type { CodifyRun } from '../codify/codify.repo.js';
import { isEnded, loadRun, type StoredRun } from '../runs/runs.repo.js';
import { watchRun } from '../runs/run-watch.js';

/** How long a pipeline step waits for its run or codification before the job is retried. */
export const STEP_TIMEOUT_MS = 10 * 60_000;

/** Waits (woken by NOTIFY) until the run has ended; throws at the deadline so the job retries. */
export async function waitForRunEnd(deps: AppDeps, runId: string): Promise<StoredRun> {
  const watch = watchRun(deps.notifications, runId);
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  try {
    for (;;) {
      const run = await loadRun(deps.pool, runId);
      if (!run) throw new Error(`Run ${runId} is gone`);
      if (isEnded(run.status)) return run;
      if (!(await watch.changed(deadline))) throw new Error(`Run ${runId} did not end in time`);
    }
  } finally {
    watch.close();
  }
}

/** Waits (woken by NOTIFY) until the codification has ended; throws at the deadline. */
export async function waitForCodification(deps: AppDeps, id: string): Promise<CodifyRun> {
  const waiter = awaitCodification(deps.notifications, deps.pool, id, STEP_TIMEOUT_MS, (err) =>
    deps.logger.error('pipeline codify wait failed', { codify_run_id: id, error_name: err.name }),
  );
  waiter.check();
  const outcome = await waiter.result;
  if (outcome === 'timeout') throw new Error(`Codification ${id} did not end in time`);
  return outcome;
}
