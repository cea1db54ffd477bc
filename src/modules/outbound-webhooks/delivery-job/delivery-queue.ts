import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Queryable } from '../../../db/pool.js';
import type { FetchOptions, QueueDefinition } from '../../../jobs/define-job.js';
import { bossDb } from '../../../jobs/pgboss.repo.js';

/**
 * Jobs that hand attempts to a worker: one per endpoint that got new deliveries (it claims as
 * many as the endpoint has free slots), and one per retry or replay of a delivery. The delivery
 * rows' slots, leases and attempt counters are the truth, so a duplicate or retried job is a
 * no-op and a worker that dies mid-attempt is recovered by the dispatcher's sweep
 * (fan-out/outbox-dispatcher.ts).
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

/** One attempt of one delivery: its retry (at its time) or its replay. */
export const attemptJobSchema = z.object({ delivery_id: z.uuid(), attempt: z.number().int().min(1) });
/** An endpoint's waiting deliveries, as many as it has free slots: after a fan-out, or from the sweep. */
export const endpointJobSchema = z.object({ endpoint_id: z.uuid() });
export const deliveryJobSchema = z.union([attemptJobSchema, endpointJobSchema]);
export type AttemptJob = z.infer<typeof attemptJobSchema>;
export type EndpointJob = z.infer<typeof endpointJobSchema>;
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/** Queues jobs inside the caller's transaction, so they exist exactly when the rows do. */
export async function sendDeliveryJobs(
  boss: PgBoss,
  tx: Queryable,
  jobs: Array<(AttemptJob & { startAfterSeconds?: number }) | EndpointJob>,
): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(
    WEBHOOK_DELIVERY_QUEUE,
    jobs.map((job) => {
      if (!('delivery_id' in job)) return { data: job };
      const { startAfterSeconds, ...data } = job;
      return { data, ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}) };
    }),
    { db: bossDb(tx) },
  );
}
