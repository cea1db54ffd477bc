import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { inboundCounts } from './console.repo.js';

/** GET /api/v1/console/inbound: inbound events by source, type and outcome over the last hour and day. */
export function getInboundSummary(db: Queryable) {
  return async (_req: Request, res: Response) => {
    const rows = await inboundCounts(db);
    const totals = (field: 'last_hour' | 'last_day') =>
      rows.reduce<Record<string, Record<string, number>>>((acc, r) => {
        acc[r.source] ??= {};
        acc[r.source][r.status] = (acc[r.source][r.status] ?? 0) + r[field];
        return acc;
      }, {});
    res.set('cache-control', 'no-store').json({ by_type: rows, last_hour: totals('last_hour'), last_day: totals('last_day') });
  };
}
