import type { Queryable } from '../../db/pool.js';
import { markEnded } from './inbound-events.repo.js';

/** How an event's work ended: done, or failed for good with the reason (ids, no PHI). */
export type EventOutcome = { status: 'completed' } | { status: 'failed'; reason: unknown };

/**
 * The one way an event's status is set once its work has gone on in other jobs (the
 * documentation pipeline): its handler calls this, in the transaction of its last step; the intake
 * never calls the handler back.
 */
export async function endInboundEvent(db: Queryable, id: string, outcome: EventOutcome): Promise<void> {
  if (outcome.status === 'completed') return markEnded(db, id, 'completed');
  const details = String((outcome.reason as Error)?.message ?? outcome.reason).slice(0, 500);
  await markEnded(db, id, 'failed', { error: 'Processing Failed', details });
}
