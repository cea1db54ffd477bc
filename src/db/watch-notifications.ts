import type { NotificationHub } from './notifications.js';

export interface Watch {
  /**
   * Resolves true as soon as the row may have changed since the watch began or the last call,
   * false at the deadline or when `signal` aborts. No polling: NOTIFY wakes it.
   */
  changed(deadline: number, signal?: AbortSignal): Promise<boolean>;
  /** Wakes the waiter to read again, as a NOTIFY would (the caller knows the row may have changed). */
  poke(): void;
  close(): void;
}

/**
 * Watches one row (a run, a codification) through the process's LISTEN connection: woken by a
 * NOTIFY on `channel` whose payload is `id`. The one NOTIFY waiter of the HTTP side (run wait and
 * stream, POST /v1/codify). Create it BEFORE reading the row: a change committed between the read
 * and the wait then still wakes the waiter.
 */
export function watchNotifications(hub: NotificationHub, channel: string, id: string): Watch {
  let dirty = false;
  let wake: (() => void) | undefined;
  const mark = () => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = hub.subscribe(channel, (payload) => payload === id && mark());
  // After a reconnection, notifications may have been missed: read again.
  const unhook = hub.onReconnect(mark);
  return {
    async changed(deadline, signal) {
      if (signal?.aborted) return false;
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
    poke: mark,
    close() {
      unsubscribe();
      unhook();
    },
  };
}
