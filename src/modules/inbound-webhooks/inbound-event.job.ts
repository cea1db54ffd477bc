import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { defineJob, type BatchItem } from '../../jobs/define-job.js';
import { isPermanent } from '../../jobs/job-failure.js';
import { runWithContext } from '../../lib/request-context.js';
import { failInboundEvent } from './event-failure.js';
import { eventTypeFor } from './event-types.js';
import { claimInboundEvents, INBOUND_EVENT_QUEUE, markCompleted, type StoredInboundEvent } from './inbound-events.repo.js';

/** One job per stored event: its row id (sent with the row by insertInboundEventsWithJobs, or by an operator's retry). */
export const inboundEventJobSchema = z.object({ id: z.uuid() });
export type InboundEventJob = z.infer<typeof inboundEventJobSchema>;

/** Jobs fetched per batch: one fetch, one claim, one completion and one job settlement serve them all. */
const BATCH_SIZE = 50;
/** Events of a batch processed at once (each holds a pool client while it works). */
const EVENTS_AT_ONCE = 4;

interface Outcome {
  /** Processed: its row is marked completed with the batch (not when its work continues in other jobs). */
  completed: boolean;
  /** Throw-worthy (not permanent, attempts left): the job fails and is retried. */
  retry: boolean;
}

/** One claimed event: its type's work, in the event's log context. Ended-as-failed rows are marked here. */
async function processClaimed(deps: AppDeps, event: StoredInboundEvent, lastAttempt: boolean): Promise<Outcome> {
  const eventType = eventTypeFor(event.source, event.type);
  return runWithContext({ requestId: `event-${event.event_id}`, correlationId: event.correlation_id }, async () => {
    try {
      if (!eventType) throw new Error(`No handler for ${event.source} ${event.type}`);
      if ((await eventType.process(deps, event)) === 'continues') return { completed: false, retry: false };
      deps.logger.info('inbound event processed', { event_id: event.event_id, type: event.type });
      return { completed: true, retry: false };
    } catch (err) {
      const permanent = isPermanent(err);
      deps.logger.warn('inbound event step failed', { event_id: event.event_id, type: event.type, error_name: (err as Error).name, permanent, last_attempt: lastAttempt });
      if (permanent || lastAttempt) await failInboundEvent(deps.pool, event.id, err);
      return { completed: false, retry: !permanent };
    }
  });
}

/** Events of one type in one call of its processMany(); false when it threw (nothing is logged: process() will say why). */
async function processedTogether(deps: AppDeps, group: StoredInboundEvent[]): Promise<boolean> {
  try {
    await eventTypeFor(group[0].source, group[0].type)!.processMany!(deps, group);
  } catch {
    return false;
  }
  for (const event of group) {
    runWithContext({ requestId: `event-${event.event_id}`, correlationId: event.correlation_id }, () =>
      deps.logger.info('inbound event processed', { event_id: event.event_id, type: event.type, batch: group.length }),
    );
  }
  return true;
}

/**
 * Processes stored inbound events, many per call: one statement claims them all (ended ones are
 * skipped), each type's work runs a few at a time, and one statement marks the successes
 * completed. Returns the ids whose work should be tried again (a throw, attempts left). The work
 * is idempotent, so a crash anywhere repeats at most what was not yet marked.
 */
export async function processInboundEvents(deps: AppDeps, work: Array<{ id: string; lastAttempt: boolean }>): Promise<Set<string>> {
  const lastAttempt = new Map(work.map((w) => [w.id, w.lastAttempt]));
  const order = new Map(work.map((w, i) => [w.id, i]));
  const claimed = (await claimInboundEvents(deps.pool, [...lastAttempt.keys()])).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const completed: string[] = [];
  const retry = new Set<string>();
  // Types that can do a batch's work in one statement do it so (catalog upserts); when that
  // fails, their events go through process() one by one with the rest.
  const events: StoredInboundEvent[] = [];
  const many = new Map<string, StoredInboundEvent[]>();
  for (const event of claimed) {
    const type = eventTypeFor(event.source, event.type);
    const key = `${event.source} ${event.type}`;
    if (!type?.processMany) events.push(event);
    else if (many.has(key)) many.get(key)!.push(event);
    else many.set(key, [event]);
  }
  for (const group of many.values()) {
    if (group.length > 1 && (await processedTogether(deps, group))) completed.push(...group.map((e) => e.id));
    else events.push(...group);
  }
  let next = 0;
  const lane = async () => {
    while (next < events.length) {
      const event = events[next++];
      const outcome = await processClaimed(deps, event, lastAttempt.get(event.id) ?? false);
      if (outcome.completed) completed.push(event.id);
      if (outcome.retry) retry.add(event.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(EVENTS_AT_ONCE, events.length) }, lane));
  await markCompleted(deps.pool, completed);
  return retry;
}

/** Processes one stored inbound event; a throw (attempts left) asks for a retry, and the work is idempotent. */
export async function processInboundEvent(deps: AppDeps, id: string, lastAttempt: boolean): Promise<void> {
  const retry = await processInboundEvents(deps, [{ id, lastAttempt }]);
  if (retry.has(id)) throw new Error(`inbound event ${id} failed; it will be retried`);
}

/**
 * The inbound event job, in batches (issue 20): with one job per fetch, the worker's eight round
 * trips per event fell behind ingest at once (ROLE=all). perJobResults settles each job of a
 * batch by its own outcome. Its work never waits on other jobs (a documentation pipeline goes on
 * by continuation), so catalog and call events never queue behind a pipeline.
 */
export const inboundEventJob = defineJob<InboundEventJob, AppDeps>({
  // An inbound webhook's work (pipeline start, catalog or call update); each step is idempotent.
  queue: {
    name: INBOUND_EVENT_QUEUE,
    options: {
      notify: true, retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, heartbeatSeconds: 30, expireInSeconds: 3600,
    },
  },
  schema: inboundEventJobSchema,
  // notifyPollingIntervalSeconds: a NOTIFY wakes a worker only for jobs sent while it listens; a
  // backlog (after a restart or an outage) is drained by polling, which pg-boss otherwise does
  // every 30 s when NOTIFY is on. burstWhenBatchFull: while fetches come back full, fetch again at
  // once rather than after that poll (without it a backlog drained at one batch per second).
  fetch: {
    batchSize: BATCH_SIZE, burstWhenBatchFull: true, localConcurrency: 2, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1,
  },
  async handleBatch(deps, items) {
    const retry = await processInboundEvents(deps, items.map((item) => ({ id: item.data.id, lastAttempt: item.attempt.finalAttempt })));
    return new Set(items.filter((item: BatchItem<InboundEventJob>) => retry.has(item.data.id)));
  },
});
