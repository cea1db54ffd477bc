import type { Pool, PoolClient } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { findInboundEvent, recordPipelineStep } from '../inbound-events/inbound-events.repo.js';

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
  options: { replacing?: unknown } = {},
): Promise<PipelineState> {
  return withTransaction(pool, async (tx) => {
    const event = await findInboundEvent(tx, eventRowId, true);
    if (!event) throw new Error(`Inbound event ${eventRowId} is gone`);
    const recorded = event.pipeline[key];
    // `replacing`: redo a step whose recorded result failed (an operator's retry), exactly once.
    const redo = options.replacing !== undefined && recorded === options.replacing;
    if (recorded !== undefined && !redo) return event.pipeline;
    const replaced = redo ? { [`replaced_${key}s`]: [...((event.pipeline[`replaced_${key}s`] as unknown[]) ?? []), recorded] } : {};
    const result = await step(tx, { ...event.pipeline, ...replaced });
    const next = { ...result, ...replaced, [key]: result[key] ?? true };
    await recordPipelineStep(tx, eventRowId, next);
    return { ...event.pipeline, ...next };
  });
}

/** How many times a step was redone: 0 for the first attempt. Its ids are derived with it. */
export const generationOf = (state: PipelineState, key: string) => ((state[`replaced_${key}s`] as unknown[]) ?? []).length;
