import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupBacklog } from '../../src/jobs/pgboss.repo.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('a group’s backlog (fair-share priority, engine queue cap)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  const queue = `backlog-${randomUUID().slice(0, 8)}`;
  const other = `${queue}-other`;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    for (const q of [queue, other]) await t.deps.boss.createQueue(q);
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('counts the group’s waiting and active jobs, never by reading the queue’s history', async () => {
    const send = (q: string, group: string, n: number) =>
      t.deps.boss.insert(
        q,
        Array.from({ length: n }, (_, i) => ({ data: { i }, group: { id: group } })),
      );
    await send(queue, 'g1', 5);
    await send(queue, 'g2', 4);
    await send(other, 'g1', 2);
    // SQL: pg-boss's job rows, set to the states under test (two of g1's active, one retried), and
    // a history of completed jobs.
    await t.deps.pool.query(
      `UPDATE pgboss.job SET state = 'active', started_on = now()
        WHERE id IN (SELECT id FROM pgboss.job WHERE name = $1 AND group_id = 'g1' ORDER BY created_on LIMIT 2)`,
      [queue],
    );
    await t.deps.pool.query(
      `UPDATE pgboss.job SET state = 'retry'
        WHERE id IN (SELECT id FROM pgboss.job WHERE name = $1 AND group_id = 'g1' AND state = 'created' LIMIT 1)`,
      [queue],
    );
    await t.deps.pool.query(
      `INSERT INTO pgboss.job (id, name, data, state, priority, created_on, started_on, completed_on, group_id, policy, keep_until)
       SELECT gen_random_uuid(), q.name, '{}'::jsonb, 'completed', 0, now(), now(), now(), 'g' || (i % 3), q.policy, now() + interval '1 day'
         FROM pgboss.queue q, generate_series(1, 20000) i WHERE q.name = ANY ($1::text[])`,
      [[queue, other]],
    );
    await t.deps.pool.query('ANALYZE pgboss.job');

    expect(await groupBacklog(t.deps.pool, [queue], 'g1')).toEqual({ waiting: 3, outstanding: 5 });
    expect(await groupBacklog(t.deps.pool, [queue], 'g2')).toEqual({ waiting: 4, outstanding: 4 });
    expect(await groupBacklog(t.deps.pool, [queue, other], 'g1')).toEqual({ waiting: 5, outstanding: 7 });
    expect(await groupBacklog(t.deps.pool, [queue], 'g9')).toEqual({ waiting: 0, outstanding: 0 });

    // Read by index: the 40,000 completed jobs are not scanned (the count once read them all on
    // every send). pg_stat_xact_user_tables: this transaction's own scans.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await groupBacklog(client, [queue, other], 'g1');
      const { rows } = await client.query<{ seq: number; idx: number }>(
        `SELECT coalesce(sum(seq_scan), 0)::int AS seq, coalesce(sum(idx_scan), 0)::int AS idx
           FROM pg_stat_xact_user_tables WHERE schemaname = 'pgboss' AND relname LIKE 'job%'`,
      );
      expect(rows[0]).toEqual({ seq: 0, idx: expect.any(Number) });
      expect(rows[0].idx).toBeGreaterThan(0);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
  }, 60_000);
});
