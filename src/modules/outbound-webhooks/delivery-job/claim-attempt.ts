import type { Pool, Queryable } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import {
  admitWaiting,
  endpointOfDelivery,
  freeSlots,
  lockEndpoint,
  lockReadyDelivery,
  parkDelivery,
  reservePace,
} from '../deliveries/delivery-slots.repo.js';
import { claimDelivery, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import type { DeliveryJob } from './delivery-queue.js';

/** How long an admitted delivery keeps its slot before its job starts; past it the slot frees itself. */
export const ADMIT_SECONDS = 60;

/** `claimed`: send it after `waitMs` (pacing); `waiting`: its endpoint is full or its patient's earlier delivery pending; `skipped`: not ready. */
export type ClaimResult = { claimed: ClaimedDelivery; waitMs: number } | 'waiting' | 'skipped';

/**
 * Takes attempt `attempt` of a delivery if its endpoint lets it go now, all under the endpoint
 * row's lock, so the limits hold across every worker process on the database:
 * - an admitted delivery (it holds a slot) goes;
 * - else it goes when the endpoint has a free slot and, on an `ordering: "patient"` endpoint, no
 *   earlier delivery of its patient is pending; otherwise it waits, to be admitted later;
 * - with `max_per_second`, it reserves the endpoint's next start (the caller waits `waitMs`).
 * A retired endpoint's delivery is claimed as it is, so that the attempt cancels it.
 */
export async function claimAttempt(pool: Pool, job: DeliveryJob, leaseSeconds: number, concurrency: number): Promise<ClaimResult> {
  const endpointId = await endpointOfDelivery(pool, job.delivery_id);
  if (!endpointId) return 'skipped';
  return withTransaction(pool, async (tx) => {
    const ep = await lockEndpoint(tx, endpointId);
    const d = await lockReadyDelivery(tx, job.delivery_id, job.attempt);
    if (!ep || !d) return 'skipped';
    let waitMs = 0;
    if (ep.status === 'active') {
      const blocked =
        !d.has_slot && ((ep.ordering === 'patient' && d.held_by_earlier) || (await freeSlots(tx, ep.id, concurrency)) === 0);
      if (blocked) {
        await parkDelivery(tx, job.delivery_id);
        return 'waiting';
      }
      waitMs = await reservePace(tx, ep);
    }
    const claimed = await claimDelivery(tx, job.delivery_id, job.attempt, leaseSeconds + waitMs / 1000);
    return claimed ? { claimed, waitMs } : 'skipped';
  });
}

/**
 * Hands an endpoint's free slots to its waiting deliveries (call it in a transaction that holds
 * the endpoint's lock, after a slot was released). Returns the attempts to queue.
 */
export async function admitNext(tx: Queryable, endpointId: string, concurrency: number): Promise<DeliveryJob[]> {
  const ep = await lockEndpoint(tx, endpointId);
  if (!ep || ep.status !== 'active') return [];
  return admitWaiting(tx, ep, await freeSlots(tx, endpointId, concurrency), ADMIT_SECONDS);
}
