import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { parsePagination } from './pagination.js';
import { listEndpoints } from './webhook-endpoints.repo.js';

/** GET /api/v1/webhook-endpoints: newest first, without secrets. */
export function listEndpointsHandler(db: Queryable) {
  return async (req: Request, res: Response) => {
    const { limit, offset } = parsePagination(req.query);
    res.json(await listEndpoints(db, limit, offset));
  };
}
