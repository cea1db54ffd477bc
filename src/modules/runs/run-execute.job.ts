import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { abandonRun, executeRun } from './execute-run.js';

type RunJobDeps = Pick<AppDeps, 'boss' | 'pool' | 'engine' | 'notifications' | 'logger'>;

/** Data of a run job: ids only. */
export const runJobSchema = z.object({
  run_id: z.uuid(),
  /** Fair share (define-job.ts groupOf); absent from jobs sent before it. */
  group_id: z.string().optional(),
  request_id: z.string().optional(),
  correlation_id: z.string().optional(),
});
export type RunJob = z.infer<typeof runJobSchema>;

/** Runs of threads: one job per run, singletonKey = thread id, so a thread's runs execute one at a time in order. */
export const RUN_QUEUE = 'run-execute';
/** Its dead letter queue (run-execute-dead.job.ts), created before it by the registry. */
export const RUN_DEAD_QUEUE = 'run-execute-dead';

/**
 * The run job. Runs of different threads execute side by side (four self-waking loops: when a
 * run ends, its loop fetches the thread's next run at once instead of sleeping out its poll);
 * one thread's runs never do (key_strict_fifo).
 *
 * A job must not end `failed`: on a key_strict_fifo queue a failed job holds back every later
 * job of its key, i.e. the thread. Run failures are stored on the run and the job completes;
 * only infrastructure errors throw (pg-boss retries), and the last attempt ends the run instead.
 */
export const runExecuteJob = defineJob<RunJob, RunJobDeps>({
  // key_strict_fifo: per-thread FIFO; a crashed process's job is retried after a missed heartbeat, never reordered.
  queue: {
    name: RUN_QUEUE,
    options: {
      policy: 'key_strict_fifo',
      notify: true,
      retryLimit: 5,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      heartbeatSeconds: 10,
      expireInSeconds: 900,
      deadLetter: RUN_DEAD_QUEUE,
    },
  },
  schema: runJobSchema,
  // A group runs at most 3 runs at once in a process, on 4 loops: another group's run is always
  // taken at once, and its engine call waits only for the running ones.
  fetch: { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2, selfWakingLoops: 4, localGroupConcurrency: 3 },
  groupOf: (data) => data.group_id,
  context: (data) => ({ correlationId: data.correlation_id }),
  async handle(deps, data, attempt) {
    const started = Date.now();
    const status = await executeRun(deps, data.run_id, { jobSignal: attempt.signal });
    deps.logger.info('run executed', {
      run_id: data.run_id,
      status: status ?? 'already ended',
      attempt: attempt.attempt,
      ms: Date.now() - started,
    });
  },
  onFinalFailure: (deps, data) => abandonRun(deps, data.run_id),
});
