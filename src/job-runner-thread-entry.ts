import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from './lib/logger.js';
import { timeJob, type JobTimer } from './metrics/metrics.js';
import { openRuntime } from './runtime.js';
import { startJobRunner } from './job-runner.js';
import type { FromJobRunnerThread, ToJobRunnerThread, JobRunnerThreadData } from './job-runner-thread.js';

/**
 * The job runner thread of ROLE=all (job-runner-thread.ts starts it): its own runtime on the
 * database the main thread prepared (pool, pg-boss without maintenance, engine, LISTEN hub, audit
 * writer) and the job runner, as a ROLE=worker process runs it. Job timings go to the parent's
 * metrics, so `/metrics` still counts every job of the process. A `stop` message stops the job
 * runner gracefully and closes the runtime; the thread then ends.
 */
const port = parentPort!;
const { config, databaseUrl } = workerData as JobRunnerThreadData;
const post = (message: FromJobRunnerThread) => port.postMessage(message);

const jobTimer: JobTimer = {
  timeJob: (queue, fn) => timeJob(queue, fn, (outcome, seconds) => post({ type: 'job', queue, outcome, seconds })),
};

const logger = createLogger(config.LOG_LEVEL);
const runtime = await openRuntime(config, databaseUrl, logger, { supervise: false, codeTableWatchMs: 60_000 });
const runner = await startJobRunner(runtime.deps, jobTimer);
port.on('message', (message: ToJobRunnerThread) => {
  if (message.type !== 'stop') return;
  runner.stop();
  void runtime.stop({ graceful: true }).finally(() => port.close());
});
post({ type: 'ready' });
