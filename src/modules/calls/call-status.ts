import { AppError } from '../../lib/errors.js';

export const CALL_STATUSES = [
  'queued',
  'dispatched',
  'ringing',
  'in_progress',
  'completed',
  'failed',
  'no_answer',
  'cancelled',
  'timed_out',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<CallStatus> = new Set(['completed', 'failed', 'no_answer', 'cancelled', 'timed_out']);

/**
 * The one place call transitions are decided. A queued call may jump straight to ringing or
 * later: the provider's status webhook can arrive before the dispatch answer is recorded.
 * Nothing goes back to queued, and nothing leaves a terminal status, with one exception:
 * `timed_out` is the service giving up (CALL_TIMEOUT_MINUTES after dispatch), not the provider's
 * word, so the provider's late final status (completed, failed, no_answer) still replaces it.
 */
const ALLOWED: Record<CallStatus, readonly CallStatus[]> = {
  queued: ['dispatched', 'ringing', 'in_progress', 'completed', 'failed', 'no_answer', 'cancelled', 'timed_out'],
  dispatched: ['ringing', 'in_progress', 'completed', 'failed', 'no_answer', 'cancelled', 'timed_out'],
  ringing: ['in_progress', 'completed', 'failed', 'no_answer', 'cancelled', 'timed_out'],
  in_progress: ['completed', 'failed', 'cancelled', 'timed_out'],
  completed: [],
  failed: [],
  no_answer: [],
  cancelled: [],
  timed_out: ['completed', 'failed', 'no_answer'],
};

export const isTerminal = (status: CallStatus) => TERMINAL_STATUSES.has(status);

export function canTransition(from: CallStatus, to: CallStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** A refused transition: 409 for whoever asked (the inbound webhook decides what to answer). */
export class CallTransitionError extends AppError {
  readonly from: CallStatus;
  readonly to: CallStatus;
  constructor(callId: string, from: CallStatus, to: CallStatus) {
    super(409, `Call ${callId} cannot move from ${from} to ${to}`);
    this.from = from;
    this.to = to;
  }
}

export function assertTransition(callId: string, from: CallStatus, to: CallStatus): void {
  if (!canTransition(from, to)) throw new CallTransitionError(callId, from, to);
}
