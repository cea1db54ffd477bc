import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowEngine } from '../helpers/slow-engine.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import type { RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody, waitForStatus } from './runs.builders.js';
import { startSlowApp } from './slow-app.js';

describe('POST .../runs/{runId}/cancel', () => {
  let t: RunsTestApp & { engine: SlowEngine };
  let caller: Caller;
  beforeAll(async () => {
    t = await startSlowApp(3_000);
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const cancel = (threadId: string, runId: string, query = '') =>
    request(t.app).post(`/v1/agent/threads/${threadId}/runs/${runId}/cancel${query}`).set(caller.headers);

  it('ends a running run failed/Cancelled, aborts the engine, and the worker never overwrites it', async () => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    await waitForStatus(t.app, caller, threadId, created.run_id, 'running');
    const abortedBefore = t.engine.aborted;

    const res = await cancel(threadId, created.run_id, '?wait=1&action=interrupt');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      run_id: created.run_id,
      status: 'failed',
      output: null,
      error: { error: 'Cancelled', details: expect.any(String) },
    });
    expect(res.body.ended_at).toEqual(expect.any(String));
    await expect.poll(() => t.engine.aborted, { timeout: 5_000 }).toBe(abortedBefore + 1);

    // Past the engine's delay, the run still shows the cancel and the thread has no messages.
    await new Promise((r) => setTimeout(r, 3_200));
    const after = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${created.run_id}`).set(caller.headers);
    expect(after.body).toEqual(res.body);
    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    expect(thread.body.messages).toEqual([]);
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const { rows } = await t.deps.pool.query(`SELECT type, data FROM outbox WHERE data->>'run_id' = $1`, [created.run_id]);
    expect(rows).toEqual([{ type: 'run.failed', data: expect.objectContaining({ status: 'failed', kind: 'chat' }) }]);
  });

  it('ends a pending run queued behind a busy one; it never starts, and the next run still does', async () => {
    const threadId = await newThread(t.app, caller);
    const busy = (await createRun(t.app, caller, threadId, runBody(threadId, 'first'))).body;
    const queued = (await createRun(t.app, caller, threadId, runBody(threadId, 'second'))).body;
    const next = (await createRun(t.app, caller, threadId, runBody(threadId, 'third'))).body;
    await waitForStatus(t.app, caller, threadId, busy.run_id, 'running');

    const res = await cancel(threadId, queued.run_id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', started_at: null, error: { error: 'Cancelled' } });

    expect((await joinRun(t.app, caller, threadId, busy.run_id, 30)).status).toBe('completed');
    expect((await joinRun(t.app, caller, threadId, next.run_id, 30)).status).toBe('completed');
    const stillCancelled = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${queued.run_id}`).set(caller.headers);
    expect(stillCancelled.body).toMatchObject({ status: 'failed', started_at: null });
    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    expect(thread.body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual([
      'first',
      'third',
    ]);
  }, 30_000);

  it('409 for a run that has already ended', async () => {
    t.engine.delayMs = 10;
    try {
      const threadId = await newThread(t.app, caller);
      const { body: created } = await createRun(t.app, caller, threadId);
      await joinRun(t.app, caller, threadId, created.run_id);
      const res = await cancel(threadId, created.run_id);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, error: 'Conflict' });
      const cancelled = (await createRun(t.app, caller, threadId)).body;
      await cancel(threadId, cancelled.run_id);
      expect((await cancel(threadId, cancelled.run_id)).status).toBe(409);
    } finally {
      t.engine.delayMs = 3_000;
    }
  });

  it('400 for a wait or action it does not know', async () => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    expect((await cancel(threadId, created.run_id, '?action=explode')).status).toBe(400);
    expect((await cancel(threadId, created.run_id, '?wait=soon')).status).toBe(400);
    expect((await cancel(threadId, created.run_id, '?wait=0&action=rollback')).status).toBe(200);
  });
});
