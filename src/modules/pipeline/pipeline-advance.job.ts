import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { failInboundEvent } from '../inbound-events/event-failure.js';
import { findInboundEvent } from '../inbound-events/inbound-events.repo.js';
import { advanceDocumentationPipeline, PIPELINE_ADVANCE_QUEUE } from './advance-pipeline.js';

/** Sent by the run or codification of a pipeline in the transaction that ends it (advance-pipeline.ts advanceContinuation). */
export const pipelineAdvanceSchema = z.object({
  event_id: z.uuid(),
  request_id: z.string().optional(),
  correlation_id: z.string().optional(),
});
export type PipelineAdvance = z.infer<typeof pipelineAdvanceSchema>;

/**
 * A pipeline step ended: do the next ones. Only an event still `processing` advances: an ended
 * one has nothing left, and a reopened one (`received`, an operator's retry) is started again by
 * its own inbound job. A failed step (PermanentJobFailure), or the last attempt's failure, fails
 * the event with the reason, as the inbound job does.
 */
export const pipelineAdvanceJob = defineJob<PipelineAdvance, AppDeps>({
  // Its steps are short (rows and a job each): retry soon; a missed heartbeat (dead worker) retries in 30 s.
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
    const event = await findInboundEvent(deps.pool, data.event_id);
    if (event?.status !== 'processing') return;
    const progress = await advanceDocumentationPipeline(deps, event, { start: false });
    if (progress !== 'continues') deps.logger.info('inbound event processed', { event_id: event.event_id, type: event.type });
  },
  onFinalFailure: (deps, data, err) => failInboundEvent(deps.pool, data.event_id, err),
});
