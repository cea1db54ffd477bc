import { CHANNELS, type NotificationHub } from '../../db/notifications.js';
import type { Queryable } from '../../db/pool.js';
import { findCodifyRun, type CodifyRun } from './codify.repo.js';

export interface CodifyWaiter {
  /** The run once it has ended, or 'timeout'. */
  result: Promise<CodifyRun | 'timeout'>;
  /** Starts reading: call after the run is committed (the subscription is already in place). */
  check(): void;
  cancel(): void;
}

/**
 * Waits for a codification to end without polling: subscribes to its NOTIFY channel before the
 * job is enqueued, so the end cannot be missed, and re-reads after a listener reconnection.
 */
export function awaitCodification(
  notifications: NotificationHub,
  db: Queryable,
  id: string,
  timeoutMs: number,
  onError: (err: Error) => void,
): CodifyWaiter {
  let settle!: (value: CodifyRun | 'timeout') => void;
  let fail!: (err: Error) => void;
  const result = new Promise<CodifyRun | 'timeout'>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  let done = false;
  const cleanups: Array<() => void> = [];
  const finish = () => {
    done = true;
    for (const c of cleanups) c();
  };
  const check = () => {
    if (done) return;
    findCodifyRun(db, id)
      .then((run) => {
        if (done || !run || (run.status !== 'completed' && run.status !== 'failed')) return;
        finish();
        settle(run);
      })
      .catch((err: Error) => {
        if (done) return;
        onError(err);
        finish();
        fail(err);
      });
  };
  cleanups.push(notifications.subscribe(CHANNELS.codify, (payload) => payload === id && check()));
  cleanups.push(notifications.onReconnect(check));
  const timer = setTimeout(() => {
    if (done) return;
    finish();
    settle('timeout');
  }, timeoutMs);
  cleanups.push(() => clearTimeout(timer));
  return { result, check, cancel: finish };
}
