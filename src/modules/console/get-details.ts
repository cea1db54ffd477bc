import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { pipelineDetails, runDetails } from './details.repo.js';

type Loader = (db: Queryable, id: string) => Promise<Record<string, unknown> | undefined>;

/**
 * One item in full, PHI included (a run's output, an event's error details): the console asks
 * for it only when an operator clicks "Show details", and every view, found or not, is audited
 * before it is answered (auditedAtOnce in routes.ts).
 */
function detailsHandler(db: Queryable, label: string, load: Loader) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const item = isUuid(id) ? await load(db, id) : undefined;
    if (!item) throw notFound(label, id);
    res.set('cache-control', 'no-store').json(item);
  };
}

/** GET /api/v1/console/runs/{id}: the run with its output and error. */
export const getRunDetails = (db: Queryable) => detailsHandler(db, 'Run', runDetails);
/** GET /api/v1/console/pipelines/{id}: the inbound event's state, pipeline ids and full error (not its data). */
export const getPipelineDetails = (db: Queryable) => detailsHandler(db, 'Inbound event', pipelineDetails);
