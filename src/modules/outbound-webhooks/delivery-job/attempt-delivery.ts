import type { AppDeps } from '../../../app-deps.js';
import type { Queryable } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import { cancelDelivery, recordAttempt, type AttemptOutcome, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { announceHealth } from '../endpoints/endpoint-health.js';
import { countAttempt, resetHealth } from '../endpoints/endpoint-health.repo.js';
import { retireEndpoint } from '../endpoints/webhook-endpoints.repo.js';
import { DELIVERY_TIMEOUT_MS, type DeliverySender } from '../transport/outbound-transport.js';
import { claimNext, type NextAttempt } from './claim-attempt.js';
import { cancelReason, deliveryOutcome } from './delivery-outcome.js';

/** What a delivery attempt reads and writes: the database, the queue, the settings, the sealed secrets, the log and the kinds of destination. */
export type DeliveryDeps = Pick<AppDeps, 'config' | 'pool' | 'boss' | 'logger' | 'secrets' | 'transports'>;

/** Queues the next attempt in the caller's transaction: the delivery job's own `send` (webhook-delivery.job.ts). */
export type SendNextAttempt = (
  boss: AppDeps['boss'],
  tx: Queryable,
  jobs: Array<{ delivery_id: string; attempt: number; startAfterSeconds?: number }>,
) => Promise<void>;

/** What an attempt ended as, and the waiting deliveries of its endpoint it claimed in its place, for the caller to send. */
export interface AttemptResult {
  status: AttemptOutcome['status'];
  next: NextAttempt[];
}

/** Cancels a claimed delivery that is not to be sent, and hands its slot on. */
async function cancelAndAdmit(deps: DeliveryDeps, d: ClaimedDelivery, reason: string, leaseSeconds: number): Promise<AttemptResult> {
  const next = await withTransaction(deps.pool, async (tx) => {
    await cancelDelivery(tx, d.id, reason);
    return claimNext(tx, d, leaseSeconds);
  });
  return { status: 'cancelled', next };
}

/**
 * Makes one attempt of a claimed delivery and records what happened: the outcome, the attempt
 * log, the endpoint's health (one event when it changes), a retired endpoint, the next attempt's
 * job and the slot handed to the endpoint's next waiting delivery (claimed for the caller to
 * send) commit in one transaction.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  d: ClaimedDelivery,
  attempt: number,
  sendNextAttempt: SendNextAttempt,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  send: DeliverySender = deps.transports.sender(deps),
  leaseSeconds = Math.ceil(timeoutMs / 1000) + 5,
): Promise<AttemptResult> {
  const notSent = cancelReason(d);
  if (notSent) return cancelAndAdmit(deps, d, notSent, leaseSeconds);
  const result = await send(d, timeoutMs);
  if (typeof result === 'string') return cancelAndAdmit(deps, d, result, leaseSeconds);
  const decided = deliveryOutcome(result, { index: d.retry_index, schedule: deps.config.WEBHOOK_RETRY_SCHEDULE });
  const outcome: AttemptOutcome = {
    deliveryId: d.id,
    attempt,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: decided.error,
    status: decided.status,
    ...(decided.status === 'pending' ? { retryInSeconds: decided.retryInSeconds, retryIndex: decided.retryIndex } : {}),
  };
  const next = await withTransaction(deps.pool, async (tx) => {
    const recorded = await recordAttempt(tx, outcome);
    if (!recorded) return [];
    if (decided.status === 'dead' && decided.retireEndpoint) {
      if (await retireEndpoint(tx, d.endpoint_id, 'disabled', decided.retireEndpoint)) {
        const disabled = await resetHealth(tx, d.endpoint_id);
        if (disabled) await announceHealth(tx, disabled);
      }
    } else {
      const ok = decided.status === 'delivered';
      const change = await countAttempt(tx, d.endpoint_id, ok, result.statusCode, deps.config.WEBHOOK_FAILING_AFTER);
      if (change) await announceHealth(tx, change);
    }
    if (decided.status === 'pending') {
      await sendNextAttempt(deps.boss, tx, [{ delivery_id: d.id, attempt: attempt + 1, startAfterSeconds: decided.retryInSeconds }]);
    }
    return recorded.hadSlot ? claimNext(tx, d, leaseSeconds) : [];
  });
  const log = {
    delivery_id: d.id,
    endpoint_id: d.endpoint_id,
    kind: d.kind,
    event_type: d.event_type,
    attempt,
    status_code: result.statusCode,
    ms: result.durationMs,
  };
  if (decided.status === 'delivered') deps.logger.info('webhook delivered', log);
  else if (decided.status === 'dead') deps.logger.warn('webhook delivery dead', { ...log, error: decided.error });
  else deps.logger.info('webhook attempt failed; retry scheduled', { ...log, error: decided.error, retry_in_s: decided.retryInSeconds });
  return { status: decided.status, next };
}
