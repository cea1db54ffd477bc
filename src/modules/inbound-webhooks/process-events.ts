import type { JobResult, JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { PermanentJobFailure } from '../../jobs/permanent-failure.js';
import { runWithContext } from '../../lib/request-context.js';
import { eventTypeFor } from './event-types.js';
import {
  claimInboundEvents,
  findOpenInboundEvents,
  markCompleted,
  markCompletedUnclaimed,
  markEnded,
  type OpenInboundEvent,
  type StoredInboundEvent,
} from './inbound-events.repo.js';

/** Events of a batch processed at once (each holds a pool client while it works). */
const EVENTS_AT_ONCE = 4;
/** Events read and processed per round (a fetch of shared jobs can carry thousands). */
const EVENTS_PER_ROUND = 200;

/** An inbound-event job: one event `{id}`, or the events of one ingest statement `{ids}` (inbound-events.repo.ts). */
const jobData = z.union([z.object({ id: z.uuid() }), z.object({ ids: z.array(z.uuid()).min(1) })]);

/** The event ids a job's data names; undefined when it names none (a malformed job). */
export function jobEventIds(data: unknown): string[] | undefined {
  const parsed = jobData.safeParse(data);
  if (!parsed.success) return undefined;
  return 'id' in parsed.data ? [parsed.data.id] : parsed.data.ids;
}

export interface EventWork {
  id: string;
  lastAttempt: boolean;
}

/**
 * Each job's outcome from its events': completed when none of them asks for a retry, failed
 * (pg-boss retries it; its ended events are skipped then) when one does. Pure.
 */
export function jobOutcomes(jobs: Array<{ jobId: string; ids: string[] | undefined }>, retry: ReadonlySet<string>): JobResult[] {
  return jobs.map(({ jobId, ids }): JobResult => {
    if (!ids) return { id: jobId, status: 'failed', output: { message: 'job data is not {id: uuid} or {ids: uuid[]}' } };
    return ids.some((id) => retry.has(id)) ? { id: jobId, status: 'failed', output: { message: 'processing failed; retried' } } : { id: jobId, status: 'completed' };
  });
}

/**
 * The inbound-event worker's handler for a fetch of jobs: every event they name is processed
 * (processInboundEvents), and each job is settled by its own events' outcomes. An event's last
 * attempt is its job's.
 */
export async function processInboundJobs(deps: AppDeps, jobs: Array<JobWithMetadata<unknown>>): Promise<JobResult[]> {
  const named = jobs.map((job) => ({ jobId: job.id, ids: jobEventIds(job.data), lastAttempt: (job.retryCount ?? 0) >= (job.retryLimit ?? 0) }));
  const work = new Map<string, EventWork>();
  for (const job of named) for (const id of job.ids ?? []) work.set(id, { id, lastAttempt: job.lastAttempt || (work.get(id)?.lastAttempt ?? false) });
  const all = [...work.values()];
  const retry = new Set<string>();
  for (let i = 0; i < all.length; i += EVENTS_PER_ROUND) {
    for (const id of await processInboundEvents(deps, all.slice(i, i + EVENTS_PER_ROUND))) retry.add(id);
  }
  return jobOutcomes(named, retry);
}

interface Outcome {
  /** Processed: its row is marked completed with the batch. */
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
      await eventType.process(deps, event);
      deps.logger.info('inbound event processed', { event_id: event.event_id, type: event.type });
      return { completed: true, retry: false };
    } catch (err) {
      const permanent = err instanceof PermanentJobFailure;
      deps.logger.warn('inbound event step failed', { event_id: event.event_id, type: event.type, error_name: (err as Error).name, permanent, last_attempt: lastAttempt });
      if (permanent || lastAttempt) {
        await markEnded(deps.pool, event.id, 'failed', { error: 'Processing Failed', details: (err as Error).message.slice(0, 500) });
      }
      return { completed: false, retry: !permanent };
    }
  });
}

/**
 * Events of one type in one call of its processMany(); false when it threw (nothing is logged:
 * process() will say why). One log line for the batch, naming its events (issue 20: a line per
 * event was a tenth of the worker's CPU).
 */
async function processedTogether(deps: AppDeps, group: OpenInboundEvent[]): Promise<boolean> {
  try {
    await eventTypeFor(group[0].source, group[0].type)!.processMany!(deps, group);
  } catch {
    return false;
  }
  deps.logger.info('inbound events processed', { type: group[0].type, events: group.length, event_ids: group.map((e) => e.event_id) });
  return true;
}

/**
 * Processes stored inbound events, many per call. Ended ones (completed or failed) are skipped.
 * Types that do a batch's work in one statement (catalog upserts, processMany) do it without a
 * claim, and one statement marks them completed and counts the attempt: one row update per event.
 * The rest, and a batch whose processMany threw, are claimed (`processing`, one more attempt) and
 * go through process() a few at a time, and one statement marks the successes completed. Returns
 * the ids whose work should be tried again (a throw, attempts left). The work is idempotent, so a
 * crash anywhere repeats at most what was not yet marked.
 */
export async function processInboundEvents(deps: AppDeps, work: EventWork[]): Promise<Set<string>> {
  const lastAttempt = new Map(work.map((w) => [w.id, w.lastAttempt]));
  const order = new Map(work.map((w, i) => [w.id, i]));
  const byOrder = (a: { id: string }, b: { id: string }) => order.get(a.id)! - order.get(b.id)!;
  const open = (await findOpenInboundEvents(deps.pool, [...lastAttempt.keys()])).sort(byOrder);
  const one: string[] = [];
  const many = new Map<string, OpenInboundEvent[]>();
  for (const event of open) {
    const key = `${event.source} ${event.type}`;
    if (!eventTypeFor(event.source, event.type)?.processMany) one.push(event.id);
    else if (many.has(key)) many.get(key)!.push(event);
    else many.set(key, [event]);
  }
  const together: string[] = [];
  for (const group of many.values()) {
    if (await processedTogether(deps, group)) together.push(...group.map((e) => e.id));
    else one.push(...group.map((e) => e.id));
  }
  const markedTogether = markCompletedUnclaimed(deps.pool, together);
  markedTogether.catch(() => {}); // awaited below, beside the others' completion
  const events = one.length ? (await claimInboundEvents(deps.pool, one)).sort(byOrder) : [];
  const completed: string[] = [];
  const retry = new Set<string>();
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
  await Promise.all([markedTogether, markCompleted(deps.pool, completed)]);
  return retry;
}

/** Processes one stored inbound event; a throw (attempts left) asks for a retry, and the work is idempotent. */
export async function processInboundEvent(deps: AppDeps, id: string, lastAttempt: boolean): Promise<void> {
  const retry = await processInboundEvents(deps, [{ id, lastAttempt }]);
  if (retry.has(id)) throw new Error(`inbound event ${id} failed; it will be retried`);
}
