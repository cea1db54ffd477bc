import type { AppDeps } from '../app-deps.js';
import { runWithContext } from '../lib/request-context.js';
import { callDispatchJobSchema, dispatchCall, ProviderUnavailableError } from '../modules/calls/dispatch-call.js';
import { CALL_DISPATCH_QUEUE, queue } from './queues.js';

/**
 * Hands queued calls to the voice provider. A throw (provider down, 5xx, 429) lets pg-boss retry
 * with the queue's backoff; the final attempt fails the call instead of throwing.
 */
export async function startCallDispatchWorker(deps: AppDeps): Promise<string> {
  const retryLimit = queue(CALL_DISPATCH_QUEUE).options.retryLimit ?? 2;
  return deps.boss.work(
    CALL_DISPATCH_QUEUE,
    { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
    async ([job]) => {
      const data = callDispatchJobSchema.parse(job.data);
      await runWithContext({ requestId: data.requestId ?? `job-${job.id}` }, async () => {
        try {
          const outcome = await dispatchCall(deps, data.callId, job.retryCount >= retryLimit);
          deps.logger.info('call dispatch', { call_id: data.callId, outcome, attempt: job.retryCount + 1 });
        } catch (err) {
          // Provider errors name only the HTTP status; others by name and code (database texts can echo values).
          const e = err as { name?: string; code?: string; message?: string };
          const error = err instanceof ProviderUnavailableError ? e.message : { name: e.name, code: e.code };
          deps.logger.warn('call dispatch will retry', { call_id: data.callId, attempt: job.retryCount + 1, error });
          throw err;
        }
      });
    },
  );
}
