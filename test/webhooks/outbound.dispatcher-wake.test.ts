import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookDeliveryLoops } from '../../src/modules/outbound-webhooks/delivery-job/webhook-delivery.job.js';
import { startOutboxDispatcher, type OutboxDispatcher } from '../../src/modules/outbound-webhooks/fan-out/outbox-dispatcher.js';
import { isolatedDatabase, type Receiver } from '../helpers/receiver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { receivers, recordNoteEvent, subscribe } from './webhooks.builders.js';

describe('outbox dispatcher wake-ups', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  const rxs = receivers();
  let dispatcher: OutboxDispatcher | undefined;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    rx = await rxs.start();
    await startWebhookDeliveryLoops(t.deps);
  });
  afterAll(async () => {
    dispatcher?.stop();
    await rxs.stopAll();
    await t?.close();
    await db?.drop();
  });

  // The sweep (every 5 s in the service) once swallowed a wake-up that came while it ran: the
  // event waited for the next sweep (a 5 s note.ready now and then in bench:trees).
  it('fans out an event recorded while its sweep runs as soon as the sweep ends, not at the next sweep', async () => {
    const group = `group-${randomUUID()}`;
    await subscribe(t.app, { url: rx.url, group_id: group, events: ['note.updated'] });
    // Hold the sweep: its UPDATE of webhook_deliveries waits for this lock (an empty outbox's
    // fan-out does not touch the table).
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE webhook_deliveries IN SHARE MODE');
      dispatcher = startOutboxDispatcher(t.deps, { sweepIntervalMs: 120_000 });
      // pg_stat_activity is read once per transaction unless its snapshot is cleared: without
      // that, a first read before the sweep started answered 0 for the whole poll (the test
      // failed 4 runs in 5).
      const sweepWaits = async () => {
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await holder.query(`SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%UPDATE webhook_deliveries%'`);
        return rows[0].n as number;
      };
      await expect.poll(sweepWaits, { timeout: 20_000 }).toBeGreaterThan(0);
      const eventId = await recordNoteEvent(t, group);
      // The dispatcher hears the event's NOTIFY while its sweep still waits.
      await new Promise((r) => setTimeout(r, 500));
      await holder.query('COMMIT');
      // Well before the next sweep (120 s): the bug's delay.
      await expect.poll(() => rx.received.map((r) => r.json.id), { timeout: 20_000 }).toContain(eventId);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  }, 60_000);
});
