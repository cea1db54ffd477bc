import type { AppDeps } from '../app-deps.js';
import { withTransaction } from '../db/transaction.js';
import { retireEndpoint } from '../modules/webhook-endpoints/webhook-endpoints.repo.js';
import {
  cancelDelivery,
  claimDelivery,
  recordAttempt,
  type AttemptOutcome,
  type ClaimedDelivery,
} from '../modules/webhook-deliveries/webhook-deliveries.repo.js';
import { nextRetryDelay } from '../webhooks/retry-policy.js';
import { DELIVERY_TIMEOUT_MS } from '../webhooks/send-webhook.js';
import { newTransportState, sendByKind, type TransportState } from '../webhooks/transports.js';
import { deliveryJobSchema, sendDeliveryJobs, WEBHOOK_DELIVERY_QUEUE } from './webhook-queue.js';

export interface DeliveryWorkerOptions {
  /** per-request timeout (DESIGN: 15 s) */
  timeoutMs?: number;
  /** how long a claimed attempt stays owned; past it the dispatcher's sweep queues it again */
  leaseSeconds?: number;
  /** attempts in flight at once in this process */
  maxInFlight?: number;
}

/** Counts attempts in flight; `acquire` waits while the process is at capacity. */
class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}
  async acquire(): Promise<void> {
    if (this.used < this.max) {
      this.used++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}

/**
 * Delivery worker. A job's handler only claims its attempt (a lease on the delivery row) and
 * returns; the HTTP request runs beside it, so one slow or dead endpoint holds one slot for at
 * most the timeout and never a batch of other deliveries. The outcome, the attempt log and the
 * next attempt's job commit in one transaction.
 */
export async function startWebhookDeliveryWorker(deps: AppDeps, options: DeliveryWorkerOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? Math.ceil(timeoutMs / 1000) + 5;
  const slots = new Slots(options.maxInFlight ?? 200);
  const transport = newTransportState();
  await deps.boss.work(
    WEBHOOK_DELIVERY_QUEUE,
    { batchSize: 50, burstWhenBatchFull: true, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2 },
    async (jobs) => {
      await Promise.all(
        jobs.map(async (job) => {
          const parsed = deliveryJobSchema.safeParse(job.data);
          if (!parsed.success) {
            deps.logger.error('webhook delivery job with bad data dropped', { job_id: job.id });
            return;
          }
          await slots.acquire();
          let claimed: ClaimedDelivery | undefined;
          try {
            claimed = await claimDelivery(deps.pool, parsed.data.delivery_id, parsed.data.attempt, leaseSeconds);
          } finally {
            if (!claimed) slots.release();
          }
          if (!claimed) return;
          const delivery = claimed;
          void attemptDelivery(deps, delivery, parsed.data.attempt, timeoutMs, transport)
            .catch((err: Error) =>
              deps.logger.error('webhook attempt not recorded; its lease will expire and it will be retried', {
                delivery_id: delivery.id,
                error_name: err.name,
              }),
            )
            .finally(() => slots.release());
        }),
      );
    },
  );
}

/** Makes one attempt of a claimed delivery and records what happened. */
export async function attemptDelivery(
  deps: AppDeps,
  d: ClaimedDelivery,
  attempt: number,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  transport: TransportState = newTransportState(),
): Promise<void> {
  if (d.endpoint_status !== 'active') {
    await cancelDelivery(deps.pool, d.id, `endpoint ${d.endpoint_status}`);
    return;
  }
  if (d.event_redacted) {
    await cancelDelivery(deps.pool, d.id, 'payload redacted after the retention period');
    return;
  }
  const result = await sendByKind(deps, d, timeoutMs, transport);
  if (typeof result === 'string') {
    await cancelDelivery(deps.pool, d.id, result);
    return;
  }
  const base = { deliveryId: d.id, attempt, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
  let outcome: AttemptOutcome;
  const code = result.statusCode ?? 0;
  if (result.delivered ?? (code >= 200 && code < 300)) outcome = { ...base, status: 'delivered' };
  else if (code === 410) outcome = { ...base, status: 'dead', error: 'HTTP 410: endpoint gone, endpoint disabled' };
  else if (result.permanent) outcome = { ...base, status: 'dead' };
  else {
    const delay = nextRetryDelay(deps.config.WEBHOOK_RETRY_SCHEDULE, d.retry_index, result.retryAfter);
    outcome = delay === undefined ? { ...base, status: 'dead' } : { ...base, status: 'pending', retryInSeconds: delay, retryIndex: d.retry_index + 1 };
  }
  await withTransaction(deps.pool, async (tx) => {
    if (!(await recordAttempt(tx, outcome))) return;
    if (code === 410) await retireEndpoint(tx, d.endpoint_id, 'disabled', 'endpoint answered 410 Gone');
    if (outcome.status === 'pending') {
      await sendDeliveryJobs(deps.boss, tx, [{ delivery_id: d.id, attempt: attempt + 1, startAfterSeconds: outcome.retryInSeconds }]);
    }
  });
  const log = { delivery_id: d.id, endpoint_id: d.endpoint_id, kind: d.kind, event_type: d.event_type, attempt, status_code: result.statusCode, ms: result.durationMs };
  if (outcome.status === 'delivered') deps.logger.info('webhook delivered', log);
  else if (outcome.status === 'dead') deps.logger.warn('webhook delivery dead', { ...log, error: outcome.error });
  else deps.logger.info('webhook attempt failed; retry scheduled', { ...log, error: outcome.error, retry_in_s: outcome.retryInSeconds });
}
