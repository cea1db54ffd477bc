import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { RUN_QUEUE } from '../../src/modules/runs/run-execute.job.js';
import { readConsoleRun } from '../helpers/api-reads.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody, VISIT, waitForStatus } from './runs.builders.js';
import { startSlowApp } from './slow-app.js';

const EXTRACT = { 'x-is-chat': 'false' };

describe('a run whose engine fails', () => {
  let t: RunsTestApp;
  let caller: Caller;
  const failing: ClinicalEngine = {
    name: 'failing',
    chat: async () => {
      throw new Error('model said something with PHI in it');
    },
    extractNote: async () => {
      throw new Error('boom');
    },
    codify: async () => {
      throw new Error('boom');
    },
  };
  beforeAll(async () => {
    t = await startRunsTestApp({ workers: true, deps: { engine: failing } });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('ends failed with an error that names no clinical text, records run.failed, writes nothing to the thread', async () => {
    const threadId = await newThread(t.app, caller);
    const run = await joinRun(t.app, caller, threadId, (await createRun(t.app, caller, threadId)).body.run_id);
    expect(run).toMatchObject({ status: 'failed', output: null, error: { error: 'Engine Error', details: expect.any(String) } });
    expect(run.error.details).not.toMatch(/PHI/);
    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    expect(thread.body.messages).toEqual([]);
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const { rows } = await t.deps.pool.query(`SELECT type FROM outbox WHERE data->>'run_id' = $1`, [run.run_id]);
    expect(rows).toEqual([{ type: 'run.failed' }]);

    const extraction = await createRun(t.app, caller, threadId, runBody(threadId, VISIT), EXTRACT);
    const failed = await joinRun(t.app, caller, threadId, extraction.body.run_id);
    expect(failed.status).toBe('failed');
    // SQL: no API lists notes by run, and a failed run names no note to GET.
    const notes = await t.deps.pool.query(`SELECT 1 FROM clinical_notes WHERE $1 = ANY(report_run_id)`, [failed.run_id]);
    expect(notes.rowCount).toBe(0);
  });
});

describe('a run whose ending transaction fails on the database every time', () => {
  let t: RunsTestApp;
  let caller: Caller;
  // PostgreSQL refuses a NUL character in text and jsonb: an infrastructure error, not a run error.
  const nul: ClinicalEngine = {
    name: 'nul',
    chat: async () => ({ message: { role: 'assistant', content: 'bad\u0000reply' } }),
    extractNote: async () => {
      throw new Error('unused');
    },
    codify: async () => {
      throw new Error('unused');
    },
  };
  beforeAll(async () => {
    t = await startRunsTestApp({ workers: true, deps: { engine: nul } });
    await t.deps.boss.updateQueue(RUN_QUEUE, { retryLimit: 1, retryDelay: 1, retryBackoff: false });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('ends the run failed after the last retry and completes its job, so the thread is not blocked', async () => {
    const threadId = await newThread(t.app, caller);
    const first = (await createRun(t.app, caller, threadId)).body;
    const second = (await createRun(t.app, caller, threadId)).body;
    const run = await joinRun(t.app, caller, threadId, first.run_id, 30);
    expect(run).toMatchObject({ status: 'failed', error: { error: 'Internal Server Error' } });
    expect((await readConsoleRun(t.app, first.run_id)).attempts).toBe(2);
    // SQL: the job row is pg-boss's (this test exists to show the job completes, not only the run).
    const job = await t.deps.pool.query(`SELECT state FROM ${t.schema}.job WHERE data->>'run_id' = $1`, [first.run_id]);
    expect(job.rows).toEqual([{ state: 'completed' }]);
    // The next run of the thread still gets its turn.
    expect((await joinRun(t.app, caller, threadId, second.run_id, 30)).status).toBe('failed');
  }, 40_000);
});

describe('a run job that fails for good (dead-lettered)', () => {
  let t: Awaited<ReturnType<typeof startSlowApp>>;
  let caller: Caller;
  beforeAll(async () => {
    t = await startSlowApp(10_000);
    await t.deps.boss.updateQueue(RUN_QUEUE, { retryLimit: 0 });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('ends its run failed and releases the thread for the next run', async () => {
    const threadId = await newThread(t.app, caller);
    const first = (await createRun(t.app, caller, threadId)).body;
    const second = (await createRun(t.app, caller, threadId)).body;
    await waitForStatus(t.app, caller, threadId, first.run_id, 'running');
    // What a crash on the last attempt leaves behind: the job failed with no retry left.
    // SQL (arranging, not asserting): the job's id is pg-boss's, which no API shows.
    const { rows } = await t.deps.pool.query(`SELECT id FROM ${t.schema}.job WHERE name = $1 AND data->>'run_id' = $2`, [
      RUN_QUEUE,
      first.run_id,
    ]);
    await t.deps.boss.fail(RUN_QUEUE, rows[0].id, { reason: 'test' });

    const ended = await joinRun(t.app, caller, threadId, first.run_id, 30);
    expect(ended).toMatchObject({ status: 'failed', error: { error: 'Internal Server Error' } });
    t.engine.delayMs = 10;
    const next = await joinRun(t.app, caller, threadId, second.run_id, 30);
    expect(next.status).toBe('completed');
    // The first run's own engine call, finishing later, does not overwrite its end.
    const again = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${first.run_id}`).set(caller.headers);
    expect(again.body).toEqual(ended);
  }, 40_000);
});
