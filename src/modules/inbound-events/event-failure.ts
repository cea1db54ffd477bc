import type { Queryable } from '../../db/pool.js';
import { markEnded } from './inbound-events.repo.js';

/** An inbound event whose work failed for good: status failed, with the step's reason (ids, no PHI). */
export async function failInboundEvent(db: Queryable, id: string, err: unknown): Promise<void> {
  await markEnded(db, id, 'failed', { error: 'Processing Failed', details: String((err as Error)?.message ?? err).slice(0, 500) });
}
