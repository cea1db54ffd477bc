import type { Pool, Queryable } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import {
  endpointOfDelivery,
  freeSlots,
  lockEndpoint,
  lockReadyDelivery,
  parkDelivery,
  reservePace,
  takeWaiting,
} from '../deliveries/delivery-slots.repo.js';
import { claimDelivery, type ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';

/** A delivery's own job (webhook-delivery.job.ts). */
type AttemptJob = { delivery_id: string; attempt: number };

/** A claimed attempt, to be sent after `waitMs` (its endpoint's `max_per_second`). */
export interface NextAttempt {
  claimed: ClaimedDelivery;
  waitMs: number;
}

/** `waiting`: its endpoint is full, or its patient's earlier delivery is pending; `skipped`: not ready (made, held, or over). */
export type ClaimResult = NextAttempt | 'waiting' | 'skipped';

/** The pacing wait of a claimed attempt, reserved in the caller's transaction. */
async function paced(tx: Queryable, claimed: ClaimedDelivery): Promise<NextAttempt> {
  const waitMs = claimed.max_per_second ? await reservePace(tx, claimed.endpoint_id, claimed.max_per_second) : 0;
  return { claimed, waitMs };
}

/**
 * A delivery's own job (a retry at its time, a replay): takes attempt `attempt` if its endpoint
 * lets it go now, under the endpoint row's lock, so the limits hold across every process that runs jobs:
 * it goes when the endpoint has a free slot and, on an `ordering: "patient"` endpoint, no earlier
 * delivery of its patient is pending; otherwise it waits, to be handed a slot later. A retired
 * endpoint's delivery is claimed as it is, so that the attempt cancels it.
 */
export async function claimAttempt(pool: Pool, job: AttemptJob, leaseSeconds: number, concurrency: number): Promise<ClaimResult> {
  const endpointId = await endpointOfDelivery(pool, job.delivery_id);
  if (!endpointId) return 'skipped';
  return withTransaction(pool, async (tx) => {
    const ep = await lockEndpoint(tx, endpointId);
    const d = await lockReadyDelivery(tx, job.delivery_id, job.attempt);
    if (!ep || !d) return 'skipped';
    if (ep.status === 'active' && !d.has_slot) {
      if ((ep.ordering === 'patient' && d.held_by_earlier) || freeSlots(ep, concurrency) === 0) {
        await parkDelivery(tx, job.delivery_id);
        return 'waiting';
      }
    }
    const claimed = await claimDelivery(tx, job.delivery_id, job.attempt, leaseSeconds);
    if (!claimed) return 'skipped';
    return ep.status === 'active' ? paced(tx, claimed) : { claimed, waitMs: 0 };
  });
}

/** An endpoint's job: claims as many of its waiting deliveries as it has free slots, under its lock. */
export async function claimForEndpoint(pool: Pool, endpointId: string, leaseSeconds: number, concurrency: number): Promise<NextAttempt[]> {
  return withTransaction(pool, async (tx) => {
    const ep = await lockEndpoint(tx, endpointId);
    if (!ep || ep.status !== 'active') return [];
    const claimed = await takeWaiting(tx, ep.id, ep.ordering, freeSlots(ep, concurrency), leaseSeconds);
    const next: NextAttempt[] = [];
    for (const c of claimed) next.push(await paced(tx, c));
    return next;
  });
}

/**
 * The slot an attempt just released goes to its endpoint's next waiting delivery, claimed in the
 * same transaction for the releasing job to send (delivery-slots.repo.ts: the transfer).
 */
export async function claimNext(tx: Queryable, released: ClaimedDelivery, leaseSeconds: number): Promise<NextAttempt[]> {
  const [next] = await takeWaiting(tx, released.endpoint_id, released.ordering, 1, leaseSeconds);
  return next ? [await paced(tx, next)] : [];
}
