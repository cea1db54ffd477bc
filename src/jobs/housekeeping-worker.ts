import type { AppDeps } from '../app-deps.js';
import { deleteExpiredRateLimitWindows } from '../http/rate-limit-store.js';
import { deleteIdempotencyKeysOlderThan } from '../modules/calls/idempotency.repo.js';
import { HOUSEKEEPING_QUEUE } from './queues.js';

/** How long a call's Idempotency-Key answers a retry with the first answer. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** Deletes what no longer serves anyone: expired rate-limit windows and old idempotency keys. */
export async function housekeep(deps: Pick<AppDeps, 'pool' | 'logger'>): Promise<{ rateLimitWindows: number; idempotencyKeys: number }> {
  const rateLimitWindows = await deleteExpiredRateLimitWindows(deps.pool);
  const idempotencyKeys = await deleteIdempotencyKeysOlderThan(deps.pool, IDEMPOTENCY_KEY_HOURS);
  deps.logger.info('housekeeping done', { rate_limit_windows: rateLimitWindows, idempotency_keys: idempotencyKeys });
  return { rateLimitWindows, idempotencyKeys };
}

/** Hourly, on pg-boss's schedule: one process of the deployment runs it each time. */
export async function startHousekeepingWorker(deps: AppDeps): Promise<void> {
  await deps.boss.schedule(HOUSEKEEPING_QUEUE, '17 * * * *');
  await deps.boss.work(HOUSEKEEPING_QUEUE, async () => {
    await housekeep(deps);
  });
}
