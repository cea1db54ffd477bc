import type { Request, Response } from 'express';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { isUuid } from '../../http/validate.js';
import { conflict, notFound } from '../../lib/errors.js';
import { endRunWithEvent, runView } from '../runs/end-run.js';
import { runStatus } from '../runs/runs.repo.js';

/**
 * POST /api/v1/console/runs/{id}/cancel: the operator's path to the runs cancel use case, for a
 * run of any group. The run ends `failed` with error `Cancelled` (its job sees it and stops);
 * an ended run is a 409. Audited with the operator key's fingerprint (auditedAtOnce in routes.ts).
 */
export function cancelRunAsOperator(pool: Pool) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const exists = isUuid(id) && (await runStatus(pool, id)) !== undefined;
    if (!exists) throw notFound('Run', id);
    const ended = await withTransaction(pool, (tx) =>
      endRunWithEvent(tx, id, { status: 'failed', error: { error: 'Cancelled', details: `Run ${id} was cancelled by an operator` } }),
    );
    if (!ended) throw conflict(`Run ${id} has already ended`);
    res.json(runView(ended));
  };
}
