import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { parseWith } from '../../http/validate.js';
import { conflict } from '../../lib/errors.js';
import { endRunWithEvent, runView } from './end-run.js';
import { requireRun, type RunParams } from './get-run.js';

/** LangGraph's cancel parameters: accepted; the run ends at once either way. */
export const cancelQuery = z.looseObject({
  wait: z.enum(['0', '1', 'true', 'false']).optional(),
  action: z.enum(['interrupt', 'rollback']).optional(),
});

/**
 * POST .../runs/{runId}/cancel: a pending or running run ends `failed` with error `Cancelled`
 * (its job sees the change and stops); a run that has already ended is a 409.
 */
export function cancelRun(pool: Pool) {
  return async (req: Request<RunParams>, res: Response) => {
    parseWith(cancelQuery, req.query);
    const groupId = req.principal!.groupId;
    const run = await requireRun(pool, groupId, req.params);
    const ended = await withTransaction(pool, (tx) =>
      endRunWithEvent(
        tx,
        run.run_id,
        { status: 'failed', error: { error: 'Cancelled', details: `Run ${run.run_id} was cancelled by ${req.doctor!}` } },
        { groupId, threadId: run.thread_id },
      ),
    );
    if (!ended) throw conflict(`Run ${run.run_id} has already ended`);
    res.json(runView(ended));
  };
}
