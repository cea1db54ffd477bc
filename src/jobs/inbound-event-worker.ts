import type { JobResult, JobWithMetadata } from 'pg-boss';
import type { AppDeps } from '../app-deps.js';
import { processInboundJobs } from '../modules/inbound-webhooks/process-events.js';
import { paced } from '../modules/inbound-webhooks/worker-pace.js';
import { INBOUND_EVENT_QUEUE } from './queues.js';

/**
 * Jobs fetched per batch: one fetch, one read of their events and one job settlement serve them
 * all. A job names one event, or all the catalog events of one ingest statement (so a fetch
 * can carry thousands: process-events.ts works through them 200 at a time).
 */
const BATCH_SIZE = 50;
/** A loop fetches at most this often while its batches are not full (worker-pace.ts). */
const PACE_MS = 300;

export async function startInboundEventWorker(deps: AppDeps): Promise<void> {
  // Batches (issue 20): with one job per fetch, the worker's eight round trips per event fell
  // behind ingest at once (ROLE=all). perJobResults settles each job of a batch by its own outcome.
  // notifyPollingIntervalSeconds: a NOTIFY wakes a worker only for jobs sent while it listens; a
  // backlog (after a restart or an outage) is drained by polling, which pg-boss otherwise does
  // every 30 s when NOTIFY is on. burstWhenBatchFull: while fetches come back full, fetch again at
  // once rather than after that poll (without it a backlog drained at one batch per second).
  const options = {
    batchSize: BATCH_SIZE, burstWhenBatchFull: true, localConcurrency: 2, includeMetadata: true, perJobResults: true,
    pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1,
  } as const;
  const handler = (jobs: Array<JobWithMetadata<unknown>>): Promise<JobResult[]> => processInboundJobs(deps, jobs);
  await deps.boss.work(INBOUND_EVENT_QUEUE, options, paced(handler, { batchSize: BATCH_SIZE, paceMs: PACE_MS }));
}
