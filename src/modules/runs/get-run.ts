import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { findThread } from '../threads/threads.repo.js';
import { findRun, type Run } from './runs.repo.js';

export type RunParams = { threadId: string; runId: string };

/** The caller's thread (404 naming it otherwise, also for another group's thread). */
export async function requireThread(db: Queryable, groupId: string, threadId: string): Promise<void> {
  const thread = isUuid(threadId) ? await findThread(db, groupId, threadId) : undefined;
  if (!thread) throw notFound('Thread', threadId);
}

/** The run of the caller's thread, or a 404 naming the thread or the run. */
export async function requireRun(db: Queryable, groupId: string, params: RunParams): Promise<Run> {
  await requireThread(db, groupId, params.threadId);
  const run = isUuid(params.runId) ? await findRun(db, groupId, params.threadId, params.runId) : undefined;
  if (!run) throw notFound('Run', params.runId);
  return run;
}

/** GET /v1/agent/threads/{threadId}/runs/{runId} */
export function getRun(db: Queryable) {
  return async (req: Request<RunParams>, res: Response) => {
    res.json(await requireRun(db, req.principal!.groupId, req.params));
  };
}
