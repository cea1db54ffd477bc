import type { Request, Response } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Pool } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { conflict, notFound } from '../../lib/errors.js';
import { reopenDeadForReplay } from '../outbound-webhooks/deliveries/reopen-for-replay.js';
import { findEndpoint } from '../outbound-webhooks/endpoints/webhook-endpoints.repo.js';

/** At most this many per request; the console says how many and the operator may press again. */
const MAX_REPLAY = 1000;

/**
 * POST /api/v1/console/endpoints/{id}/replay-dead: 202; every dead delivery of the endpoint is
 * sent again now, each with its own `webhook-id` and a fresh retry schedule (as a single replay).
 * A disabled endpoint: 409 (enable it first).
 */
export function replayEndpointDead(pool: Pool, boss: PgBoss) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const endpoint = isUuid(id) ? await findEndpoint(pool, id) : undefined;
    if (!endpoint) throw notFound('Webhook endpoint', id);
    if (endpoint.status !== 'active') {
      throw conflict(`Webhook endpoint ${id} is ${endpoint.status}; enable it before replaying its deliveries`);
    }
    const reopened = await reopenDeadForReplay({ pool, boss }, id, MAX_REPLAY);
    res.status(202).json({ endpoint_id: id, replayed: reopened.length, delivery_ids: reopened.map((d) => d.id) });
  };
}
