import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { listCenters } from './centers.repo.js';
import { pageQuery, toPage } from './catalog-pagination.js';

export const listCentersQuery = z.object({
  city: z.string().trim().min(1).max(100).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  ...pageQuery,
});

export function getCenters(db: Queryable) {
  return async (req: Request, res: Response) => {
    const query = parseWith(listCentersQuery, req.query);
    const rows = await listCenters(db, { city: query.city, q: query.q, limit: query.limit, after: query.cursor });
    res.json(toPage(rows, query.limit));
  };
}
