import { z } from 'zod';
import type { Queryable } from '../db/pool.js';
import { insertJob } from './pgboss.repo.js';

/**
 * What comes after a step (a run, a codification) when it ends: a job, sent in the transaction
 * that ends the step, so the step's end and the next step's start commit together and no job
 * waits on another. The step's owner stores it and sends it without knowing what it starts.
 */
export const continuationSchema = z.object({ queue: z.string().regex(/^[a-z0-9-]+$/), data: z.record(z.string(), z.unknown()) });
export type Continuation = z.infer<typeof continuationSchema>;

/** Sends the step's continuation, if it has one, in the caller's transaction. */
export async function sendContinuation(tx: Queryable, continuation: Continuation | undefined): Promise<void> {
  if (continuation === undefined) return;
  const { queue, data } = continuationSchema.parse(continuation);
  await insertJob(tx, queue, data);
}
