import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Queryable } from '../../../db/pool.js';
import { defineJob, startWorker, type BatchItem, type FetchOptions, type QueueDefinition } from '../../../jobs/define-job.js';
import { bossDb } from '../../../jobs/pgboss.repo.js';
import { claimDelivery, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { newTransportState } from '../transport/send-by-kind.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/send-webhook.js';
import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { Slots } from './slots.js';

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

export interface DeliveryWorkerOptions {
  /** per-request timeout (DESIGN: 15 s) */
  timeoutMs?: number;
  /** how long a claimed attempt stays owned; past it the dispatcher's sweep queues it again */
  leaseSeconds?: number;
  /** attempts in flight at once in this process */
  maxInFlight?: number;
}

/** `claimed`: the attempt runs beside the job; `skipped`: already made, held by another worker, or no longer pending. */
export type DeliveryJobResult = 'claimed' | 'skipped';

/**
 * The delivery job's handler, a function of the job's data. It only claims its attempt (a lease
 * on the delivery row) and returns; the request runs beside it, so one slow or dead endpoint
 * holds one slot for at most the timeout and never a batch of other deliveries. The slots and
 * FHIR tokens it keeps are this process's.
 */
export function createDeliveryHandler(
  deps: DeliveryDeps,
  options: DeliveryWorkerOptions = {},
): (data: DeliveryJob) => Promise<DeliveryJobResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? Math.ceil(timeoutMs / 1000) + 5;
  const slots = new Slots(options.maxInFlight ?? 200);
  const transport = newTransportState();
  return async (data) => {
    await slots.acquire();
    let claimed: ClaimedDelivery | undefined;
    try {
      claimed = await claimDelivery(deps.pool, data.delivery_id, data.attempt, leaseSeconds);
    } finally {
      if (!claimed) slots.release();
    }
    if (!claimed) return 'skipped';
    const delivery = claimed;
    void attemptDelivery(deps, delivery, data.attempt, sendDeliveryJobs, timeoutMs, transport)
      .catch((err: Error) =>
        deps.logger.error('webhook attempt not recorded; its lease will expire and it will be retried', {
          delivery_id: delivery.id,
          error_name: err.name,
        }),
      )
      .finally(() => slots.release());
    return 'claimed';
  };
}

/**
 * The delivery job (defineJob): batches of attempts, each claimed by the handler and sent beside
 * the job. Only a claim that could not reach the database throws; that job alone is retried.
 * One handler (its slots and FHIR tokens) per job definition, made on the first batch.
 */
export function deliveryJob(options: DeliveryWorkerOptions = {}) {
  let handle: ((data: DeliveryJob) => Promise<DeliveryJobResult>) | undefined;
  return defineJob<DeliveryJob, DeliveryDeps>({
    queue: webhookDeliveryQueue,
    schema: deliveryJobSchema,
    fetch: deliveryWorkOptions,
    async handleBatch(deps, items) {
      handle ??= createDeliveryHandler(deps, options);
      const retry = new Set<BatchItem<DeliveryJob>>();
      await Promise.all(
        items.map(async (item) => {
          try {
            await handle!(item.data);
          } catch (err) {
            deps.logger.error('webhook delivery not claimed; the job is retried', {
              delivery_id: item.data.delivery_id,
              error_name: (err as Error).name,
            });
            retry.add(item);
          }
        }),
      );
      return retry;
    },
  });
}

/** The service's delivery job (job-registry.ts). */
export const webhookDeliveryJob = deliveryJob();

/** Starts a delivery worker with its own options (tests and benches that shorten the timeout or lease). */
export async function startWebhookDeliveryWorker(deps: DeliveryDeps, options: DeliveryWorkerOptions = {}): Promise<void> {
  await startWorker(deps, deliveryJob(options));
}
