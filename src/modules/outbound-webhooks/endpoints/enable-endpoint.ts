import type { Request, Response } from 'express';
import type { Queryable } from '../../../db/pool.js';
import { isUuid } from '../../../http/validate.js';
import { notFound } from '../../../lib/errors.js';
import { enableEndpoint, findEndpoint } from './webhook-endpoints.repo.js';

/**
 * POST /api/v1/webhook-endpoints/{id}/enable: 200 with the endpoint, active again (already
 * active: the same answer). New events reach it from now on; deliveries cancelled or dead while
 * it was disabled are sent again only by a replay.
 */
export function enableEndpointHandler(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const endpoint = isUuid(id) ? ((await enableEndpoint(db, id)) ?? (await findEndpoint(db, id))) : undefined;
    if (!endpoint) throw notFound('Webhook endpoint', id);
    res.json(endpoint);
  };
}
