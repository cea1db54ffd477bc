import { z } from 'zod';
import { withTransaction } from '../../db/transaction.js';
import type { InboundEventType } from '../inbound-events/inbound-event-type.js';
import { applyCallEvent } from './apply-call-event.js';
import { CALL_STATUSES } from './call-status.js';
import { findCall } from './calls.repo.js';

const callId = z.uuid();

const shapes = {
  'call.status': z.object({ callId, status: z.enum(CALL_STATUSES), reason: z.string().max(2000).optional() }),
  'call.answers': z.object({ callId, answers: z.array(z.object({ questionId: z.string().min(1), answer: z.unknown() })).min(1) }),
  'call.transcript': z.object({ callId, transcript: z.string() }),
} as const;

/**
 * Voice-service events `{callId, ...}` update the call. An unknown call or a refused transition
 * (nothing leaves completed) fails the event without retries: retrying cannot make it apply. An
 * integration may send one for a call of a group it is bound to.
 */
export const callEventTypes: InboundEventType[] = Object.entries(shapes).map(([type, data]) => ({
  source: 'voice' as const,
  type,
  data,
  boundGroup: async (db, { callId: id }: { callId: string }) => (await findCall(db, id))?.groupId ?? null,
  async process(deps, event) {
    const { callId: id, ...rest } = event.data as { callId: string };
    // A client error (unknown call, refused transition) fails the event once: jobs/job-failure.ts isPermanent.
    await withTransaction(deps.pool, (tx) => applyCallEvent(tx, id, { type, ...rest }));
  },
}));
