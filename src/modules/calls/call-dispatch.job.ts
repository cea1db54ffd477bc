import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { dispatchCall, ProviderUnavailableError } from './dispatch-call.js';

/** Outbound questionnaire calls handed to the voice provider (startAfter = the call's scheduledAt). */
export const CALL_DISPATCH_QUEUE = 'call-dispatch';

export const callDispatchJobSchema = z.object({ callId: z.uuid(), request_id: z.string().optional() });
export type CallDispatchJob = z.infer<typeof callDispatchJobSchema>;

/**
 * Hands queued calls to the voice provider. A throw (provider down, 5xx, 429) lets pg-boss retry
 * with the queue's backoff; the final attempt fails the call instead of throwing.
 */
export const callDispatchJob = defineJob<CallDispatchJob, AppDeps>({
  // Provider outages (network, 5xx, 429) retry with backoff for ~30 min; the last failure fails the call.
  queue: {
    name: CALL_DISPATCH_QUEUE,
    options: { notify: true, retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 60 },
  },
  schema: callDispatchJobSchema,
  fetch: { localConcurrency: 2, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
  async handle(deps, data, attempt) {
    try {
      const outcome = await dispatchCall(deps, data.callId, attempt.finalAttempt);
      deps.logger.info('call dispatch', { call_id: data.callId, outcome, attempt: attempt.attempt });
    } catch (err) {
      // Provider errors name only the HTTP status; others by name and code (database texts can echo values).
      const e = err as { name?: string; code?: string; message?: string };
      const error = err instanceof ProviderUnavailableError ? e.message : { name: e.name, code: e.code };
      deps.logger.warn('call dispatch will retry', { call_id: data.callId, attempt: attempt.attempt, error });
      throw err;
    }
  },
});
