import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobRunner, type JobRunner } from '../../src/job-runner.js';
import { insertInboundEventsWithJobs } from '../../src/modules/inbound-events/inbound-events.repo.js';
import { inboundRowId } from '../../src/modules/inbound-events/receive-event.js';
import { envelope, postSigned } from '../helpers/inbound.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const center = (id: string, name = `Centro ${id}`) => ({
  id,
  name,
  address: { line: 'Calle Mayor 1', city: 'Madrid', postalCode: '28013', country: 'ES' },
  phone: '+34910000000',
  timezone: 'Europe/Madrid',
});

/** The inbound event job takes its jobs in batches, so a backlog drains in seconds. */
describe('inbound event job, in batches', () => {
  let t: TestApp;
  let runner: JobRunner | undefined;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    runner?.stop();
    await t.close();
  });

  const states = async (ids: string[]) =>
    // SQL: the job's batch is run on a pool with no app; all rows of the batch, by status.
    (
      await t.deps.pool.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM inbound_events WHERE id = ANY($1::uuid[]) GROUP BY status`,
        [ids],
      )
    ).rows;

  it('drains a backlog of 240 catalog events, received while no job loop listened, within seconds (one job a second before)', async () => {
    const prefix = `bk-${randomUUID().slice(0, 8)}`;
    const events = Array.from({ length: 240 }, (_, i) => envelope('center.upserted', center(`${prefix}-${i % 40}`, `Centro ${i}`)));
    for (let i = 0; i < events.length; i += 40) {
      const answers = await Promise.all(events.slice(i, i + 40).map((e) => postSigned(t.app, 'ehr', e)));
      expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(202));
    }
    const ids = events.map((e) => inboundRowId('ehr', e.id));
    expect(await states(ids)).toEqual([{ status: 'received', n: 240 }]);

    const started = performance.now();
    runner = await startJobRunner(t.deps);
    await expect.poll(() => states(ids), { timeout: 20_000, interval: 100 }).toEqual([{ status: 'completed', n: 240 }]);
    expect(performance.now() - started).toBeLessThan(15_000);
    // SQL: the batch's catalog writes, counted on a pool with no app.
    const centers = await t.deps.pool.query(`SELECT count(*)::int AS n FROM centers WHERE id LIKE $1`, [`${prefix}-%`]);
    expect(centers.rows[0].n).toBe(40);
    // SQL: every row of the batch claimed once (attempts).
    const attempts = await t.deps.pool.query(`SELECT DISTINCT attempts FROM inbound_events WHERE id = ANY($1::uuid[])`, [ids]);
    expect(attempts.rows).toEqual([{ attempts: 1 }]);
  });

  it('processes a batch in one statement, and when one event of it cannot apply, the others still complete and that one fails once', async () => {
    runner ??= await startJobRunner(t.deps);
    const prefix = `mix-${randomUUID().slice(0, 8)}`;
    // Stored past the gateway's validation (as a sender bug or an older release could have left it).
    const stored = Array.from({ length: 30 }, (_, i) => {
      const data = i === 7 ? { ...center(`${prefix}-${i}`), timezone: 'Mars/Olympus' } : center(`${prefix}-${i}`);
      const eventId = `${prefix}-evt-${i}`;
      return {
        id: inboundRowId('ehr', eventId),
        source: 'ehr' as const,
        eventId,
        type: 'center.upserted',
        occurredAt: new Date().toISOString(),
        groupId: null,
        data,
        correlationId: randomUUID(),
      };
    });
    await insertInboundEventsWithJobs(t.deps.pool, stored);
    const ids = stored.map((e) => e.id);
    await expect
      .poll(() => states(ids), { timeout: 20_000, interval: 100 })
      .toEqual(
        expect.arrayContaining([
          { status: 'completed', n: 29 },
          { status: 'failed', n: 1 },
        ]),
      );
    // SQL: the one bad row's state, on a pool with no app.
    const bad = await t.deps.pool.query(`SELECT status, attempts, error FROM inbound_events WHERE id = $1`, [stored[7].id]);
    expect(bad.rows[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(bad.rows[0].error.details).toMatch(/time zone/);
  });
});
