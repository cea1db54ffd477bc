import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { runWithContext } from '../lib/request-context.js';
import { eventTypeFor } from '../modules/inbound-webhooks/event-types.js';
import { findInboundEvent, markEnded, markProcessing } from '../modules/inbound-webhooks/inbound-events.repo.js';
import { PermanentJobFailure } from './permanent-failure.js';
import { INBOUND_EVENT_QUEUE } from './queues.js';

const jobData = z.object({ id: z.uuid() });

/** Processes one stored inbound event; a crash or a throw retries it, and the work is idempotent. */
export async function processInboundEvent(deps: AppDeps, id: string, lastAttempt: boolean): Promise<void> {
  const event = await findInboundEvent(deps.pool, id);
  if (!event || event.status === 'completed' || event.status === 'failed') return;
  const eventType = eventTypeFor(event.source, event.type);
  await runWithContext({ requestId: `event-${event.event_id}`, correlationId: event.correlation_id }, async () => {
    await markProcessing(deps.pool, id);
    try {
      if (!eventType) throw new Error(`No handler for ${event.source} ${event.type}`);
      await eventType.process(deps, event);
      await markEnded(deps.pool, id, 'completed');
      deps.logger.info('inbound event processed', { event_id: event.event_id, type: event.type });
    } catch (err) {
      const permanent = err instanceof PermanentJobFailure;
      deps.logger.warn('inbound event step failed', { event_id: event.event_id, type: event.type, error_name: (err as Error).name, permanent, last_attempt: lastAttempt });
      if (permanent || lastAttempt) {
        await markEnded(deps.pool, id, 'failed', { error: 'Processing Failed', details: (err as Error).message.slice(0, 500) });
      }
      if (!permanent) throw err;
    }
  });
}

export async function startInboundEventWorker(deps: AppDeps): Promise<void> {
  // notifyPollingIntervalSeconds: a NOTIFY wakes a worker only for jobs sent while it listens; a
  // backlog (after a restart or an outage) is drained by polling, which pg-boss otherwise does
  // every 30 s when NOTIFY is on, 2 jobs at a time.
  await deps.boss.work(INBOUND_EVENT_QUEUE, { localConcurrency: 2, includeMetadata: true, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 }, async ([job]) => {
    const { id } = jobData.parse(job.data);
    const retryLimit = job.retryLimit ?? 0;
    await processInboundEvent(deps, id, (job.retryCount ?? 0) >= retryLimit);
  });
}
