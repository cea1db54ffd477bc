import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { parseWith } from '../../http/validate.js';
import { requireRun, type RunParams } from './get-run.js';
import { findRun, isEnded } from './runs.repo.js';
import { watchRun } from './run-watch.js';

export const MAX_JOIN_SECONDS = 600;

export const joinQuery = z.looseObject({
  timeout: z
    .string()
    .regex(/^\s*\d+(\.\d+)?\s*$/, 'must be a number of seconds')
    .transform(Number)
    .pipe(z.number().min(0).max(MAX_JOIN_SECONDS, `must be at most ${MAX_JOIN_SECONDS}`))
    .optional()
    .default(30),
});

/**
 * GET .../runs/{runId}/join?timeout=S: answers as soon as the run ends (woken by NOTIFY), or
 * with the run as it stands after S seconds.
 */
export function joinRun({ pool, notifications }: Pick<AppDeps, 'pool' | 'notifications'>) {
  return async (req: Request<RunParams>, res: Response) => {
    const { timeout } = parseWith(joinQuery, req.query);
    const groupId = req.principal!.groupId;
    const deadline = Date.now() + timeout * 1000;
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const watch = watchRun(notifications, req.params.runId);
    try {
      let run = await requireRun(pool, groupId, req.params);
      while (!isEnded(run.status) && (await watch.changed(deadline, gone.signal))) {
        run = (await findRun(pool, groupId, req.params.threadId, req.params.runId)) ?? run;
      }
      if (!gone.signal.aborted) res.json(run);
    } finally {
      watch.close();
    }
  };
}
