import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { requireThread } from './get-run.js';
import { listRuns } from './runs.repo.js';

const integer = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .default(fallback);

/** LangGraph's list parameters; `select` is accepted and ignored. */
export const listRunsQuery = z.looseObject({
  limit: integer(1, 100, 10),
  offset: integer(0, 1_000_000, 0),
  status: z.enum(['pending', 'running', 'completed', 'failed']).optional(),
});

/** GET /v1/agent/threads/{threadId}/runs: a JSON array, newest first. */
export function listThreadRuns(db: Queryable) {
  return async (req: Request<{ threadId: string }>, res: Response) => {
    const { threadId } = req.params;
    const query = parseWith(listRunsQuery, req.query);
    await requireThread(db, req.principal!.groupId, threadId);
    res.json(await listRuns(db, threadId, query));
  };
}
