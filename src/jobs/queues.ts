import type { Queue } from 'pg-boss';
import { webhookDeliveryQueue } from '../modules/outbound-webhooks/delivery-job/delivery-queue.js';

export interface QueueDefinition {
  name: string;
  options: Omit<Queue, 'name'>;
}

/** Inbound webhook events: one job per stored event (job data: the event row id). */
export const INBOUND_EVENT_QUEUE = 'inbound-event';

/** Runs of threads: one job per run, singletonKey = thread id, so a thread's runs execute one at a time in order. */
export const RUN_QUEUE = 'run-execute';
/** Run jobs that failed for good (a worker crashed on every attempt): their runs end failed and their thread is released. */
export const RUN_DEAD_QUEUE = 'run-execute-dead';

/** Outbound questionnaire calls handed to the voice provider (startAfter = the call's scheduledAt). */
export const CALL_DISPATCH_QUEUE = 'call-dispatch';

/** Hourly clean-up of expired rate-limit windows and idempotency keys, and redaction after RETENTION_DAYS (housekeeping-worker.ts). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

/** Codifications awaited by their POST /v1/codify request (job data: the codify run id). */
export const CODIFY_QUEUE = 'codify';

/**
 * Every queue with its policy: retries, backoff, expiry and heartbeat. A heartbeat lets a job
 * whose worker died be retried within seconds instead of after its expiry.
 */
export const QUEUES: QueueDefinition[] = [
  // Provider outages (network, 5xx, 429) retry with backoff for ~30 min; the last failure fails the call.
  {
    name: CALL_DISPATCH_QUEUE,
    options: { notify: true, retryLimit: 10, retryDelay: 2, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 60 },
  },
  // Before RUN_QUEUE, which names it as its dead letter queue.
  { name: RUN_DEAD_QUEUE, options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, retryDelayMax: 300 } },
  // key_strict_fifo: per-thread FIFO; a crashed worker's job is retried after a missed heartbeat, never reordered.
  {
    name: RUN_QUEUE,
    options: {
      policy: 'key_strict_fifo', notify: true, retryLimit: 5, retryDelay: 1, retryBackoff: true, retryDelayMax: 60, heartbeatSeconds: 10,
      expireInSeconds: 900, deadLetter: RUN_DEAD_QUEUE,
    },
  },
  // An inbound webhook's work (pipeline, catalog or call update); each step is idempotent.
  {
    name: INBOUND_EVENT_QUEUE,
    options: { notify: true, retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, heartbeatSeconds: 30, expireInSeconds: 3600 },
  },
  // Codify: a request waits for it, so retry fast; a missed heartbeat (dead worker) retries in 30 s.
  {
    name: CODIFY_QUEUE,
    options: { notify: true, retryLimit: 2, retryDelay: 1, retryBackoff: true, heartbeatSeconds: 30, expireInSeconds: 660, deleteAfterSeconds: 86_400 },
  },
  // Hourly housekeeping; a missed hour is simply done the next one.
  { name: HOUSEKEEPING_QUEUE, options: { retryLimit: 1, expireInSeconds: 300 } },
  // Outbound webhook attempts (modules/outbound-webhooks/delivery-job/delivery-queue.ts).
  webhookDeliveryQueue,
];

export function queue(name: string): QueueDefinition {
  const found = QUEUES.find((q) => q.name === name);
  if (!found) throw new Error(`Unknown queue ${name}`);
  return found;
}
