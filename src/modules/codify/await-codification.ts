import { CHANNELS, type NotificationHub } from '../../db/notifications.js';
import type { Queryable } from '../../db/pool.js';
import { watchNotifications } from '../../db/watch-notifications.js';
import { findCodifyRun, type CodifyRun } from './codify.repo.js';

export interface CodifyWaiter {
  /** The run once it has ended, or 'timeout'. */
  result: Promise<CodifyRun | 'timeout'>;
  /** Starts reading: call after the run is committed (the subscription is already in place). */
  check(): void;
  cancel(): void;
}

/**
 * Waits for a codification to end without polling: watches its NOTIFY channel from before the
 * job is enqueued, so the end cannot be missed, and re-reads after a listener reconnection
 * (db/watch-notifications.ts).
 */
export function awaitCodification(
  notifications: NotificationHub,
  db: Queryable,
  id: string,
  timeoutMs: number,
  onError: (err: Error) => void,
): CodifyWaiter {
  const deadline = Date.now() + timeoutMs;
  const watch = watchNotifications(notifications, CHANNELS.codify, id);
  const cancelled = new AbortController();
  // Each read follows a wake-up: the end's NOTIFY, a listener reconnection, or check().
  const result = (async (): Promise<CodifyRun | 'timeout'> => {
    try {
      while (await watch.changed(deadline, cancelled.signal)) {
        const run = await findCodifyRun(db, id);
        if (run && (run.status === 'completed' || run.status === 'failed')) return run;
      }
      return 'timeout';
    } catch (err) {
      onError(err as Error);
      throw err;
    } finally {
      watch.close();
    }
  })();
  return { result, check: () => watch.poke(), cancel: () => cancelled.abort() };
}
