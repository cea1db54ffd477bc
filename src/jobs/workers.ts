import type { AppDeps } from '../app-deps.js';
import { instrumentBoss } from '../metrics/instrument-boss.js';
import { startOutboxDispatcher } from '../modules/outbound-webhooks/fan-out/outbox-dispatcher.js';
import { startCallDispatchWorker } from './call-dispatch-worker.js';
import { startCodifyWorker } from './codify-worker.js';
import { startDeadRowSweeper } from './dead-row-sweeper.js';
import { startHousekeepingWorker } from './housekeeping-worker.js';
import { startInboundEventWorker } from './inbound-event-worker.js';
import { startRunWorker } from './run-worker.js';
import { startWebhookDeliveryWorker } from '../modules/outbound-webhooks/delivery-job/delivery-worker.js';

export interface Workers {
  /** Stops what runs beside pg-boss (the outbox dispatcher, the dead-row sweeper); pg-boss's own workers stop with it. */
  stop(): void;
}

/**
 * Starts every queue's worker (ROLE worker or all), each registered through a pg-boss instance
 * that times and counts its jobs, the outbox dispatcher, and the dead-row sweeper.
 */
export async function startWorkers(deps: AppDeps): Promise<Workers> {
  const instrumented = { ...deps, boss: instrumentBoss(deps.boss, deps.metrics) };
  for (const start of [startRunWorker, startInboundEventWorker, startCallDispatchWorker, startCodifyWorker, startWebhookDeliveryWorker, startHousekeepingWorker]) {
    await start(instrumented);
  }
  const dispatcher = startOutboxDispatcher(instrumented);
  const sweeper = startDeadRowSweeper(deps);
  return {
    stop: () => {
      dispatcher.stop();
      sweeper.stop();
    },
  };
}
