import { defineJob, startWorker, type BatchItem } from '../../../jobs/define-job.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { newTransportState } from '../transport/send-by-kind.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/send-webhook.js';
import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { claimAttempt, type ClaimResult } from './claim-attempt.js';
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
 * timeout and never a batch of other deliveries. When an attempt ends, the deliveries its
 * endpoint admitted in its place are claimed here at once (their queued jobs are the fallback,
 * and find them taken). The process slots and FHIR tokens it keeps are this process's.
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

  const send = async (claimed: ClaimedDelivery, attempt: number, waitMs: number): Promise<DeliveryJob[]> => {
    try {
      if (waitMs > 0) await sleep(waitMs);
      return (await attemptDelivery(deps, claimed, attempt, timeoutMs, transport)).next;
    } catch (err) {
      deps.logger.error('webhook attempt not recorded; its lease will expire and it will be retried', {
        delivery_id: claimed.id,
        error_name: (err as Error).name,
      });
      return [];
    } finally {
      slots.release();
    }
  };

  const handle = async (data: DeliveryJob): Promise<DeliveryJobResult> => {
    await slots.acquire();
    let claim: ClaimResult = 'skipped';
    try {
      claim = await claimAttempt(deps.pool, data, leaseSeconds, concurrency);
    } finally {
      if (typeof claim === 'string') slots.release();
    }
    if (typeof claim === 'string') return claim;
    void send(claim.claimed, data.attempt, claim.waitMs).then((next) => {
      for (const job of next) handle(job).catch(() => undefined);
    });
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
