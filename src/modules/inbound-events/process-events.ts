import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { isPermanent } from '../../jobs/job-failure.js';
import { runWithContext } from '../../lib/request-context.js';
import { endInboundEvent } from './end-event.js';
import {
  claimInboundEvents,
  findOpenInboundEvents,
  markCompleted,
  markCompletedUnclaimed,
  type OpenInboundEvent,
  type StoredInboundEvent,
} from './inbound-events.repo.js';

/** Events of a batch processed at once (each holds a pool client while it works). */
const EVENTS_AT_ONCE = 4;

/** An inbound-event job: one event `{id}`, or the events of one ingest statement `{ids}` (inbound-events.repo.ts). */
export const inboundEventJobSchema = z.union([z.object({ id: z.uuid() }), z.object({ ids: z.array(z.uuid()).min(1) })]);
export type InboundEventJob = z.infer<typeof inboundEventJobSchema>;

/** The event ids a job's data names; undefined when it names none (a malformed job). */
export function jobEventIds(data: unknown): string[] | undefined {
  const parsed = inboundEventJobSchema.safeParse(data);
  if (!parsed.success) return undefined;
  return eventIdsOf(parsed.data);
}

/** The events one job names. */
export const eventIdsOf = (data: InboundEventJob): string[] => ('id' in data ? [data.id] : data.ids);

export interface EventWork {
  id: string;
  lastAttempt: boolean;
}

/** The jobs to retry: those with an event that asks for a retry; the rest complete. Pure. */
export function itemsToRetry<T extends { data: InboundEventJob }>(items: readonly T[], retry: ReadonlySet<string>): Set<T> {
  return new Set(items.filter(({ data }) => eventIdsOf(data).some((id) => retry.has(id))));
}

interface Outcome {
  /** Processed: its row is marked completed with the batch (not when its work continues in other jobs). */
  completed: boolean;
  /** Throw-worthy (not permanent, attempts left): the job fails and is retried. */
  retry: boolean;
}

/** One claimed event: its type's work, in the event's log context. Ended-as-failed rows are marked here. */
async function processClaimed(deps: AppDeps, event: StoredInboundEvent, lastAttempt: boolean): Promise<Outcome> {
  const eventType = deps.eventTypes.find(event.source, event.type);
  return runWithContext({ requestId: `event-${event.event_id}`, correlationId: event.correlation_id }, async () => {
    try {
      if (!eventType) throw new Error(`No handler for ${event.source} ${event.type}`);
      if ((await eventType.process(deps, event)) === 'continues') return { completed: false, retry: false };
      deps.logger.info('inbound event processed', { event_id: event.event_id, type: event.type });
      return { completed: true, retry: false };
    } catch (err) {
      const permanent = isPermanent(err);
      deps.logger.warn('inbound event step failed', {
        event_id: event.event_id,
        type: event.type,
        error_name: (err as Error).name,
        permanent,
        last_attempt: lastAttempt,
      });
      if (permanent || lastAttempt) await endInboundEvent(deps.pool, event.id, { status: 'failed', reason: err });
      return { completed: false, retry: !permanent };
    }
  });
}

/**
 * Events of one type in one call of its processMany(); false when it threw (nothing is logged:
 * process() will say why). One log line for the batch, naming its events (a line per event
 * costs CPU and says nothing more).
 */
async function processedTogether(deps: AppDeps, group: OpenInboundEvent[]): Promise<boolean> {
  try {
    await deps.eventTypes.find(group[0].source, group[0].type)!.processMany!(deps, group);
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
    if (!deps.eventTypes.find(event.source, event.type)?.processMany) one.push(event.id);
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
