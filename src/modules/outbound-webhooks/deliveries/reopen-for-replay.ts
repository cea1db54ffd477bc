import type { PgBoss } from 'pg-boss';
import type { Pool, Queryable } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import { sendDeliveryJobs } from '../delivery-job/webhook-delivery.job.js';
import { lockDeadDeliveriesForReplay, lockDeliveryForReplay, reopenDeliveries, type DeliveryRef } from './webhook-deliveries.repo.js';

export interface ReplayDeps {
  pool: Pool;
  boss: PgBoss;
}

/** Only a delivery of an active endpoint whose payload is still there can be sent again. */
export const isReplayable = (d: DeliveryRef): boolean => d.endpoint_status === 'active' && !d.redacted;

/**
 * "Reopen for replay", the one way a delivery is sent again (the API's replay, the console's
 * replay-dead, `clinigate webhooks replay`): pending again with a fresh retry schedule and the
 * same id (so the same `webhook-id`), its next attempt queued in the same transaction.
 */
async function reopenAndQueue(tx: Queryable, boss: PgBoss, locked: DeliveryRef[]): Promise<void> {
  const open = locked.filter(isReplayable);
  if (open.length === 0) return;
  await reopenDeliveries(
    tx,
    open.map((d) => d.id),
  );
  await sendDeliveryJobs(
    boss,
    tx,
    open.map((d) => ({ delivery_id: d.id, attempt: d.attempt_count + 1 })),
  );
}

/**
 * One delivery, whatever its state (of `groupId`'s endpoints, when given). Undefined: no such
 * delivery; one that is not replayable (see `isReplayable`) is returned as it is, untouched.
 */
export async function reopenForReplay(deps: ReplayDeps, id: string, groupId?: string): Promise<DeliveryRef | undefined> {
  return withTransaction(deps.pool, async (tx) => {
    const d = await lockDeliveryForReplay(tx, id, groupId);
    if (d) await reopenAndQueue(tx, deps.boss, [d]);
    return d;
  });
}

/** Up to `limit` dead deliveries of an endpoint, oldest first; none when the endpoint is not active. */
export async function reopenDeadForReplay(deps: ReplayDeps, endpointId: string, limit: number): Promise<DeliveryRef[]> {
  return withTransaction(deps.pool, async (tx) => {
    const dead = await lockDeadDeliveriesForReplay(tx, endpointId, limit);
    await reopenAndQueue(tx, deps.boss, dead);
    return dead;
  });
}
