import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { findCodifyRun } from './codify.repo.js';

/** GET /v1/codify/{runId}: a stored codification of the caller's group. */
export function getCodification(db: Queryable) {
  return async (req: Request<{ runId: string }>, res: Response) => {
    const { runId } = req.params;
    const run = isUuid(runId) ? await findCodifyRun(db, runId, req.principal!.groupId) : undefined;
    if (!run) throw notFound('Codification', runId);
    const error = run.error ? { error: run.error.error, details: run.error.details } : null;
    res.json({
      run_id: run.run_id,
      status: run.status,
      model: run.model,
      final_code_assessments: run.result?.final_code_assessments ?? null,
      discarded_code_assessments: run.result?.discarded_code_assessments ?? null,
      error,
      created_at: run.created_at,
      started_at: run.started_at,
      ended_at: run.ended_at,
    });
  };
}
