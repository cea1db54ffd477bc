import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { sendContinuation } from '../../src/jobs/continuation.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('a step’s continuation, sent in the transaction that ends the step', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  // SQL: the job rows are pg-boss's; this unit test shows what is enqueued.
  const jobs = async (queue: string) => (await t.deps.pool.query(`SELECT data, state FROM pgboss.job WHERE name = $1`, [queue])).rows;

  it('sends the job with the queue’s settings, and none when the step has none', async () => {
    const queue = `continuation-${randomUUID().slice(0, 8)}`;
    await t.deps.boss.createQueue(queue, { retryLimit: 4 });
    await withTransaction(t.deps.pool, async (tx) => {
      await sendContinuation(tx, { queue, data: { event_id: 'e1' } });
      await sendContinuation(tx, undefined);
    });
    expect(await jobs(queue)).toEqual([{ data: { event_id: 'e1' }, state: 'created' }]);
  });

  it('rolls back with the step: nothing is sent when its transaction fails', async () => {
    const queue = `continuation-${randomUUID().slice(0, 8)}`;
    await t.deps.boss.createQueue(queue);
    await expect(
      withTransaction(t.deps.pool, async (tx) => {
        await sendContinuation(tx, { queue, data: { n: 1 } });
        throw new Error('the step failed to end');
      }),
    ).rejects.toThrow('the step failed to end');
    expect(await jobs(queue)).toEqual([]);
  });

  it('fails the ending transaction when its queue does not exist, rather than losing it', async () => {
    await expect(withTransaction(t.deps.pool, (tx) => sendContinuation(tx, { queue: 'no-such-queue', data: {} }))).rejects.toThrow(
      /division by zero/,
    );
  });
});
