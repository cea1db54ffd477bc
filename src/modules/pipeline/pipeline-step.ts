import type { Pool, PoolClient } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { findInboundEvent, recordPipelineStep } from '../inbound-webhooks/inbound-events.repo.js';

export type PipelineState = Record<string, unknown>;

/**
 * Runs one pipeline step at most once per event: under a lock on the event row, skips the step
 * when its key is already recorded, else does it and records its result in the same
 * transaction. A retry after a crash therefore finds the steps that committed and redoes none.
 */
export async function pipelineStep(
  pool: Pool,
  eventRowId: string,
  key: string,
  step: (tx: PoolClient, state: PipelineState) => Promise<PipelineState>,
): Promise<PipelineState> {
  return withTransaction(pool, async (tx) => {
    const event = await findInboundEvent(tx, eventRowId, true);
    if (!event) throw new Error(`Inbound event ${eventRowId} is gone`);
    if (event.pipeline[key] !== undefined) return event.pipeline;
    const result = await step(tx, event.pipeline);
    await recordPipelineStep(tx, eventRowId, { ...result, [key]: result[key] ?? true });
    return { ...event.pipeline, ...result };
  });
}
