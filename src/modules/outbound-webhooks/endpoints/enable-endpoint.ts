import type { Request, Response } from 'express';
import type { Pool } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import { isUuid } from '../../../http/validate.js';
import { notFound } from '../../../lib/errors.js';
import { announceHealth } from './endpoint-health.js';
import { resetHealth } from './endpoint-health.repo.js';
import { enableEndpoint, findEndpoint } from './webhook-endpoints.repo.js';

/**
 * POST /api/v1/webhook-endpoints/{id}/enable: 200 with the endpoint, active and `ok` again
 * (already active: the same answer), announced once as `endpoint.recovered`. New events reach it
 * from now on; deliveries cancelled or dead while it was disabled are sent again only by a replay.
 */
export function enableEndpointHandler(pool: Pool) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const endpoint = isUuid(id)
      ? await withTransaction(pool, async (tx) => {
          const enabled = await enableEndpoint(tx, id);
          if (!enabled) return findEndpoint(tx, id);
          const health = await resetHealth(tx, id);
          if (health) await announceHealth(tx, health);
          return enabled;
        })
      : undefined;
    if (!endpoint) throw notFound('Webhook endpoint', id);
    res.json(endpoint);
  };
}
