import type { Config } from './config.js';
import type { Logger } from './lib/logger.js';
import { spawnThread } from './lib/thread-pool.js';
import type { JobOutcome, Metrics } from './metrics/metrics.js';

export interface JobRunnerThreadData {
  config: Config;
  databaseUrl: string;
}

export type ToJobRunnerThread = { type: 'stop' };
export type FromJobRunnerThread = { type: 'ready' } | { type: 'job'; queue: string; outcome: JobOutcome; seconds: number };

export interface JobRunnerThread {
  /** Stops the job runner gracefully (its jobs end or return to the queue) and waits for the thread to end. */
  stop(): Promise<void>;
}

/** The graceful stop gets this long (pg-boss's own stop waits up to 20 s), then the thread is terminated. */
const STOP_TIMEOUT_MS = 25_000;

const ENTRY = new URL(`./job-runner-thread-entry${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * ROLE=all: the job runner in a thread of this process (job-runner-thread-entry.ts), not on the
 * event loop that answers HTTP, where every job batch and every fetch would delay the answers
 * queued behind it (README "Why it is built this way"). The thread uses the second core and its
 * own connections; the data it works on is shared through PostgreSQL only, as with ROLE=worker
 * processes.
 *
 * Resolves once the job runner runs; rejects if the thread fails to start. `onExit` is called if the
 * thread ends later without being asked to (a crash): the process must not go on answering while
 * nothing processes what it accepts. `entry` is the thread's module (tests give their own).
 */
export function startJobRunnerThread(
  config: Config,
  databaseUrl: string,
  metrics: Pick<Metrics, 'recordJob'>,
  logger: Logger,
  onExit: (reason: string) => void,
  entry = ENTRY,
): Promise<JobRunnerThread> {
  const thread = spawnThread(entry, {
    // A young generation of 8 MB rather than V8's default (up to 48 MB), as the engine's threads: a lower peak RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
    workerData: { config, databaseUrl } satisfies JobRunnerThreadData,
    // The name and the log lines keep the operators' word for the job-running role (ROLE=worker).
    name: 'clinigate-workers',
  });
  let stopping = false;
  let failure: Error | undefined;
  const exited = new Promise<number>((resolve) => thread.once('exit', resolve));
  thread.on('error', (err: Error & { code?: string }) => {
    failure = err;
    // Its name and code only: an error's message may quote the data it failed on.
    logger.error('workers thread failed', { error_name: err.name, error_code: err.code });
  });

  const runner: JobRunnerThread = {
    async stop() {
      if (stopping) return void (await exited);
      stopping = true;
      thread.postMessage({ type: 'stop' } satisfies ToJobRunnerThread);
      const timer = setTimeout(() => {
        logger.warn('workers thread did not stop in time: terminated', { timeout_ms: STOP_TIMEOUT_MS });
        void thread.terminate();
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };

  return new Promise((resolve, reject) => {
    let ready = false;
    thread.on('message', (message: FromJobRunnerThread) => {
      if (message.type === 'job') metrics.recordJob(message.queue, message.outcome, message.seconds);
      else if (message.type === 'ready') {
        ready = true;
        resolve(runner);
      }
    });
    void exited.then((code) => {
      const reason = failure ? failure.name : `exit code ${code}`;
      if (!ready) reject(failure ?? new Error(`the workers thread ended during start-up (${reason})`));
      else if (!stopping) onExit(reason);
    });
  });
}
