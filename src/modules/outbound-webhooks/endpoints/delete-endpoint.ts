import type { Request, Response } from 'express';
import type { Pool } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import { isUuid } from '../../../http/validate.js';
import { notFound } from '../../../lib/errors.js';
import type { EndpointOwner } from './endpoint-owner.js';
import { retireEndpoint } from './webhook-endpoints.repo.js';

/** DELETE .../webhook-endpoints/{id}: 204; its pending deliveries are cancelled, its secret wiped, nothing more is sent. */
export function deleteEndpoint(pool: Pool, owner: EndpointOwner) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const deleted =
      isUuid(id) &&
      (await withTransaction(pool, (tx) =>
        retireEndpoint(tx, id, 'deleted', owner(req) === undefined ? 'deleted by operator' : 'deleted by its group', owner(req)),
      ));
    if (!deleted) throw notFound('Webhook endpoint', id);
    res.status(204).end();
  };
}
