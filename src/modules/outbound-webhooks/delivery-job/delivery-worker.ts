import { defineJob, startWorker, type BatchItem } from '../../../jobs/define-job.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { newTransportState } from '../transport/send-by-kind.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/send-webhook.js';
import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { claimAttempt, claimForEndpoint, type ClaimResult, type NextAttempt } from './claim-attempt.js';
import { deliveryJobSchema, deliveryWorkOptions, webhookDeliveryQueue, type DeliveryJob } from './delivery-queue.js';
import { Slots } from './slots.js';

export interface DeliveryWorkerOptions {
  /** per-request timeout (DESIGN: 15 s) */
  timeoutMs?: number;
  /** how long a claimed attempt stays owned; past it the dispatcher's sweep queues it again */
  leaseSeconds?: number;
  /**
   * Attempts in flight at once in this process, whatever their endpoints. The fair share is per
   * endpoint (WEBHOOK_ENDPOINT_CONCURRENCY, in the database); this only bounds the sockets, so
   * it stays well above what one group can hold (WEBHOOK_ENDPOINTS_PER_GROUP x the concurrency).
   */
  maxInFlight?: number;
}

/** `claimed`: the attempt runs beside the job; `waiting`: its endpoint will admit it later; `skipped`: already made, held, or no longer pending. */
export type DeliveryJobResult = 'claimed' | 'waiting' | 'skipped';

/**
 * The delivery job's handler, a function of the job's data. It only claims its attempt (a lease
 * on the delivery row, granted under its endpoint's slots: claim-attempt.ts) and returns; the
 * request runs beside it, so one slow or dead endpoint holds its own slots for at most the
 * timeout and never a batch of other deliveries. When an attempt ends, the transaction that
 * records it also claims the endpoint's next waiting deliveries, and this process sends them at
 * once: a busy endpoint's backlog never passes through the job queue, so it never queues ahead of
 * another endpoint's job. The process slots and FHIR tokens it keeps are this process's.
 */
export function createDeliveryHandler(
  deps: DeliveryDeps,
  options: DeliveryWorkerOptions = {},
): (data: DeliveryJob) => Promise<DeliveryJobResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? Math.ceil(timeoutMs / 1000) + 5;
  const slots = new Slots(options.maxInFlight ?? 1_000);
  const transport = newTransportState();
  const concurrency = deps.config.WEBHOOK_ENDPOINT_CONCURRENCY;

  /** Sends a claimed attempt (after its pacing wait), then the deliveries its endpoint handed the freed slot to, in turn. */
  const send = async (first: NextAttempt): Promise<void> => {
    const claimed = first.claimed;
    let next: NextAttempt[] = [];
    try {
      if (first.waitMs > 0) await sleep(first.waitMs);
      next = (await attemptDelivery(deps, claimed, claimed.attempt_count + 1, timeoutMs, transport, leaseSeconds)).next;
    } catch (err) {
      deps.logger.error('webhook attempt not recorded; its lease will expire and it will be retried', {
        delivery_id: claimed.id,
        error_name: (err as Error).name,
      });
    } finally {
      slots.release();
    }
    await start(next);
  };

  const start = async (claims: NextAttempt[]): Promise<void> => {
    for (const c of claims) {
      await slots.acquire();
      void send(c);
    }
  };

  const handle = async (data: DeliveryJob): Promise<DeliveryJobResult> => {
    if ('endpoint_id' in data) {
      const claims = await claimForEndpoint(deps.pool, data.endpoint_id, leaseSeconds, concurrency);
      await start(claims);
      return claims.length ? 'claimed' : 'skipped';
    }
    await slots.acquire();
    let claim: ClaimResult = 'skipped';
    try {
      claim = await claimAttempt(deps.pool, data, leaseSeconds, concurrency);
    } finally {
      if (typeof claim === 'string') slots.release();
    }
    if (typeof claim === 'string') return claim;
    void send(claim);
    return 'claimed';
  };
  return handle;
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
              ...('delivery_id' in item.data ? { delivery_id: item.data.delivery_id } : { endpoint_id: item.data.endpoint_id }),
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
