import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { hasContinuation } from './codify.repo.js';
import { abandonCodification, runCodification } from './run-codification.js';

/**
 * Job data: ids only. The text stays in codify_runs.input_text until the run ends; what follows
 * a pipeline's codification is on its row (`continuation`), sent with its end.
 */
export const codifyJobSchema = z.object({
  codify_run_id: z.uuid(),
  /** Fair share (define-job.ts groupOf); absent from jobs sent before it. */
  group_id: z.string().optional(),
  request_id: z.string().optional(),
});
export type CodifyJobData = z.infer<typeof codifyJobSchema>;

export const CODIFY_QUEUE = 'codify';

/**
 * Codifications, awaited by their POST /v1/codify request or continued by a pipeline: four at
 * once per process, woken by NOTIFY and by the end of the one before.
 */
export const codifyJob = defineJob<CodifyJobData, AppDeps>({
  // A request waits for it, so retry fast; a missed heartbeat (a dead process) retries in 30 s.
  queue: {
    name: CODIFY_QUEUE,
    options: {
      notify: true,
      retryLimit: 2,
      retryDelay: 1,
      retryBackoff: true,
      heartbeatSeconds: 30,
      expireInSeconds: 660,
      deleteAfterSeconds: 86_400,
    },
  },
  schema: codifyJobSchema,
  // A group runs at most 3 codifications at once in a process, on 4 loops (define-job.ts
  // localGroupConcurrency: counted in the process, so loops woken together by one burst cannot all
  // take the group's). Self-waking loops: when a codification ends, its loop fetches the next at
  // once (its group's queued one, whose slot it freed) instead of sleeping out the rest of its
  // poll; a new job wakes the idle loops by NOTIFY.
  fetch: { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1, selfWakingLoops: 4, localGroupConcurrency: 3 },
  groupOf: (data) => data.group_id,
  handle: (deps, data) => runCodification(deps, data.codify_run_id),
  // A request's codification keeps its old course (its request answers 504 at its deadline); a
  // continued one ends failed, so what follows it is not left waiting.
  onFinalFailure: async (deps, data, err) => {
    if (await hasContinuation(deps.pool, data.codify_run_id)) await abandonCodification(deps, data.codify_run_id);
    else throw err;
  },
});
