import type { AppDeps } from '../../app-deps.js';
import { withTransaction } from '../../db/transaction.js';
import { recordCallChange } from './apply-call-event.js';
import { askProviderStatus } from './ask-provider.js';
import { canTransition, isTerminal, type CallStatus } from './call-status.js';
import { findCall, markTimeoutAsked, updateCall } from './calls.repo.js';

export type TimeoutDeps = Pick<AppDeps, 'pool' | 'config'>;

/** `ended`: the provider reported a final status; `timed_out`: it did not; `skipped`: the call had ended. */
export type TimeoutOutcome = 'ended' | 'timed_out' | 'skipped';

/**
 * CALL_TIMEOUT_MINUTES after dispatch (DESIGN "Delivery operations"): a call with no terminal
 * status is asked of the provider once (when it gave an id); a final status it reports is
 * applied, else the call ends `timed_out` with `call.completed`. A retried job never asks twice.
 */
export async function timeOutCall(deps: TimeoutDeps, callId: string): Promise<TimeoutOutcome> {
  const call = await findCall(deps.pool, callId);
  if (!call || isTerminal(call.status)) return 'skipped';
  const url = deps.config.VOICE_PROVIDER_URL;
  let reported: CallStatus | undefined;
  if (call.providerCallId && url && (await markTimeoutAsked(deps.pool, callId))) {
    reported = await askProviderStatus(url, deps.config.VOICE_PROVIDER_SECRET, call.providerCallId);
  }
  return withTransaction(deps.pool, async (tx) => {
    const now = (await findCall(tx, callId, true))!;
    if (isTerminal(now.status)) return 'skipped';
    const ended = reported && isTerminal(reported) && canTransition(now.status, reported) ? reported : undefined;
    const minutes = deps.config.CALL_TIMEOUT_MINUTES;
    const updated = await updateCall(tx, callId, {
      status: ended ?? 'timed_out',
      statusReason: ended
        ? `Reported ${ended} by the voice provider when asked ${minutes} minutes after dispatch`
        : `No terminal status ${minutes} minutes after dispatch${reported ? ` (the provider reported ${reported})` : ''}`,
      markCompleted: true,
    });
    await recordCallChange(tx, updated, ['status']);
    return ended ? 'ended' : 'timed_out';
  });
}
