import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIsolatedTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { createRun, newThread } from './runs.builders.js';

describe('fair share limits: RUN_RATE_LIMIT and ENGINE_QUEUE_PER_GROUP', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No workers: codifications wait (and end 504 at the short deadline), so the queue fills.
    t = await startIsolatedTestApp({ env: { RUN_RATE_LIMIT: '3', ENGINE_QUEUE_PER_GROUP: '2', CODIFY_TIMEOUT_MS: '4000' } });
  });
  afterAll(() => t?.close());

  it('answers 429 with Retry-After past RUN_RATE_LIMIT run creations per user of a group', async () => {
    const caller = await newCaller();
    const threadId = await newThread(t.app, caller);
    for (let i = 0; i < 3; i++) expect((await createRun(t.app, caller, threadId)).status).toBe(201);
    const refused = await createRun(t.app, caller, threadId);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ success: false, error: 'Too Many Requests', details: expect.stringMatching(/3 run creations/) });
    // Another user of the same group, and another group, have their own counts.
    const colleague = await newCaller(caller.groupId);
    expect((await createRun(t.app, colleague, await newThread(t.app, colleague))).status).toBe(201);
  });

  it('answers codify 503 with Retry-After when ENGINE_QUEUE_PER_GROUP engine calls of the group already wait; other groups are not refused', async () => {
    const caller = await newCaller();
    const body = { medical_note: 'Assessment: essential hypertension.' };
    const waiting = [0, 1].map(() => request(t.app).post('/v1/codify').set(caller.headers).send(body));
    const pending = waiting.map((w) => w.then((r) => r.status));
    // Both are queued once their rows are visible to a third request.
    await new Promise((r) => setTimeout(r, 1_000));
    const refused = await request(t.app).post('/v1/codify').set(caller.headers).send(body);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toMatchObject({
      success: false,
      error: 'Service Unavailable',
      details: expect.stringMatching(/2 engine calls of this group are waiting/),
    });
    const other = await newCaller();
    const otherStatus = await request(t.app).post('/v1/codify').set(other.headers).send(body);
    expect(otherStatus.status).toBe(504);
    expect(await Promise.all(pending)).toEqual([504, 504]);
  }, 30_000);
});
