/**
 * Outbound webhook throughput: N events recorded in the outbox, fanned out by the dispatcher and
 * POSTed (signed) by the delivery worker to a local node:http receiver that answers 200.
 * The events are recorded first; then the dispatcher and worker start, and the clock runs until
 * the last delivery's outcome is committed. Runs on a fresh database (dropped at the end) of
 * DATABASE_URL's server, or of an embedded PostgreSQL when it is unset.
 *
 *   tsx bench/webhook-deliveries.ts [--events 2000] [--endpoints 1]
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { withTransaction } from '../src/db/transaction.js';
import { startWebhookDeliveryLoops } from '../src/modules/outbound-webhooks/delivery-job/webhook-delivery.job.js';
import { recordEvent } from '../src/outbound-events/outbox.repo.js';
import { insertEndpoint } from '../src/modules/outbound-webhooks/endpoints/webhook-endpoints.repo.js';
import { startOutboxDispatcher } from '../src/modules/outbound-webhooks/fan-out/outbox-dispatcher.js';
import { generateWebhookSecret } from '../src/lib/webhook-secret.js';
import { createBenchDatabase } from './lib/database.js';
import { openBenchRuntime } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import type { BenchContext, BenchResult } from './lib/types.js';

export interface WebhookDeliveriesOptions extends BenchContext {
  events?: number;
  endpoints?: number;
}

export async function run(options: WebhookDeliveriesOptions): Promise<BenchResult[]> {
  const events = options.events ?? 2000;
  const endpoints = options.endpoints ?? 1;
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  const db = await createBenchDatabase(options.adminUrl, 'wh');
  const { runtime } = await openBenchRuntime(db.url, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  const { deps } = runtime;
  let dispatcher: ReturnType<typeof startOutboxDispatcher> | undefined;
  try {
    for (let i = 0; i < endpoints; i++) {
      await insertEndpoint(deps.pool, {
        id: randomUUID(),
        url: `http://127.0.0.1:${port}/hook/${i}`,
        events: [],
        groupId: null,
        description: null,
        thin: false,
        secret: generateWebhookSecret(),
        allowPrivate: true,
      });
    }
    options.log(`webhook deliveries: ${events} events x ${endpoints} endpoint(s)`);
    for (let i = 0; i < events; i += 100) {
      await withTransaction(deps.pool, async (tx) => {
        for (let j = i; j < Math.min(events, i + 100); j++) {
          await recordEvent(tx, { type: 'run.completed', groupId: 'bench', data: { run_id: randomUUID(), group_id: 'bench' } });
        }
      });
    }
    // Measured from here: fan-out of the backlog, one job per delivery, signed POSTs, outcomes recorded.
    const started = performance.now();
    await startWebhookDeliveryLoops(deps);
    dispatcher = startOutboxDispatcher(deps);
    const total = events * endpoints;
    for (;;) {
      const { rows } = await deps.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`);
      if (rows[0].n >= total) break;
      if (performance.now() - started > 120_000) throw new Error(`only ${rows[0].n} of ${total} deliveries done after 120 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    return [
      {
        name: 'outbound webhook deliveries per second',
        value: total / seconds,
        unit: 'deliveries/s',
        note: `${total} deliveries (${events} events x ${endpoints} endpoint), ${received} POSTs received, ${seconds.toFixed(2)} s from backlog to last outcome committed`,
      },
    ];
  } finally {
    dispatcher?.stop();
    await runtime.stop({ graceful: false });
    receiver.close();
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '2000' }, endpoints: { type: 'string', default: '1' } } });
  await runStandalone((ctx) => run({ ...ctx, events: Number(values.events), endpoints: Number(values.endpoints) }));
}
