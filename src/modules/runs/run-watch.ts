import { CHANNELS, type NotificationHub } from '../../db/notifications.js';
import { watchNotifications, type Watch } from '../../db/watch-notifications.js';

export type RunWatch = Watch;

/** Watches one run (NOTIFY on the runs channel): create it before reading the run. */
export function watchRun(hub: NotificationHub, runId: string): RunWatch {
  return watchNotifications(hub, CHANNELS.runs, runId);
}
