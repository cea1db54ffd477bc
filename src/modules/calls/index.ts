// What other modules use: the inbound voice webhooks apply events with applyCallEvent.
export { applyCallEvent, callEventSchema, type AppliedCallEvent, type CallEvent } from './apply-call-event.js';
export { CallTransitionError, CALL_STATUSES, canTransition, isTerminal, type CallStatus } from './call-status.js';
export { findCall, publicCall, type Call } from './calls.repo.js';
