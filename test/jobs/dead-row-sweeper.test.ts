import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autovacuumOn, tableHealth } from '../../src/db/table-health.repo.js';
import { startDeadRowSweeper } from '../../src/jobs/dead-row-sweeper.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** With autovacuum off, the job runner clears the dead rows ingest leaves in its hot tables. */
describe('dead-row sweeper', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const dead = async () => (await tableHealth(t.deps.pool, ['public.inbound_events']))[0]?.dead ?? 0;

  it('vacuums inbound_events once 20,000 of its rows are dead, when autovacuum is off (and leaves it to autovacuum when on)', async () => {
    await t.deps.pool.query(
      `INSERT INTO inbound_events (id, source, event_id, type, data, correlation_id)
       SELECT gen_random_uuid(), 'ehr', 'sweep-' || n, 'center.upserted', '{}'::jsonb, 'c' FROM generate_series(1, 25000) n`,
    );
    const update = () => t.deps.pool.query(`UPDATE inbound_events SET attempts = attempts + 1 WHERE event_id LIKE 'sweep-%'`);
    await update();
    // A later read of a full page prunes some dead versions before the statistics count them (one
    // run counted 14,272 of 25,000), so update again until 20,000 are counted. The statistics are
    // flushed about once a second.
    const deadAfterUpdates = async () => {
      const n = await dead();
      if (n < 20_000) await update();
      return n;
    };
    await expect.poll(deadAfterUpdates, { timeout: 20_000, interval: 1_000 }).toBeGreaterThanOrEqual(20_000);
    const off = !(await autovacuumOn(t.deps.pool));
    const sweeper = startDeadRowSweeper(t.deps, 100);
    try {
      if (off) await expect.poll(dead, { timeout: 20_000, interval: 250 }).toBeLessThan(1_000);
      else {
        await new Promise((r) => setTimeout(r, 1_000));
        // SQL: PostgreSQL's own statistics show the vacuum (no state of the service).
        const { rows } = await t.deps.pool.query(`SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'inbound_events'`);
        expect(rows[0].n).toBe(0);
      }
    } finally {
      sweeper.stop();
    }
  });
});
