import type { AnyJob, QueueDefinition } from './jobs/define-job.js';
import { callDispatchJob } from './modules/calls/call-dispatch.job.js';
import { callTimeoutJob } from './modules/calls/call-timeout.job.js';
import { codifyJob } from './modules/codify/codify.job.js';
import { housekeepingJob } from './modules/housekeeping/housekeeping.job.js';
import { inboundEventJob } from './modules/inbound-events/inbound-event.job.js';
import { webhookDeliveryJob } from './modules/outbound-webhooks/delivery-job/webhook-delivery.job.js';
import { pipelineAdvanceJob } from './modules/pipeline/pipeline-advance.job.js';
import { runExecuteDeadJob } from './modules/runs/run-execute-dead.job.js';
import { runExecuteJob } from './modules/runs/run-execute.job.js';

/**
 * Every job of the service, each declared by the module that owns it (`<name>.job.ts`: queue and
 * policy, data schema, producer and handler). The composition root lists them; jobs/ knows none.
 * Order matters once: a dead letter queue before the queue that names it.
 */
export const JOBS: AnyJob[] = [
  callDispatchJob,
  callTimeoutJob,
  runExecuteDeadJob,
  runExecuteJob,
  inboundEventJob,
  pipelineAdvanceJob,
  codifyJob,
  housekeepingJob,
  webhookDeliveryJob,
];

/** Every queue pg-boss creates. */
export const QUEUES: QueueDefinition[] = JOBS.map((job) => job.queue);
