import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { listServices } from './centers.repo.js';
import { pageQuery, toPage } from './catalog-pagination.js';

export const listServicesQuery = z.object({
  centerId: z.string().trim().min(1).max(100).optional(),
  specialty: z.string().trim().min(1).max(100).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  ...pageQuery,
});

export function getServices(db: Queryable) {
  return async (req: Request, res: Response) => {
    const query = parseWith(listServicesQuery, req.query);
    const rows = await listServices(db, { ...query, after: query.cursor });
    res.json(toPage(rows, query.limit));
  };
}
