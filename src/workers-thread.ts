import type { Config } from './config.js';
import type { Logger } from './lib/logger.js';
import { spawnWorker } from './lib/worker-pool.js';
import type { JobOutcome, Metrics } from './metrics/metrics.js';

export interface WorkersThreadData {
  config: Config;
  databaseUrl: string;
}

export type ToWorkersThread = { type: 'stop' };
export type FromWorkersThread = { type: 'ready' } | { type: 'job'; queue: string; outcome: JobOutcome; seconds: number };

export interface WorkersThread {
  /** Stops the workers gracefully (their jobs end or return to the queue) and waits for the thread to end. */
  stop(): Promise<void>;
}

/** The graceful stop gets this long (pg-boss's own stop waits up to 20 s), then the thread is terminated. */
const STOP_TIMEOUT_MS = 25_000;

const ENTRY = new URL(`./workers-thread-entry${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * ROLE=all: the queue workers in a thread of this process (workers-thread-entry.ts), not on the
 * event loop that answers HTTP. In one thread, every batch the workers handled and every job
 * fetch delayed the answers queued behind it: ingest ran at 0.8x the bare route, and without the
 * workers 1.2x (issue 20). The thread uses the second core and its own connections; the data it
 * works on is shared through PostgreSQL only, as with ROLE=worker processes.
 *
 * Resolves once the workers run; rejects if the thread fails to start. `onExit` is called if the
 * thread ends later without being asked to (a crash): the process must not go on answering while
 * nothing processes what it accepts. `entry` is the thread's module (tests give their own).
 */
export function startWorkersThread(
  config: Config,
  databaseUrl: string,
  metrics: Pick<Metrics, 'recordJob'>,
  logger: Logger,
  onExit: (reason: string) => void,
  entry = ENTRY,
): Promise<WorkersThread> {
  const worker = spawnWorker(entry, {
    // A young generation of 8 MB rather than V8's default (up to 48 MB), as the engine's workers: a lower peak RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
    workerData: { config, databaseUrl } satisfies WorkersThreadData,
    name: 'clinigate-workers',
  });
  let stopping = false;
  let failure: Error | undefined;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  worker.on('error', (err: Error & { code?: string }) => {
    failure = err;
    // Its name and code only: an error's message may quote the data it failed on.
    logger.error('workers thread failed', { error_name: err.name, error_code: err.code });
  });

  const thread: WorkersThread = {
    async stop() {
      if (stopping) return void (await exited);
      stopping = true;
      worker.postMessage({ type: 'stop' } satisfies ToWorkersThread);
      const timer = setTimeout(() => {
        logger.warn('workers thread did not stop in time: terminated', { timeout_ms: STOP_TIMEOUT_MS });
        void worker.terminate();
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };

  return new Promise((resolve, reject) => {
    let ready = false;
    worker.on('message', (message: FromWorkersThread) => {
      if (message.type === 'job') metrics.recordJob(message.queue, message.outcome, message.seconds);
      else if (message.type === 'ready') {
        ready = true;
        resolve(thread);
      }
    });
    void exited.then((code) => {
      const reason = failure ? failure.name : `exit code ${code}`;
      if (!ready) reject(failure ?? new Error(`the workers thread ended during start-up (${reason})`));
      else if (!stopping) onExit(reason);
    });
  });
}
