import type { Request, Response } from 'express';
import type { Queryable } from '../../../db/pool.js';
import { isUuid } from '../../../http/validate.js';
import { notFound } from '../../../lib/errors.js';
import { parsePagination } from '../parse-pagination.js';
import type { EndpointOwner } from '../endpoints/endpoint-owner.js';
import { findEndpoint } from '../endpoints/webhook-endpoints.repo.js';
import { listDeliveries } from './webhook-deliveries.repo.js';

/** GET /api/v1/webhook-endpoints/{id}/deliveries: newest first, each with its attempts; never a body. */
export function listDeliveriesHandler(db: Queryable, owner: EndpointOwner) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const { limit, offset } = parsePagination(req.query);
    if (!isUuid(id) || !(await findEndpoint(db, id, owner(req)))) throw notFound('Webhook endpoint', id);
    res.json(await listDeliveries(db, id, limit, offset));
  };
}
