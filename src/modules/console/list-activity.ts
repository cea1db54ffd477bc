import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { recentCodifications, recentPipelines, recentRuns } from './console.repo.js';

export const activityQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'received', 'processing']).optional(),
});

type Lister = (db: Queryable, limit: number, status?: string) => Promise<unknown[]>;

function listHandler(db: Queryable, list: Lister) {
  return async (req: Request, res: Response) => {
    const { limit, status } = parseWith(activityQuery, req.query);
    res.set('cache-control', 'no-store').json(await list(db, limit, status));
  };
}

/** GET /api/v1/console/runs: newest runs, ids, states and durations only (no input or output). */
export const listRecentRuns = (db: Queryable) => listHandler(db, recentRuns);
/** GET /api/v1/console/codifications: newest codifications, sizes and code counts only (no text or codes). */
export const listRecentCodifications = (db: Queryable) => listHandler(db, recentCodifications);
/** GET /api/v1/console/pipelines: newest inbound events and their pipeline step ids (never the event data). */
export const listRecentPipelines = (db: Queryable) => listHandler(db, recentPipelines);
