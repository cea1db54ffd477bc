import type { AppDeps } from '../app-deps.js';
import { instrumentBoss } from '../metrics/instrument-boss.js';
import { startRunWorker } from './run-worker.js';
import { startCallDispatchWorker } from './call-dispatch-worker.js';
import { startInboundEventWorker } from './inbound-event-worker.js';
import { startCodifyWorker } from './codify-worker.js';
import { startWebhookDeliveryWorker } from './webhook-delivery-worker.js';
import { startOutboxDispatcher } from '../webhooks/outbox-dispatcher.js';

/**
 * Starts every queue's worker (ROLE worker or all). Each worker file exports a function that
 * registers its handler with `deps.boss.work(...)`.
 */
export async function startWorkers(deps: AppDeps): Promise<void> {
  const starters: Array<(deps: AppDeps) => Promise<unknown>> = [startRunWorker, startInboundEventWorker, startCallDispatchWorker, startCodifyWorker,
    startWebhookDeliveryWorker, async (d) => startOutboxDispatcher(d)];
  const instrumented = { ...deps, boss: instrumentBoss(deps.boss, deps.metrics) };
  for (const start of starters) await start(instrumented);
}
