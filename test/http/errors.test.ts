import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool, Queryable } from '../../src/db/pool.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

describe('error bodies on every path', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('answers an unknown path with 404 and the spec body', async () => {
    const res = await request(t.app).get('/no/such/path');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not Found', details: expect.stringContaining('/no/such/path') });
  });

  it('answers a wrong method on a known path with 404 and the spec body', async () => {
    const res = await request(t.app).delete('/v1/transcriptions/create').set(caller.headers);
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .set('content-type', 'application/json')
      .send('{"duration_seconds": 3,');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: 'Malformed JSON body' });
  });

  it('answers an oversize body with 413', async () => {
    const res = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 1, original_transcript: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, error: 'Payload Too Large', details: expect.any(String) });
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await request(t.app).post('/v1/transcriptions/create').set(caller.headers).set('content-type', 'text/plain').send('hello');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, error: 'Unsupported Media Type' });
  });

  it('echoes a request id and makes one when none is given', async () => {
    const given = await request(t.app).get('/api/v1/health').set('x-request-id', 'req-abc-123');
    expect(given.headers['x-request-id']).toBe('req-abc-123');
    const made = await request(t.app).get('/api/v1/health').set('x-request-id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('unexpected failures', () => {
  it('answer 500 with the spec body and no stack or SQL', async () => {
    const failing: Queryable = {
      query: async () => {
        const err = new Error('relation "transcriptions" does not exist: INSERT INTO transcriptions SELECT secret');
        Object.assign(err, { code: '42P01', severity: 'ERROR', routine: 'parserOpenTable' });
        throw err;
      },
    };
    const pool = { query: failing.query, connect: async () => ({ query: failing.query, release: () => {} }) } as unknown as Pool;
    const t = await startTestApp({ deps: { pool } });
    try {
      const caller = await newCaller();
      const res = await request(t.app)
        .post('/v1/transcriptions/create')
        .set(caller.headers)
        .send({ duration_seconds: 5, original_transcript: 'the patient has chest pain' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: 'Internal Server Error', details: 'An unexpected error occurred' });
      expect(res.text).not.toMatch(/INSERT|relation|at .*\.ts/);
    } finally {
      await t.close();
    }
  });
});
