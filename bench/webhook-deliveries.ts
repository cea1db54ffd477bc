/**
 * Outbound webhook throughput: N events recorded in the outbox, fanned out by the dispatcher and
 * POSTed (signed) by the delivery worker to a local node:http receiver that answers 200.
 * The events are recorded first; then the dispatcher and worker start, and the clock runs until
 * the last delivery's outcome is committed.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/webhook-deliveries.ts [events] [endpoints]
 *
 * Works in a temporary database of its own on DATABASE_URL's server, dropped at the end.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { AppDeps } from '../src/app-deps.js';
import { parseConfig } from '../src/config.js';
import { ALL_CHANNELS, NotificationHub } from '../src/db/notifications.js';
import { migrate } from '../src/db/migrate.js';
import { createPool } from '../src/db/pool.js';
import { withTransaction } from '../src/db/transaction.js';
import { startBoss } from '../src/jobs/boss.js';
import { startWebhookDeliveryWorker } from '../src/jobs/webhook-delivery-worker.js';
import { createLogger } from '../src/lib/logger.js';
import { recordEvent } from '../src/modules/outbox/outbox.repo.js';
import { insertEndpoint } from '../src/modules/webhook-endpoints/webhook-endpoints.repo.js';
import { startOutboxDispatcher } from '../src/webhooks/outbox-dispatcher.js';
import { generateWebhookSecret } from '../src/webhooks/signing.js';

const events = Number(process.argv[2] ?? 2000);
const endpoints = Number(process.argv[3] ?? 1);
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server (a temporary database is created on it)');

const name = `clinigate_bench_wh_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const u = new URL(adminUrl);
u.pathname = `/${name}`;
const url = u.toString();

let received = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;

try {
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'error' });
  const logger = createLogger('error');
  const pool = createPool(url, 20);
  await migrate(pool);
  const boss = await startBoss(url, logger, { supervise: false });
  const notifications = new NotificationHub(url, ALL_CHANNELS, logger);
  await notifications.start();
  const deps = { config, pool, boss, logger, notifications } as unknown as AppDeps;
  for (let i = 0; i < endpoints; i++) {
    await insertEndpoint(pool, { id: randomUUID(), url: `http://127.0.0.1:${port}/hook/${i}`, events: [], groupId: null, description: null, thin: false, secret: generateWebhookSecret(), allowPrivate: true });
  }
  const recordStart = performance.now();
  for (let i = 0; i < events; i += 100) {
    await withTransaction(pool, async (tx) => {
      for (let j = i; j < Math.min(events, i + 100); j++) {
        await recordEvent(tx, { type: 'run.completed', groupId: 'bench', data: { run_id: randomUUID(), group_id: 'bench' } });
      }
    });
  }
  const recordedMs = performance.now() - recordStart;
  // Measured from here: fan-out of the backlog, one job per delivery, signed POSTs, outcomes recorded.
  const started = performance.now();
  await startWebhookDeliveryWorker(deps);
  const dispatcher = startOutboxDispatcher(deps);
  const total = events * endpoints;
  for (;;) {
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`);
    if (rows[0].n >= total) break;
    if (process.env.BENCH_TRACE) console.log(Math.round(performance.now() - started), rows[0].n, received, (await pool.query('SELECT count(*)::int AS n FROM webhook_deliveries')).rows[0].n, (await pool.query("SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery' GROUP BY 1")).rows.map((r) => r.state + ':' + r.n).join(' '));
    await new Promise((r) => setTimeout(r, process.env.BENCH_TRACE ? 1000 : 50));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({
    events, endpoints, deliveries: total, received, seconds: Number(seconds.toFixed(2)),
    deliveries_per_second: Math.round(total / seconds), events_recorded_ms: Math.round(recordedMs),
  }));
  dispatcher.stop();
  await boss.stop({ graceful: false });
  await notifications.stop();
  await pool.end();
} finally {
  server.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
}
