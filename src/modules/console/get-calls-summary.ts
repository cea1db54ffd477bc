import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { callCounts } from './console.repo.js';

/** GET /api/v1/console/calls: calls by status (all time and last day) and the age of the oldest in each. */
export function getCallsSummary(db: Queryable) {
  return async (_req: Request, res: Response) => {
    res.set('cache-control', 'no-store').json(await callCounts(db));
  };
}
