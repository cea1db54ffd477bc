import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { minuteSeries } from './console.repo.js';

/**
 * GET /api/v1/console/timeseries: 60 per-minute points over the last hour, read from the
 * database rather than this process's HTTP histogram, so every instance of a scaled-out
 * deployment draws the same charts.
 */
export function getTimeseries(db: Queryable) {
  return async (_req: Request, res: Response) => {
    res.set('cache-control', 'no-store').json({ interval_seconds: 60, points: await minuteSeries(db) });
  };
}
