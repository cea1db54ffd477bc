import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Queryable } from '../../../db/pool.js';
import type { FetchOptions, QueueDefinition } from '../../../jobs/define-job.js';
import { bossDb } from '../../../jobs/pgboss.repo.js';

/**
 * One job per delivery attempt. The job only hands the attempt to a worker: the delivery row's
 * lease and attempt counter are the truth, so a duplicate or retried job is a no-op and a worker
 * that dies mid-attempt is recovered by the dispatcher's sweep (fan-out/outbox-dispatcher.ts).
 */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/** The queue's policy. */
export const webhookDeliveryQueue: QueueDefinition = {
  name: WEBHOOK_DELIVERY_QUEUE,
  // Retries here only cover a handler that could not reach the database; HTTP retries follow
  // WEBHOOK_RETRY_SCHEDULE with a new job per attempt.
  // heartbeatSeconds: a worker killed after fetching a batch but before claiming its deliveries
  // (no lease yet, so the sweep does not see them) has its jobs retried within a minute, not at expiry.
  options: { notify: true, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300, heartbeatSeconds: 30 },
};

/** How a worker fetches: large batches, since a handler only claims (the requests run beside it). */
export const deliveryWorkOptions: FetchOptions = {
  batchSize: 50,
  burstWhenBatchFull: true,
  pollingIntervalSeconds: 0.5,
  notifyPollingIntervalSeconds: 2,
};

export const deliveryJobSchema = z.object({ delivery_id: z.uuid(), attempt: z.number().int().min(1) });
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/** Queues attempts inside the caller's transaction, so they exist exactly when the rows do. */
export async function sendDeliveryJobs(
  boss: PgBoss,
  tx: Queryable,
  jobs: Array<DeliveryJob & { startAfterSeconds?: number }>,
): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(
    WEBHOOK_DELIVERY_QUEUE,
    jobs.map(({ startAfterSeconds, ...data }) => ({ data, ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}) })),
    { db: bossDb(tx) },
  );
}
