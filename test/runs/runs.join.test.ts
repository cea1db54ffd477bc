import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowEngine } from '../helpers/slow-engine.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import type { RunsTestApp } from './isolated-boss.js';
import { createRun, newThread } from './runs.builders.js';
import { startSlowApp } from './slow-app.js';

describe('GET .../runs/{runId}/join', () => {
  let t: RunsTestApp & { engine: SlowEngine };
  let caller: Caller;
  beforeAll(async () => {
    t = await startSlowApp(1_500);
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const join = (threadId: string, runId: string, query = '') =>
    request(t.app).get(`/v1/agent/threads/${threadId}/runs/${runId}/join${query}`).set(caller.headers);

  it('waits for the run and answers with it once it has ended, well before the time-out', async () => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    const started = Date.now();
    const res = await join(threadId, created.run_id, '?timeout=60');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ run_id: created.run_id, status: 'completed', error: null });
    expect(res.body.output.messages).toHaveLength(1);
    // Woken by the run's ending, not by the 60 s time-out.
    expect(Date.now() - started).toBeLessThan(60_000);
    // An ended run answers at once, also with the default time-out.
    const again = await join(threadId, created.run_id);
    expect(again.body).toEqual(res.body);
  });

  it('answers 200 with the run as it stands when the time-out comes first', async () => {
    t.engine.delayMs = 8_000;
    try {
      const threadId = await newThread(t.app, caller);
      const { body: created } = await createRun(t.app, caller, threadId);
      const started = Date.now();
      const res = await join(threadId, created.run_id, '?timeout=1');
      expect(res.status).toBe(200);
      expect(['pending', 'running']).toContain(res.body.status);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const now = await join(threadId, created.run_id, '?timeout=0');
      expect(['pending', 'running']).toContain(now.body.status);
      await request(t.app).post(`/v1/agent/threads/${threadId}/runs/${created.run_id}/cancel`).set(caller.headers);
    } finally {
      t.engine.delayMs = 1_500;
    }
  });

  it('wakes a waiting join when the run is cancelled', async () => {
    t.engine.delayMs = 8_000;
    try {
      const threadId = await newThread(t.app, caller);
      const { body: created } = await createRun(t.app, caller, threadId);
      const waiting = join(threadId, created.run_id, '?timeout=60').then((r) => r);
      await new Promise((r) => setTimeout(r, 300));
      await request(t.app).post(`/v1/agent/threads/${threadId}/runs/${created.run_id}/cancel`).set(caller.headers);
      const res = await waiting;
      expect(res.body).toMatchObject({ status: 'failed', error: { error: 'Cancelled' } });
    } finally {
      t.engine.delayMs = 1_500;
    }
  });

  it.each(['601', 'abc', '-1', '1e3', ''])('400 for timeout=%s', async (value) => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    const res = await join(threadId, created.run_id, `?timeout=${value}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'Bad Request', details: expect.stringMatching(/timeout/) });
  });

  it("404 naming an unknown run, a run of another thread, or another group's run", async () => {
    const threadId = await newThread(t.app, caller);
    const otherThread = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    const unknown = randomUUID();
    const res = await join(threadId, unknown);
    expect(res.status).toBe(404);
    expect(res.body.details).toBe(`Run ${unknown} not found`);
    expect((await join(otherThread, created.run_id)).status).toBe(404);
    expect((await join(threadId, 'nope')).status).toBe(404);
    const other = await newCaller();
    const foreign = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${created.run_id}/join?timeout=0`).set(other.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.body.details).toBe(`Thread ${threadId} not found`);
    for (const path of ['', '/stream']) {
      expect((await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${created.run_id}${path}`).set(other.headers)).status).toBe(404);
    }
    expect((await request(t.app).get(`/v1/agent/threads/${threadId}/runs`).set(other.headers)).status).toBe(404);
    expect((await request(t.app).post(`/v1/agent/threads/${threadId}/runs/${created.run_id}/cancel`).set(other.headers)).status).toBe(404);
  });
});
