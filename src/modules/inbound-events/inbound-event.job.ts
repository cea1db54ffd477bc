import type { AppDeps } from '../../app-deps.js';
import { defineJob } from '../../jobs/define-job.js';
import { INBOUND_EVENT_QUEUE } from './inbound-events.repo.js';
import {
  eventIdsOf,
  inboundEventJobSchema,
  itemsToRetry,
  processInboundEvents,
  type EventWork,
  type InboundEventJob,
} from './process-events.js';

/**
 * Jobs fetched per batch: one fetch, one read of their events and one job settlement serve them
 * all. A job names one event, or all the catalog events of one ingest statement (so a fetch
 * can carry thousands: they are worked through EVENTS_PER_ROUND at a time).
 */
const BATCH_SIZE = 50;
/** Events read and processed per round. */
const EVENTS_PER_ROUND = 200;
/** A loop fetches at most this often while its batches are not full (jobs/loop-pace.ts). */
const PACE_MS = 300;

/**
 * The inbound event job, in batches: with one job per fetch, the round trips each event costs
 * (eight) cannot keep pace with ingest. Each job of a batch is settled by its own
 * events' outcomes, and an event's last attempt is its job's. Its work never waits on other jobs
 * (a documentation pipeline goes on by continuation), so catalog and call events never queue
 * behind a pipeline.
 */
export const inboundEventJob = defineJob<InboundEventJob, AppDeps>({
  // An inbound webhook's work (pipeline start, catalog or call update); each step is idempotent.
  queue: {
    name: INBOUND_EVENT_QUEUE,
    options: {
      notify: true,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 600,
      heartbeatSeconds: 30,
      expireInSeconds: 3600,
    },
  },
  schema: inboundEventJobSchema,
  // notifyPollingIntervalSeconds: a NOTIFY wakes a job loop only for jobs sent while it listens; a
  // backlog (after a restart or an outage) is drained by polling, which pg-boss otherwise does
  // every 30 s when NOTIFY is on. burstWhenBatchFull: while fetches come back full, fetch again at
  // once rather than after that poll (without it a backlog drained at one batch per second).
  fetch: {
    batchSize: BATCH_SIZE,
    burstWhenBatchFull: true,
    localConcurrency: 2,
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 1,
    paceMs: PACE_MS,
  },
  async handleBatch(deps, items) {
    const work = new Map<string, EventWork>();
    for (const { data, attempt } of items) {
      for (const id of eventIdsOf(data)) work.set(id, { id, lastAttempt: attempt.finalAttempt || (work.get(id)?.lastAttempt ?? false) });
    }
    const all = [...work.values()];
    const retry = new Set<string>();
    for (let i = 0; i < all.length; i += EVENTS_PER_ROUND) {
      for (const id of await processInboundEvents(deps, all.slice(i, i + EVENTS_PER_ROUND))) retry.add(id);
    }
    return itemsToRetry(items, retry);
  },
});
