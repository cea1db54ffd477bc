import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { deleteExpiredRateLimitWindows } from '../../db/rate-limits.repo.js';
import { defineJob } from '../../jobs/define-job.js';
import { deleteIdempotencyKeysOlderThan } from '../calls/idempotency.repo.js';
import { redactInboundEventsOlderThan } from '../inbound-events/inbound-events.repo.js';
import { redactOutboxOlderThan } from '../../outbound-events/outbox.repo.js';

/** Hourly clean-up of expired rate-limit windows and idempotency keys, and redaction after RETENTION_DAYS. */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

/** How long a call's Idempotency-Key answers a retry with the first answer. */
export const IDEMPOTENCY_KEY_HOURS = 24;

export interface HousekeepingResult {
  rateLimitWindows: number;
  idempotencyKeys: number;
  /** Inbound event bodies and outbox payloads redacted after RETENTION_DAYS. */
  redactedInboundEvents: number;
  redactedOutboxEvents: number;
}

/**
 * Deletes what no longer serves anyone (expired rate-limit windows, old idempotency keys) and
 * redacts working copies of PHI older than RETENTION_DAYS (DESIGN "Data retention"): inbound event
 * bodies and outbox payloads, which deliveries send. The record itself (transcriptions, notes,
 * runs, codifications) is kept; so are the redacted rows' ids, types, states and times.
 */
export async function housekeep(
  deps: Pick<AppDeps, 'pool' | 'logger'> & { config: Pick<AppDeps['config'], 'RETENTION_DAYS'> },
): Promise<HousekeepingResult> {
  const rateLimitWindows = await deleteExpiredRateLimitWindows(deps.pool);
  const idempotencyKeys = await deleteIdempotencyKeysOlderThan(deps.pool, IDEMPOTENCY_KEY_HOURS);
  const redactedInboundEvents = await redactInboundEventsOlderThan(deps.pool, deps.config.RETENTION_DAYS);
  const redactedOutboxEvents = await redactOutboxOlderThan(deps.pool, deps.config.RETENTION_DAYS);
  deps.logger.info('housekeeping done', {
    rate_limit_windows: rateLimitWindows,
    idempotency_keys: idempotencyKeys,
    redacted_inbound_events: redactedInboundEvents,
    redacted_outbox_events: redactedOutboxEvents,
  });
  return { rateLimitWindows, idempotencyKeys, redactedInboundEvents, redactedOutboxEvents };
}

/** Hourly, on pg-boss's schedule: one process of the deployment runs it each time. */
export const housekeepingJob = defineJob<unknown, AppDeps>({
  // A missed hour is simply done the next one.
  queue: { name: HOUSEKEEPING_QUEUE, options: { retryLimit: 1, expireInSeconds: 300 } },
  // The schedule's jobs carry no data.
  schema: z.unknown(),
  schedule: '17 * * * *',
  async handle(deps) {
    await housekeep(deps);
  },
});
