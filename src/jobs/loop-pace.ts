/**
 * How long a job loop (one pg-boss `work()` registration) waits after a batch before it may fetch
 * again: nothing after a full batch (a backlog drains at full speed, pg-boss refetches at once),
 * else what is left of `paceMs` since the batch was fetched. Pure.
 */
export function pauseLeft(fetched: number, batchSize: number, elapsedMs: number, paceMs: number): number {
  if (fetched >= batchSize) return 0;
  return Math.max(0, paceMs - elapsedMs);
}

/**
 * Paces a pg-boss batch handler (defineJob's `fetch.paceMs`): a loop fetches at most once per
 * `paceMs` unless its batches come back full. Without it, under load every NOTIFY of the ingest
 * statements wakes the loop at once, so it fetches a few events at a time and pays each batch's
 * fixed work (the fetch, the read of its events, their completion, the jobs' completion) over and
 * over (README "Why it is built this way"). A quiet queue loses nothing: the first event is
 * fetched at once, and an event's status is recorded before the pause (only the job's own
 * completion waits for it).
 */
export function paced<J, R>(handler: (jobs: J[]) => Promise<R>, options: { batchSize: number; paceMs: number }): (jobs: J[]) => Promise<R> {
  return async (jobs) => {
    const started = performance.now();
    const result = await handler(jobs);
    const pause = pauseLeft(jobs.length, options.batchSize, performance.now() - started, options.paceMs);
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    return result;
  };
}
