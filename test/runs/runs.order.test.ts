import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowEngine } from '../helpers/slow-engine.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import type { RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody } from './runs.builders.js';
import { startSlowApp } from './slow-app.js';

describe('runs of one thread', () => {
  let t: RunsTestApp & { engine: SlowEngine };
  let caller: Caller;
  beforeAll(async () => {
    t = await startSlowApp(300);
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('execute one at a time in creation order, while another thread runs alongside', async () => {
    const threadId = await newThread(t.app, caller);
    const otherThread = await newThread(t.app, caller);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createRun(t.app, caller, threadId, runBody(threadId, `question ${i}`))).body.run_id);
    const other = (await createRun(t.app, caller, otherThread, runBody(otherThread, 'elsewhere'))).body.run_id;

    const runs = [];
    for (const id of ids) runs.push(await joinRun(t.app, caller, threadId, id, 30));
    expect(runs.map((r) => r.status)).toEqual(Array(5).fill('completed'));
    for (let i = 1; i < runs.length; i++) {
      // Each run starts only after the one before it ended.
      expect(Date.parse(runs[i].started_at)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1].ended_at));
    }
    const otherRun = await joinRun(t.app, caller, otherThread, other, 30);
    // The other thread did not wait for this one's queue to drain.
    expect(Date.parse(otherRun.started_at)).toBeLessThan(Date.parse(runs[4].started_at));

    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    const turns = thread.body.messages.map((m: { role: string; content: string }) => (m.role === 'user' ? m.content : 'reply'));
    expect(turns).toEqual(ids.flatMap((_, i) => [`question ${i}`, 'reply']));
    const list = await request(t.app).get(`/v1/agent/threads/${threadId}/runs?limit=100`).set(caller.headers);
    expect(list.body.map((r: { run_id: string }) => r.run_id)).toEqual([...ids].reverse());
  }, 30_000);

  it('status only moves forward: the guard refuses to reopen an ended run', async () => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    await joinRun(t.app, caller, threadId, created.run_id);
    const { markRunning, endRun } = await import('../../src/modules/runs/runs.repo.js');
    expect(await markRunning(t.deps.pool, created.run_id)).toBeUndefined();
    expect(await endRun(t.deps.pool, created.run_id, { status: 'failed', error: { error: 'x', details: 'y' } })).toBeUndefined();
    const after = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${created.run_id}`).set(caller.headers);
    expect(after.body.status).toBe('completed');
  });
});
