import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import { assertTransition, CALL_STATUSES, isTerminal } from './call-status.js';
import { findCall, updateCall, type CallAnswer, type CallChange, type StoredCall } from './calls.repo.js';

/** What the voice service tells about a call (inbound `call.status`, `call.answers`, `call.transcript`). */
export const callEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call.status'), status: z.enum(CALL_STATUSES), reason: z.string().max(2000).optional() }),
  z.object({
    type: z.literal('call.answers'),
    answers: z.array(z.object({ questionId: z.string().min(1), answer: z.unknown() })),
  }),
  z.object({ type: z.literal('call.transcript'), transcript: z.string() }),
]);
export type CallEvent = z.infer<typeof callEventSchema>;

export type CallChangeKind = 'status' | 'answers' | 'transcript' | 'dispatch';

/**
 * Records `call.completed` when the call has just completed, else `call.updated`. Ids and status
 * only: answers, transcript and phone number stay behind the API (GET /api/v1/calls/{callId}).
 */
export async function recordCallChange(db: Queryable, call: StoredCall, changes: CallChangeKind[]): Promise<void> {
  // `timed_out` ends the call too (DESIGN "Delivery operations"): its subscribers hear it once, as call.completed.
  const completedNow = changes.includes('status') && (call.status === 'completed' || call.status === 'timed_out');
  await recordEvent(db, {
    type: completedNow ? 'call.completed' : 'call.updated',
    groupId: call.groupId,
    data: {
      callId: call.callId,
      group_id: call.groupId,
      status: call.status,
      statusReason: call.statusReason,
      questionnaireId: call.questionnaireId,
      providerCallId: call.providerCallId,
      centerId: call.centerId,
      attempts: call.attempts,
      changes,
      updatedAt: call.updatedAt,
      completedAt: call.completedAt,
    },
  });
}

/** Answers by question: a later answer to the same question replaces the earlier one. */
function mergeAnswers(current: CallAnswer[], incoming: CallAnswer[]): CallAnswer[] {
  const merged = new Map(current.map((a) => [a.questionId, a]));
  for (const a of incoming) merged.set(a.questionId, { questionId: a.questionId, answer: a.answer });
  return [...merged.values()];
}

export interface AppliedCallEvent {
  call: StoredCall;
  /** False when the event changed nothing (the same status again). */
  changed: boolean;
}

/**
 * Applies a voice-service event to a call inside the caller's transaction: locks the row,
 * validates the transition (call-status.ts), updates, and records the outbound event. Answers and
 * a transcript are applied whatever the status (a post-call report that arrives after the call
 * ended, even after it timed out); an event that changes nothing is not recorded again.
 * Throws 404 for an unknown call, 409 (CallTransitionError) for a refused transition, and 422
 * for an event that does not fit its type.
 */
export async function applyCallEvent(tx: Queryable, callId: string, event: CallEvent | unknown): Promise<AppliedCallEvent> {
  const ev = parseWith(callEventSchema, event, 422);
  const call = z.uuid().safeParse(callId).success ? await findCall(tx, callId, true) : undefined;
  if (!call) throw notFound('Call', callId);

  let change: CallChange;
  let kind: CallChangeKind;
  if (ev.type === 'call.status') {
    if (ev.status === call.status) return { call, changed: false };
    assertTransition(callId, call.status, ev.status);
    kind = 'status';
    change = { status: ev.status, statusReason: ev.reason ?? null, markCompleted: isTerminal(ev.status) };
  } else if (ev.type === 'call.answers') {
    kind = 'answers';
    const answers = mergeAnswers(call.answers, ev.answers);
    // A replay (or a late copy) that adds nothing changes nothing and announces nothing.
    if (isDeepStrictEqual(answers, call.answers)) return { call, changed: false };
    change = { answers };
  } else {
    kind = 'transcript';
    if (ev.transcript === call.transcript) return { call, changed: false };
    change = { transcript: ev.transcript };
  }
  const updated = await updateCall(tx, callId, change);
  await recordCallChange(tx, updated, [kind]);
  return { call: updated, changed: true };
}
