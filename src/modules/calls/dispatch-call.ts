import type { AppDeps } from '../../app-deps.js';
import type { Queryable } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { signedPost } from '../outbound-webhooks/transport/signed-post.js';
import { recordCallChange } from './apply-call-event.js';
import { isTerminal } from './call-status.js';
import { callTimeoutJob } from './call-timeout.job.js';
import { findCall, publicCall, setQueuedReason, updateCall } from './calls.repo.js';

export const PROVIDER_TIMEOUT_MS = 15_000;
export const NO_PROVIDER_REASON = 'No voice provider configured (VOICE_PROVIDER_URL is unset): the call stays queued';
export const NO_SECRET_REASON = 'VOICE_PROVIDER_SECRET is unset: the call stays queued until it is configured';

export type DispatchOutcome = 'dispatched' | 'failed' | 'retry' | 'skipped' | 'no_provider';

/** Thrown to make pg-boss retry the job (provider unreachable, 5xx, 429). */
export class ProviderUnavailableError extends Error {}

/** The provider's id for the call: `providerCallId`, `id` or `callId` of its JSON answer. */
function providerIdOf(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  for (const k of ['providerCallId', 'id', 'callId']) {
    if ((typeof d[k] === 'string' && d[k]) || typeof d[k] === 'number') return String(d[k]);
  }
  return null;
}

/** The call's time-out job, due CALL_TIMEOUT_MINUTES from now (its dispatch), committed with it. */
async function scheduleTimeout(deps: AppDeps, tx: Queryable, callId: string): Promise<void> {
  const seconds = Math.max(1, Math.ceil(deps.config.CALL_TIMEOUT_MINUTES * 60));
  await callTimeoutJob.send(deps.boss, tx, { callId }, { startAfter: seconds });
}

/** Moves a call out of queued (dispatched or failed) unless a voice event already moved it on. */
async function settle(deps: AppDeps, callId: string, outcome: { ok: boolean; providerCallId?: string | null; reason?: string }) {
  await withTransaction(deps.pool, async (tx) => {
    const call = (await findCall(tx, callId, true))!;
    const target = outcome.ok ? 'dispatched' : 'failed';
    if (call.status === 'queued') {
      const updated = await updateCall(tx, callId, {
        status: target,
        statusReason: outcome.ok ? null : outcome.reason,
        providerCallId: outcome.providerCallId,
        markDispatched: outcome.ok,
        markCompleted: !outcome.ok,
      });
      await recordCallChange(tx, updated, ['status']);
      if (outcome.ok) await scheduleTimeout(deps, tx, callId);
    } else if (outcome.ok) {
      // The provider's status webhook came first: keep its status, add what the dispatch knows.
      const updated = await updateCall(tx, callId, { providerCallId: outcome.providerCallId, markDispatched: true });
      await recordCallChange(tx, updated, ['dispatch']);
      if (!isTerminal(updated.status)) await scheduleTimeout(deps, tx, callId);
    }
  });
}

/**
 * Hands one queued call to the voice provider: a signed POST of the call JSON. The same
 * `webhook-id` and `Idempotency-Key` (the call id) go with every attempt, so a provider can drop
 * a duplicate after a lost answer. 2xx: dispatched; 4xx other than 408/429: failed; anything
 * else: ProviderUnavailableError (retried), or failed on the final attempt.
 */
export async function dispatchCall(deps: AppDeps, callId: string, finalAttempt: boolean): Promise<DispatchOutcome> {
  const call = await findCall(deps.pool, callId);
  if (!call || call.status !== 'queued') return 'skipped';
  const url = deps.config.VOICE_PROVIDER_URL;
  const secret = deps.config.VOICE_PROVIDER_SECRET;
  if (!url || !secret) {
    await setQueuedReason(deps.pool, callId, url ? NO_SECRET_REASON : NO_PROVIDER_REASON);
    return 'no_provider';
  }

  const attempt = await updateCall(deps.pool, callId, { incrementAttempts: true });
  const body = JSON.stringify({ ...publicCall(attempt), answers: undefined, transcript: undefined });
  let status: number | undefined;
  let data: unknown;
  try {
    const res = await signedPost({
      url,
      body,
      secret,
      messageId: callId,
      userAgent: 'Clinigate-Voice/1',
      headers: { 'idempotency-key': callId },
      timeoutMs: PROVIDER_TIMEOUT_MS,
      readBody: true,
    });
    status = res.status;
    data = res.data;
  } catch {
    status = undefined;
  }

  if (status !== undefined && status >= 200 && status < 300) {
    await settle(deps, callId, { ok: true, providerCallId: providerIdOf(data) });
    return 'dispatched';
  }
  const what = status === undefined ? 'unreachable' : `HTTP ${status}`;
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    await settle(deps, callId, { ok: false, reason: `Voice provider refused the call (${what})` });
    return 'failed';
  }
  if (finalAttempt) {
    await settle(deps, callId, { ok: false, reason: `Voice provider ${what} after ${attempt.attempts} attempts` });
    return 'failed';
  }
  await setQueuedReason(deps.pool, callId, `Voice provider ${what} on attempt ${attempt.attempts}; retrying`);
  throw new ProviderUnavailableError(`voice provider ${what}`);
}
