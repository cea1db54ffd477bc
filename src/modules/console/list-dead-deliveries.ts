import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { deadDeliveries } from './console.repo.js';

const query = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  endpoint_id: z.uuid().optional(),
});

/** GET /api/v1/console/deliveries/dead: dead deliveries, most recently dead first; outcomes only, never bodies. */
export function listDeadDeliveries(db: Queryable) {
  return async (req: Request, res: Response) => {
    const { limit, endpoint_id } = parseWith(query, req.query);
    res.set('cache-control', 'no-store').json(await deadDeliveries(db, limit, endpoint_id));
  };
}
