import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from './lib/logger.js';
import { timeJob, type JobTimer } from './metrics/metrics.js';
import { openRuntime } from './runtime.js';
import { startWorkers } from './workers.js';
import type { FromWorkersThread, ToWorkersThread, WorkersThreadData } from './workers-thread.js';

/**
 * The workers' thread of ROLE=all (workers-thread.ts starts it): its own runtime on the database
 * the main thread prepared (pool, pg-boss without maintenance, engine, LISTEN hub, audit writer)
 * and every queue's worker, as ROLE=worker runs them. Job timings go to the parent's metrics, so
 * `/metrics` still counts every job of the process. A `stop` message stops the workers gracefully
 * and closes the runtime; the thread then ends.
 */
const port = parentPort!;
const { config, databaseUrl } = workerData as WorkersThreadData;
const post = (message: FromWorkersThread) => port.postMessage(message);

const jobTimer: JobTimer = {
  timeJob: (queue, fn) => timeJob(queue, fn, (outcome, seconds) => post({ type: 'job', queue, outcome, seconds })),
};

const logger = createLogger(config.LOG_LEVEL);
const runtime = await openRuntime(config, databaseUrl, logger, { supervise: false, codeTableWatchMs: 60_000 });
const workers = await startWorkers(runtime.deps, jobTimer);
port.on('message', (message: ToWorkersThread) => {
  if (message.type !== 'stop') return;
  workers.stop();
  void runtime.stop({ graceful: true }).finally(() => port.close());
});
post({ type: 'ready' });
