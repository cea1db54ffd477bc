import type { PgBoss } from 'pg-boss';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Queryable } from '../../../db/pool.js';
import { defineJob, startJobLoops, type BatchItem, type FetchOptions, type QueueDefinition } from '../../../jobs/define-job.js';
import { bossDb } from '../../../jobs/pgboss.repo.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/outbound-transport.js';
import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { claimAttempt, claimForEndpoint, type ClaimResult, type NextAttempt } from './claim-attempt.js';
import { Slots } from './slots.js';

/**
 * Jobs that hand attempts to a job loop: one per endpoint that got new deliveries (it claims as
 * many as the endpoint has free slots), and one per retry or replay of a delivery. The delivery
 * rows' slots, leases and attempt counters are the truth, so a duplicate or retried job is a
 * no-op and a process that dies mid-attempt is recovered by the dispatcher's sweep
 * (fan-out/outbox-dispatcher.ts).
 */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

/** The queue's policy. */
export const webhookDeliveryQueue: QueueDefinition = {
  name: WEBHOOK_DELIVERY_QUEUE,
  // Retries here only cover a handler that could not reach the database; HTTP retries follow
  // WEBHOOK_RETRY_SCHEDULE with a new job per attempt.
  // heartbeatSeconds: a process killed after fetching a batch but before claiming its deliveries
  // (no lease yet, so the sweep does not see them) has its jobs retried within a minute, not at expiry.
  options: { notify: true, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300, heartbeatSeconds: 30 },
};

/** How a job loop fetches: large batches, since a handler only claims (the requests run beside it). */
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

export interface DeliveryJobOptions {
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
 * another endpoint's job. The process slots and the transports' state it keeps (FHIR tokens, MLLP connections) are this process's.
 */
export function createDeliveryHandler(
  deps: DeliveryDeps,
  options: DeliveryJobOptions = {},
): (data: DeliveryJob) => Promise<DeliveryJobResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? Math.ceil(timeoutMs / 1000) + 5;
  const slots = new Slots(options.maxInFlight ?? 1_000);
  const sender = deps.transports.sender(deps);
  const concurrency = deps.config.WEBHOOK_ENDPOINT_CONCURRENCY;

  /** Sends a claimed attempt (after its pacing wait), then the deliveries its endpoint handed the freed slot to, in turn. */
  const send = async (first: NextAttempt): Promise<void> => {
    const claimed = first.claimed;
    let next: NextAttempt[] = [];
    try {
      if (first.waitMs > 0) await sleep(first.waitMs);
      next = (await attemptDelivery(deps, claimed, claimed.attempt_count + 1, sendDeliveryJobs, timeoutMs, sender, leaseSeconds)).next;
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
 * One handler (its slots, FHIR tokens and MLLP connections) per job runner's deps, made on its
 * first batch: a second runtime in the same process (a restart, a test, the benchmarks) gets its own,
 * never the first one's pool and connections.
 */
export function deliveryJob(options: DeliveryJobOptions = {}) {
  const handlers = new WeakMap<DeliveryDeps, (data: DeliveryJob) => Promise<DeliveryJobResult>>();
  return defineJob<DeliveryJob, DeliveryDeps>({
    queue: webhookDeliveryQueue,
    schema: deliveryJobSchema,
    fetch: deliveryWorkOptions,
    async handleBatch(deps, items) {
      let handle = handlers.get(deps);
      if (!handle) handlers.set(deps, (handle = createDeliveryHandler(deps, options)));
      const retry = new Set<BatchItem<DeliveryJob>>();
      await Promise.all(
        items.map(async (item) => {
          try {
            await handle(item.data);
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

/** Starts the delivery job's loops with their own options (tests and benches that shorten the timeout or lease). */
export async function startWebhookDeliveryLoops(deps: DeliveryDeps, options: DeliveryJobOptions = {}): Promise<void> {
  await startJobLoops(deps, deliveryJob(options));
}
