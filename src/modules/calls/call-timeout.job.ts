import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { timeOutCall } from './time-out-call.js';

/** One job per dispatched call, due CALL_TIMEOUT_MINUTES after dispatch (sent with the dispatch). */
export const CALL_TIMEOUT_QUEUE = 'call-timeout';

export const callTimeoutJobSchema = z.object({ callId: z.uuid() });
export type CallTimeoutJob = z.infer<typeof callTimeoutJobSchema>;

/** Ends calls that never got a terminal status (time-out-call.ts); a database error retries the job. */
export const callTimeoutJob = defineJob<CallTimeoutJob, AppDeps>({
  queue: { name: CALL_TIMEOUT_QUEUE, options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 } },
  schema: callTimeoutJobSchema,
  fetch: { pollingIntervalSeconds: 1 },
  async handle(deps, data) {
    const outcome = await timeOutCall(deps, data.callId);
    deps.logger.info('call time-out', { call_id: data.callId, outcome });
  },
});
