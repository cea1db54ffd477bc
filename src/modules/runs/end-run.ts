import type { Queryable } from '../../db/pool.js';
import type { TokenUsage } from '../../engine/engine.js';
import { sendContinuation } from '../../jobs/continuation.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import { endRun, type Run, type RunError, type StoredRun } from './runs.repo.js';

export type RunOutcome = { status: 'completed'; output: unknown; usage?: TokenUsage } | { status: 'failed'; error: RunError };

/**
 * Ends an active run inside the caller's transaction: the status, its outbound event
 * (`run.completed` / `run.failed`, ids only, no PHI), the wake-up of waiters and the run's
 * continuation (a pipeline's next step, enqueue-run.ts) commit together. Every ending (executed,
 * abandoned, cancelled) comes through here.
 * Undefined when the run had already ended (the first ending wins).
 */
export async function endRunWithEvent(
  tx: Queryable,
  runId: string,
  outcome: RunOutcome,
  scope?: { groupId: string; threadId: string },
): Promise<StoredRun | undefined> {
  const run = await endRun(tx, runId, outcome, scope);
  if (!run) return undefined;
  await recordEvent(tx, {
    type: run.status === 'completed' ? 'run.completed' : 'run.failed',
    groupId: run.group_id,
    data: { run_id: run.run_id, thread_id: run.thread_id, kind: run.kind, status: run.status, group_id: run.group_id },
  });
  await sendContinuation(tx, run.continuation ?? undefined);
  return run;
}

/** The API's view of a stored run. */
export function runView(run: StoredRun | Run): Run {
  const { run_id, thread_id, status, created_at, kind, started_at, ended_at, output, error, patient_id, visit_id } = run;
  return { run_id, thread_id, status, created_at, kind, started_at, ended_at, output, error, patient_id, visit_id };
}
