import type { Queryable } from '../../db/pool.js';
import { groupBacklog } from '../../jobs/pgboss.repo.js';
import { AppError } from '../../lib/errors.js';
import { RUN_QUEUE } from '../runs/run-execute.job.js';
import { CODIFY_QUEUE } from './codify.job.js';

/** Seconds a codify refused for a full queue is told to wait: about a few engine calls. */
const RETRY_AFTER_SECONDS = 5;

/**
 * ENGINE_QUEUE_PER_GROUP: at most that many engine calls (run and codify jobs not yet taken) wait
 * per group, counted in the database so every process sees the same queue. A codify past it
 * answers 503 with Retry-After at once, instead of waiting behind its own group's backlog; runs
 * are never refused for it (they wait as jobs).
 */
export async function checkEngineQueue(tx: Queryable, groupId: string, cap: number): Promise<void> {
  const { waiting } = await groupBacklog(tx, [RUN_QUEUE, CODIFY_QUEUE], groupId);
  if (waiting < cap) return;
  throw new AppError(503, `${waiting} engine calls of this group are waiting (at most ${cap}); retry after ${RETRY_AFTER_SECONDS} s`, {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}
