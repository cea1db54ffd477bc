import type { Request, Response } from 'express';
import type { Queryable } from '../../../db/pool.js';
import type { EndpointOwner } from './endpoint-owner.js';
import { parsePagination } from '../parse-pagination.js';
import { listEndpoints } from './webhook-endpoints.repo.js';

/** GET .../webhook-endpoints: newest first (a group's own only, on /v1), without secrets. */
export function listEndpointsHandler(db: Queryable, owner: EndpointOwner) {
  return async (req: Request, res: Response) => {
    const { limit, offset } = parsePagination(req.query);
    res.json(await listEndpoints(db, limit, offset, owner(req)));
  };
}
