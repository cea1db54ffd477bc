import { claimDelivery, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { newTransportState } from '../transport/send-by-kind.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/send-webhook.js';
import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { deliveryJobSchema, deliveryWorkOptions, WEBHOOK_DELIVERY_QUEUE, type DeliveryJob } from './delivery-queue.js';
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

/** Registers the delivery worker: batches of jobs, each parsed and handed to the handler. */
export async function startWebhookDeliveryWorker(deps: DeliveryDeps, options: DeliveryWorkerOptions = {}): Promise<void> {
  const handle = createDeliveryHandler(deps, options);
  await deps.boss.work(WEBHOOK_DELIVERY_QUEUE, deliveryWorkOptions, async (jobs) => {
    await Promise.all(
      jobs.map(async (job) => {
        const parsed = deliveryJobSchema.safeParse(job.data);
        if (!parsed.success) {
          deps.logger.error('webhook delivery job with bad data dropped', { job_id: job.id });
          return;
        }
        await handle(parsed.data);
      }),
    );
  });
}
