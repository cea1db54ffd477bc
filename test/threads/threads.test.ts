import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

describe('threads', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('creates an active thread with 201', async () => {
    const res = await request(t.app).post('/v1/agent/threads').set(caller.headers).send({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      thread_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('accepts a LangGraph-style body with metadata and an empty body', async () => {
    const withMeta = await request(t.app)
      .post('/v1/agent/threads')
      .set(caller.headers)
      .send({ metadata: { ward: 'A' }, if_exists: 'raise' });
    expect(withMeta.status).toBe(201);
    expect(withMeta.body.metadata).toEqual({ ward: 'A' });
    const empty = await request(t.app).post('/v1/agent/threads').set(caller.headers);
    expect(empty.status).toBe(201);
  });

  it.each([['[]'], ['"text"'], ['42'], ['null']])('answers 400 for a body that is not a JSON object: %s', async (raw) => {
    const res = await request(t.app).post('/v1/agent/threads').set(caller.headers).set('content-type', 'application/json').send(raw);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('reads a thread with its (empty) messages', async () => {
    const created = await request(t.app).post('/v1/agent/threads').set(caller.headers).send({});
    const res = await request(t.app).get(`/v1/agent/threads/${created.body.thread_id}`).set(caller.headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ thread_id: created.body.thread_id, status: 'active', messages: [] });
  });

  it('hides a thread from another group and names unknown ids in the 404', async () => {
    const created = await request(t.app).post('/v1/agent/threads').set(caller.headers).send({});
    const other = await newCaller();
    const res = await request(t.app).get(`/v1/agent/threads/${created.body.thread_id}`).set(other.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not Found', details: `Thread ${created.body.thread_id} not found` });
  });
});
