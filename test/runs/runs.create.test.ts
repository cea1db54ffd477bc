import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_QUEUE } from '../../src/modules/runs/run-execute.job.js';
import { tokenFor, newCaller, type Caller } from '../helpers/tokens.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';
import { createRun, newThread, runBody, VISIT } from './runs.builders.js';

// No workers: runs stay pending, so the queue and `reject` can be observed deterministically.
describe('POST /v1/agent/threads/{threadId}/runs', () => {
  let t: RunsTestApp;
  let caller: Caller;
  let threadId: string;
  beforeAll(async () => {
    t = await startRunsTestApp();
    caller = await newCaller();
    threadId = await newThread(t.app, caller);
  });
  afterAll(() => t.close());

  it('stores the run pending and its job, keyed by the thread, in the same commit', async () => {
    const res = await createRun(t.app, caller, threadId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ thread_id: threadId, status: 'pending', kind: 'chat' });
    // SQL: the job row is pg-boss's; this test exists to show it commits with the run.
    const { rows } = await t.deps.pool.query(`SELECT name, state, singleton_key, policy FROM ${t.schema}.job WHERE data->>'run_id' = $1`, [
      res.body.run_id,
    ]);
    expect(rows).toEqual([{ name: RUN_QUEUE, state: 'created', singleton_key: threadId, policy: 'key_strict_fifo' }]);
  });

  it('accepts and ignores the LangGraph fields it does not use', async () => {
    const body = {
      ...runBody(threadId),
      assistant_id: 'agent',
      metadata: { source: 'sdk' },
      stream_mode: ['values'],
      multitask_strategy: 'enqueue',
      if_not_exists: 'reject',
      config: { configurable: { thread_id: threadId }, tags: ['x'], recursion_limit: 5 },
    };
    const res = await createRun(t.app, caller, threadId, body);
    expect(res.status).toBe(201);
  });

  it.each([
    ['missing input', (id: string) => ({ config: { configurable: { thread_id: id } } }), /input is required/],
    ['empty messages', (id: string) => ({ input: { messages: [] }, config: { configurable: { thread_id: id } } }), /input\.messages/],
    [
      'bad role',
      (id: string) => ({ input: { messages: [{ role: 'tool', content: 'x' }] }, config: { configurable: { thread_id: id } } }),
      /input\.messages\.0\.role/,
    ],
    [
      'content not a string',
      (id: string) => ({ input: { messages: [{ role: 'user', content: 3 }] }, config: { configurable: { thread_id: id } } }),
      /input\.messages\.0\.content/,
    ],
    ['missing config', () => ({ input: { messages: [{ role: 'user', content: 'hi' }] } }), /config is required/],
    [
      'missing configurable',
      () => ({ input: { messages: [{ role: 'user', content: 'hi' }] }, config: {} }),
      /config\.configurable is required/,
    ],
    [
      'missing thread_id',
      () => ({ input: { messages: [{ role: 'user', content: 'hi' }] }, config: { configurable: {} } }),
      /config\.configurable\.thread_id is required/,
    ],
    ['thread_id of another thread', () => runBody(randomUUID()), /thread_id must equal/],
    ['unknown template', (id: string) => runBody(id, VISIT, { template: 'XYZ' }), /config\.configurable\.template/],
  ])('400 for %s, naming the field', async (_name, build, details) => {
    const res = await createRun(t.app, caller, threadId, build(threadId));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(details) });
  });

  it('400 for a body that is not a JSON object or not JSON', async () => {
    const arr = await request(t.app).post(`/v1/agent/threads/${threadId}/runs`).set(caller.headers).send([1]);
    expect(arr.status).toBe(400);
    const bad = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set(caller.headers)
      .set('content-type', 'application/json')
      .send('{"input":');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });

  it('parses x-is-chat as a boolean: true/false, default true, anything else 400', async () => {
    expect((await createRun(t.app, caller, threadId, runBody(threadId), { 'x-is-chat': 'true' })).body.kind).toBe('chat');
    expect((await createRun(t.app, caller, threadId, runBody(threadId, VISIT), { 'x-is-chat': 'false' })).body.kind).toBe('extraction');
    for (const value of ['yes', '1', 'maybe']) {
      const res = await createRun(t.app, caller, threadId, runBody(threadId), { 'x-is-chat': value });
      expect(res.status, value).toBe(400);
      expect(res.body.details).toMatch(/x-is-chat/);
    }
  });

  it('400 for an extraction with no transcript text', async () => {
    const res = await createRun(t.app, caller, threadId, runBody(threadId, '   '), { 'x-is-chat': 'false' });
    expect(res.status).toBe(400);
  });

  it('404 naming an unknown, malformed or foreign thread', async () => {
    const unknown = randomUUID();
    const res = await createRun(t.app, caller, unknown, runBody(unknown));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not Found', details: `Thread ${unknown} not found` });
    const malformed = await createRun(t.app, caller, 'not-a-uuid', runBody('not-a-uuid'));
    expect(malformed.status).toBe(404);
    const other = await newCaller();
    const foreign = await createRun(t.app, other, threadId, runBody(threadId));
    expect(foreign.status).toBe(404);
    expect(foreign.body.details).toBe(`Thread ${threadId} not found`);
  });

  it("404 naming a transcription or note that is not the group's", async () => {
    const other = await newCaller();
    const tr = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(other.headers)
      .send({ duration_seconds: 5, original_transcript: VISIT });
    const id = tr.body.transcription.id;
    const res = await createRun(t.app, caller, threadId, runBody(threadId, 'x', { transcription_id: id }), { 'x-is-chat': 'false' });
    expect(res.status).toBe(404);
    expect(res.body.details).toBe(`Transcription ${id} not found`);
    const note = randomUUID();
    const res2 = await createRun(t.app, caller, threadId, runBody(threadId, VISIT, { note_id: note }), { 'x-is-chat': 'false' });
    expect(res2.status).toBe(404);
    expect(res2.body.details).toBe(`Clinical note ${note} not found`);
  });

  it('401 without or with a bad token (before the x-doctor check), 400 without x-doctor', async () => {
    const none = await request(t.app).post(`/v1/agent/threads/${threadId}/runs`).send(runBody(threadId));
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, error: 'Unauthorized' });
    const forged = await tokenFor({ group_id: caller.groupId }, 'another-secret-that-is-long-enough-1234');
    const bad = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set({ authorization: `Bearer ${forged}`, 'x-doctor': 'dr' })
      .send(runBody(threadId));
    expect(bad.status).toBe(401);
    const noDoctor = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set({ authorization: caller.headers.authorization })
      .send(runBody(threadId));
    expect(noDoctor.status).toBe(400);
    expect(noDoctor.body.details).toMatch(/x-doctor/);
  });

  it('multitask_strategy reject: 409 while the thread has a pending run, accepted once it ended', async () => {
    const thread = await newThread(t.app, caller);
    const first = await createRun(t.app, caller, thread);
    expect(first.status).toBe(201);
    const rejected = await createRun(t.app, caller, thread, runBody(thread, 'again', { multitask_strategy: 'reject' }));
    expect(rejected.status).toBe(409);
    expect(rejected.body).toMatchObject({ success: false, error: 'Conflict' });
    // LangGraph's own top-level field means the same.
    const sdkStyle = await createRun(t.app, caller, thread, { ...runBody(thread), multitask_strategy: 'reject' });
    expect(sdkStyle.status).toBe(409);
    // Without reject the run queues behind the busy one.
    expect((await createRun(t.app, caller, thread)).status).toBe(201);

    const runs = await request(t.app).get(`/v1/agent/threads/${thread}/runs`).set(caller.headers);
    for (const run of runs.body) {
      expect((await request(t.app).post(`/v1/agent/threads/${thread}/runs/${run.run_id}/cancel`).set(caller.headers)).status).toBe(200);
    }
    const accepted = await createRun(t.app, caller, thread, runBody(thread, 'now', { multitask_strategy: 'reject' }));
    expect(accepted.status).toBe(201);
  });
});
