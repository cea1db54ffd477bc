import { randomBytes, randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { z } from 'zod';
import { createPool, type Pool, type PoolClient } from '../../src/db/pool.js';
import { defineJob, startJobLoops, type JobDeps } from '../../src/jobs/define-job.js';
import { createLogger } from '../../src/lib/logger.js';
import { codifyJob } from '../../src/modules/codify/codify.job.js';
import { runExecuteJob } from '../../src/modules/runs/run-execute.job.js';
import { startIsolatedBoss } from '../helpers/boss-in-schema.js';
import { waitFor } from '../helpers/wait-for.js';

/** An arbitrary advisory lock key: the test holds it while the loops' claims wait. */
const CLAIM_GATE = 735_035;

/**
 * DESIGN "Fair share between groups": a flooding group never holds all of a queue's job loops, so
 * another group's job is taken at once by a free loop. The race that broke it: loops woken
 * together each counted the flood's active jobs before any of their claims committed, and each
 * took one. Here that race is forced, not hoped for: a trigger holds every claim (the UPDATE of
 * a job to `active`) until all the loops have made theirs, so each loop's fetch counted none.
 */
describe.each([
  { queue: 'run-execute', job: runExecuteJob },
  { queue: 'codify', job: codifyJob },
])('the $queue queue: a flood of one group never takes every loop of the process', ({ job }) => {
  let boss: PgBoss;
  let pool: Pool;
  let gate: PoolClient;
  const schema = `pgboss_share_${randomBytes(4).toString('hex')}`;
  const loops = job.fetch?.selfWakingLoops ?? 1;
  const cap = job.fetch?.localGroupConcurrency ?? loops;

  beforeAll(async () => {
    pool = createPool(inject('databaseUrl'), 3);
    boss = await startIsolatedBoss(inject('databaseUrl'), { schema });
    const { rows } = await pool.query<{ table_name: string }>(`SELECT table_name FROM ${schema}.queue WHERE name = $1`, [job.queue.name]);
    await pool.query(`
      CREATE FUNCTION ${schema}.hold_claim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock_shared(${CLAIM_GATE}); RETURN NEW; END $$;
      CREATE TRIGGER hold_claim BEFORE UPDATE ON ${schema}.${rows[0].table_name}
        FOR EACH ROW WHEN (NEW.state = 'active' AND OLD.state <> 'active') EXECUTE FUNCTION ${schema}.hold_claim();`);
    gate = await pool.connect();
  });
  afterAll(async () => {
    gate?.release();
    await boss?.stop({ graceful: false });
    await pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool?.end();
  });

  it(`runs at most ${cap} of the flood's jobs at once, while a free loop takes another group's job`, async () => {
    expect(loops).toBeGreaterThan(cap);
    const flood = `group-a-${randomUUID()}`;
    const other = `group-b-${randomUUID()}`;
    const running = new Map<string, number>();
    let mostOfFlood = 0;
    let otherStarted = false;
    const handled: Array<{ n: number; attempt: number }> = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));

    const probe = defineJob<{ group_id: string; n: number }, JobDeps>({
      queue: job.queue,
      schema: z.object({ group_id: z.string(), n: z.number() }),
      fetch: job.fetch,
      groupOf: job.groupOf as (data: { group_id: string }) => string | undefined,
      async handle(_deps, data, attempt) {
        const now = (running.get(data.group_id) ?? 0) + 1;
        running.set(data.group_id, now);
        if (data.group_id === flood) mostOfFlood = Math.max(mostOfFlood, now);
        else otherStarted = true;
        handled.push({ n: data.n, attempt: attempt.attempt });
        try {
          if (data.group_id === flood) await released;
        } finally {
          running.set(data.group_id, (running.get(data.group_id) ?? 1) - 1);
        }
      },
    });
    // One thread per job (the run queue is key_strict_fifo per thread), the queue's own priorities.
    const send = (group: string, n: number, priority: number) =>
      boss.send(job.queue.name, { group_id: group, n }, { group: { id: group }, priority, singletonKey: `thread-${group}-${n}` });
    for (let n = 0; n < 12; n++) await send(flood, n, -n);

    // Every claim waits at the gate until all the loops have fetched: each counted none of the flood's.
    await gate.query('SELECT pg_advisory_lock($1)', [CLAIM_GATE]);
    await startJobLoops({ boss, logger: createLogger('error', { silent: true }) }, probe);
    await waitFor(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1`,
        [CLAIM_GATE],
      );
      return rows[0].n >= loops ? true : undefined;
    });
    await gate.query('SELECT pg_advisory_unlock($1)', [CLAIM_GATE]);
    await waitFor(async () => (running.get(flood) === cap || mostOfFlood > cap ? true : undefined));

    // Another group's job, sent while the flood holds its jobs: a free loop takes it (the flood's
    // jobs are still running; none has ended to free a loop).
    await send(other, 100, 0);
    await waitFor(async () => (otherStarted || mostOfFlood > cap ? true : undefined));
    expect(mostOfFlood).toBeLessThanOrEqual(cap);
    expect(otherStarted).toBe(true);
    expect(running.get(flood)).toBe(cap);

    // The rest of the flood goes through, never more than the cap at once, every job once, on its
    // first attempt (a claim given back is not an attempt).
    release();
    await waitFor(async () => (handled.length >= 13 ? true : undefined));
    expect(mostOfFlood).toBeLessThanOrEqual(cap);
    expect(handled.map((h) => h.n).sort((a, b) => a - b)).toEqual([...Array.from({ length: 12 }, (_, n) => n), 100]);
    expect(handled.every((h) => h.attempt === 1)).toBe(true);
  });
});
