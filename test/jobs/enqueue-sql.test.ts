import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJobsSql } from '../../src/jobs/pgboss.repo.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Enqueues one job per data object through enqueueJobsSql, in one statement, as the ingest does. */
async function enqueueBySql(t: TestApp, queue: string, data: object[]): Promise<number> {
  const enqueue = enqueueJobsSql(queue, 'new_jobs');
  // SQL: this unit test runs the enqueue SQL itself.
  const { rows } = await t.deps.pool.query(
    `WITH new_jobs AS (SELECT value AS job_data FROM jsonb_array_elements($1::jsonb)),
     ${enqueue.ctes}
     SELECT job_data FROM new_jobs WHERE ${enqueue.guard}`,
    [JSON.stringify(data)],
  );
  return rows.length;
}

describe('jobs enqueued inside our own statements (pgboss.repo.ts enqueueJobsSql)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('are the jobs boss.insert() makes: every column pg-boss sets, from the queue settings', async () => {
    const queue = `enqueue-sql-${randomUUID().slice(0, 8)}`;
    await t.deps.boss.createQueue(`${queue}-dead`);
    await t.deps.boss.createQueue(queue, {
      notify: true,
      retryLimit: 3,
      retryDelay: 7,
      retryBackoff: true,
      retryDelayMax: 100,
      expireInSeconds: 123,
      retentionSeconds: 4567,
      deleteAfterSeconds: 890,
      heartbeatSeconds: 40,
      deadLetter: `${queue}-dead`,
    });
    await t.deps.boss.insert(queue, [{ data: { by: 'boss' } }]);
    expect(await enqueueBySql(t, queue, [{ by: 'sql' }])).toBe(1);

    // SQL: the job rows are pg-boss's; this unit test shows their timing columns.
    const { rows } = await t.deps.pool.query(
      `SELECT *, keep_until - start_after AS kept_for, created_on - start_after AS created_lag FROM pgboss.job WHERE name = $1`,
      [queue],
    );
    expect(rows).toHaveLength(2);
    const byBoss = rows.find((r) => r.data.by === 'boss');
    const bySql = rows.find((r) => r.data.by === 'sql');
    // Ids and times are each job's own; everything else must match.
    const own = ['id', 'data', 'created_on', 'start_after', 'keep_until'];
    const rest = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([k]) => !own.includes(k)));
    expect(rest(bySql)).toEqual(rest(byBoss));
    expect(bySql).toMatchObject({
      state: 'created',
      retry_limit: 3,
      retry_delay: 7,
      retry_backoff: true,
      expire_seconds: 123,
      dead_letter: `${queue}-dead`,
    });
  });

  it('fail the whole statement when a row cannot become a job (no such queue), rather than enqueue nothing', async () => {
    await expect(enqueueBySql(t, 'enqueue-sql-no-such-queue', [{ n: 1 }])).rejects.toThrow(/division by zero/);
  });

  it('wake a waiting pg-boss worker at once through its LISTEN channel, not its 30 s fallback poll', async () => {
    const queue = `enqueue-sql-${randomUUID().slice(0, 8)}`;
    await t.deps.boss.createQueue(queue, { notify: true });
    const received: unknown[] = [];
    let firstFetchDone!: () => void;
    const polled = new Promise<void>((r) => (firstFetchDone = r));
    const workerId = await t.deps.boss.work(queue, async (jobs) => {
      for (const job of jobs) received.push(job.data);
    });
    // Let the worker make its first (empty) fetch; from then on it waits for a NOTIFY (or 30 s).
    setTimeout(firstFetchDone, 1_000);
    await polled;
    const sent = Date.now();
    await enqueueBySql(t, queue, [{ n: 1 }]);
    while (!received.length && Date.now() - sent < 10_000) await new Promise((r) => setTimeout(r, 20));
    await t.deps.boss.offWork(queue, { id: workerId });
    expect(received).toEqual([{ n: 1 }]);
    expect(Date.now() - sent).toBeLessThan(5_000);
  });
});
