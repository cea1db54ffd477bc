import type { Request, Response } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { auditResource } from '../../http/audit.js';
import { isUuid } from '../../http/validate.js';
import { conflict, notFound } from '../../lib/errors.js';
import { sendDeliveryJobs } from '../../jobs/webhook-queue.js';
import type { EndpointOwner } from '../webhook-endpoints/owner.js';
import { reopenDelivery, type DeliveryRef } from './webhook-deliveries.repo.js';

/**
 * The replay itself (also `clinigate webhooks replay`): reopens the delivery and, when its
 * endpoint is active, queues its next attempt in the same transaction. Undefined: no such delivery.
 */
export async function reopenAndQueue(pool: Pool, boss: PgBoss, id: string, groupId?: string): Promise<DeliveryRef | undefined> {
  return withTransaction(pool, async (tx) => {
    const d = await reopenDelivery(tx, id, groupId);
    if (d?.endpoint_status === 'active' && !d.redacted) await sendDeliveryJobs(boss, tx, [{ delivery_id: d.id, attempt: d.attempt_count + 1 }]);
    return d;
  });
}

/**
 * POST .../webhook-deliveries/{id}/replay: 202; the delivery is sent again now, with the same
 * `webhook-id` and a fresh retry schedule, whatever its state. A disabled or deleted endpoint, or
 * a payload redacted after RETENTION_DAYS: 409. On /v1, another group's delivery is 404.
 */
export function replayDelivery(pool: Pool, boss: PgBoss, owner: EndpointOwner) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    auditResource(res, id);
    const found = isUuid(id) ? await reopenAndQueue(pool, boss, id, owner(req)) : undefined;
    if (!found) throw notFound('Webhook delivery', id);
    if (found.redacted) throw conflict(`Webhook delivery ${found.id}: its payload was redacted after the retention period; it cannot be replayed`);
    if (found.endpoint_status !== 'active') throw conflict(`Webhook endpoint ${found.endpoint_id} is ${found.endpoint_status}; its deliveries cannot be replayed`);
    res.status(202).json({ id: found.id, webhook_id: found.id, endpoint_id: found.endpoint_id, status: 'pending' });
  };
}
