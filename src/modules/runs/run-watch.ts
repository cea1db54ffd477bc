import { CHANNELS, type NotificationHub } from '../../db/notifications.js';

export interface RunWatch {
  /**
   * Resolves true as soon as the run may have changed since the watch began or the last call,
   * false at the deadline or when `signal` aborts. No polling: NOTIFY wakes it.
   */
  changed(deadline: number, signal?: AbortSignal): Promise<boolean>;
  close(): void;
}

/**
 * Watches one run through the process's LISTEN connection. Create it BEFORE reading the run:
 * a change committed between the read and the wait then still wakes the waiter.
 */
export function watchRun(hub: NotificationHub, runId: string): RunWatch {
  let dirty = false;
  let wake: (() => void) | undefined;
  const mark = () => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = hub.subscribe(CHANNELS.runs, (payload) => payload === runId && mark());
  // After a reconnection, notifications may have been missed: read again.
  const unhook = hub.onReconnect(mark);
  return {
    async changed(deadline, signal) {
      if (!dirty) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
          signal?.addEventListener('abort', done, { once: true });
          wake = done;
          function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          }
        });
      }
      if (!dirty || signal?.aborted) return false;
      dirty = false;
      return true;
    },
    close() {
      unsubscribe();
      unhook();
    },
  };
}
