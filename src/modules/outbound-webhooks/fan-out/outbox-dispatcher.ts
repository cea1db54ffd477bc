import type { AppDeps } from '../../../app-deps.js';
import { CHANNELS } from '../../../db/notifications.js';
import { withTransaction } from '../../../db/transaction.js';
import { endpointsWithWaiting } from '../deliveries/delivery-slots.repo.js';
import { sendDeliveryJobs } from '../delivery-job/webhook-delivery.job.js';
import { fanOutOutbox, takeStalledDeliveries } from './fan-out.repo.js';

export interface DispatcherOptions {
  sweepIntervalMs?: number;
  batchSize?: number;
}

export interface OutboxDispatcher {
  /** fans out every undispatched event now (resolves when the outbox is empty) */
  drain(): Promise<void>;
  stop(): void;
}

/**
 * Turns outbox events into deliveries, one per matching endpoint, each with its own job. It
 * wakes on the outbox channel and also sweeps on a timer (and at start), so events recorded
 * while no dispatcher listened are not left behind. Rows are claimed FOR UPDATE, in record order,
 * and the deliveries, their jobs and the dispatched mark commit together: parallel dispatchers
 * take turns, never fan out an event twice nor one patient's events out of order, and a crash
 * before the commit leaves the event for the next one.
 * Deliveries start waiting, and each endpoint that got some gets one job, which claims as many
 * as the endpoint has free slots (WEBHOOK_ENDPOINT_CONCURRENCY); each finished attempt hands its
 * slot to the next. So one endpoint's backlog stays in its table rows and never queues ahead of
 * another endpoint's work. The sweep also requeues attempts whose process died holding them
 * (expired leases), and queues an endpoint job for endpoints whose waiting deliveries nobody
 * handed a slot to.
 */
export type DispatcherDeps = Pick<AppDeps, 'pool' | 'boss' | 'logger' | 'notifications'>;

export function startOutboxDispatcher(deps: DispatcherDeps, options: DispatcherOptions = {}): OutboxDispatcher {
  const batchSize = options.batchSize ?? 200;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;

  const fanOutAll = async () => {
    for (;;) {
      const { events } = await withTransaction(deps.pool, async (tx) => {
        const result = await fanOutOutbox(tx, batchSize);
        await sendDeliveryJobs(
          deps.boss,
          tx,
          result.endpoints.map((id) => ({ endpoint_id: id })),
        );
        return result;
      });
      if (events < batchSize || stopped) return;
    }
  };

  const requeueStalled = async () => {
    const stalled = await withTransaction(deps.pool, async (tx) => {
      const rows = await takeStalledDeliveries(tx, batchSize);
      await sendDeliveryJobs(
        deps.boss,
        tx,
        rows.map((r) => ({ delivery_id: r.id, attempt: r.attempt_count + 1 })),
      );
      return rows;
    });
    if (stalled.length) deps.logger.warn('stalled webhook deliveries requeued', { count: stalled.length });
    // Waiting deliveries no finishing attempt handed a slot to (an admitted job that never ran, a lost process).
    const waiting = await endpointsWithWaiting(deps.pool, batchSize);
    await sendDeliveryJobs(
      deps.boss,
      deps.pool,
      waiting.map((id) => ({ endpoint_id: id })),
    );
  };

  // One pass at a time; a wake-up during a pass (its sweep included) asks for one more fan-out, so
  // an event recorded while the sweep ran is fanned out when it ends, not at the next sweep.
  const run = (withSweep: boolean): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let sweep = withSweep;
      try {
        do {
          again = false;
          await fanOutAll();
          if (sweep) await requeueStalled();
          sweep = false;
        } while (again && !stopped);
      } catch (err) {
        if (!stopped) deps.logger.error('outbox dispatch failed; the next sweep retries', { error_name: (err as Error).name });
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const unsubscribe = deps.notifications.subscribe(CHANNELS.outbox, () => void run(false));
  const unhook = deps.notifications.onReconnect(() => void run(false));
  const timer = setInterval(() => void run(true), options.sweepIntervalMs ?? 5_000);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    unhook();
  };
  deps.boss.once('stopped', stop);
  void run(true);
  return { drain: () => run(false), stop };
}
