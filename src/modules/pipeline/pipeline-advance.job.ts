import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { advancePipeline, failPipeline, PIPELINE_ADVANCE_QUEUE } from './advance-pipeline.js';

/**
 * The pipeline's next step, by its event's row id: sent with the pipeline's first step
 * (start-pipeline.ts), and by its run or codification in the transaction that ends it
 * (advanceContinuation, stored on that row).
 */
export const pipelineAdvanceSchema = z.object({
  event_id: z.uuid(),
  request_id: z.string().optional(),
  correlation_id: z.string().optional(),
});
export type PipelineAdvance = z.infer<typeof pipelineAdvanceSchema>;

/**
 * One transition of a documentation pipeline per job (advance-pipeline.ts). A failed step
 * (PermanentJobFailure), or the last attempt's failure, fails the pipeline and its event.
 */
export const pipelineAdvanceJob = defineJob<PipelineAdvance, AppDeps>({
  // Its steps are short (rows and a job each): retry soon; a missed heartbeat (a dead process) retries in 30 s.
  queue: {
    name: PIPELINE_ADVANCE_QUEUE,
    options: {
      notify: true,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 600,
      heartbeatSeconds: 30,
      expireInSeconds: 600,
    },
  },
  schema: pipelineAdvanceSchema,
  fetch: { localConcurrency: 2, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 },
  context: (data) => ({ correlationId: data.correlation_id }),
  async handle(deps, data) {
    const step = await advancePipeline(deps, data.event_id);
    if (step === 'ready') deps.logger.info('inbound event processed', { event_id: data.event_id });
  },
  onFinalFailure: (deps, data, err) => failPipeline(deps, data.event_id, err),
});
