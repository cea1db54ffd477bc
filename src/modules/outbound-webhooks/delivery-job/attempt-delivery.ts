import type { AppDeps } from '../../../app-deps.js';
import type { Queryable } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import { cancelDelivery, recordAttempt, type AttemptOutcome, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { retireEndpoint } from '../endpoints/webhook-endpoints.repo.js';
import { sendByKind, newTransportState, type TransportState } from '../transport/send-by-kind.js';
import { DELIVERY_TIMEOUT_MS } from '../transport/send-webhook.js';
import { cancelReason, deliveryOutcome } from './delivery-outcome.js';

/** What a delivery attempt reads and writes: the database, the queue, the settings, the sealed secrets and the log. */
export type DeliveryDeps = Pick<AppDeps, 'config' | 'pool' | 'boss' | 'logger' | 'secrets'>;

/** Queues the next attempt in the caller's transaction: the delivery job's own `send` (webhook-delivery.job.ts). */
export type SendNextAttempt = (
  boss: AppDeps['boss'],
  tx: Queryable,
  jobs: Array<{ delivery_id: string; attempt: number; startAfterSeconds?: number }>,
) => Promise<void>;

/**
 * Makes one attempt of a claimed delivery and records what happened: the outcome, the attempt
 * log, a retired endpoint and the next attempt's job commit in one transaction.
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  d: ClaimedDelivery,
  attempt: number,
  sendNextAttempt: SendNextAttempt,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  transport: TransportState = newTransportState(),
): Promise<AttemptOutcome['status']> {
  const notSent = cancelReason(d);
  if (notSent) {
    await cancelDelivery(deps.pool, d.id, notSent);
    return 'cancelled';
  }
  const result = await sendByKind(deps, d, timeoutMs, transport);
  if (typeof result === 'string') {
    await cancelDelivery(deps.pool, d.id, result);
    return 'cancelled';
  }
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
  await withTransaction(deps.pool, async (tx) => {
    if (!(await recordAttempt(tx, outcome))) return;
    if (decided.status === 'dead' && decided.retireEndpoint) await retireEndpoint(tx, d.endpoint_id, 'disabled', decided.retireEndpoint);
    if (decided.status === 'pending') {
      await sendNextAttempt(deps.boss, tx, [{ delivery_id: d.id, attempt: attempt + 1, startAfterSeconds: decided.retryInSeconds }]);
    }
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
  return decided.status;
}
