import { defineJob, startWorker, type BatchItem } from '../../../jobs/define-job.js';
import { claimDelivery, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { newTransportState } from '../transport/send-by-kind.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/send-webhook.js';
import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { deliveryJobSchema, deliveryWorkOptions, webhookDeliveryQueue, type DeliveryJob } from './delivery-queue.js';
import { Slots } from './slots.js';

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
    void attemptDelivery(deps, delivery, data.attempt, timeoutMs, transport)
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
