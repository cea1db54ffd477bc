import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('transcriptions', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const create = (body: unknown, c = caller) =>
    request(t.app)
      .post('/v1/transcriptions/create')
      .set(c.headers)
      .send(body as object);

  it('creates a transcription with 201 {message, transcription}', async () => {
    const res = await create({ duration_seconds: 312.5, original_transcript: '[doctor] hello\n[patient] hi', language_used: 'es' });
    expect(res.status).toBe(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.transcription).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: caller.userId,
      group_id: caller.groupId,
      duration_seconds: 312.5,
      language_used: 'es',
      original_transcript: '[doctor] hello\n[patient] hi',
      patient_id: null,
      visit_id: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
  });

  it('defaults language_used to en and reads the transcription back', async () => {
    const created = await create({ duration_seconds: 0, original_transcript: 'short visit' });
    expect(created.body.transcription.language_used).toBe('en');
    const read = await request(t.app).get(`/v1/transcriptions/${created.body.transcription.id}`).set(caller.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body.transcription);
  });

  it.each([
    [{ original_transcript: 'text' }, /duration_seconds is required/],
    [{ duration_seconds: 10 }, /original_transcript is required/],
    [{}, /duration_seconds is required.*original_transcript is required/],
    [{ duration_seconds: -1, original_transcript: 'text' }, /duration_seconds/],
    [{ duration_seconds: '10', original_transcript: 'text' }, /duration_seconds/],
    [{ duration_seconds: 10, original_transcript: '   ' }, /original_transcript/],
    [{ duration_seconds: 10, original_transcript: 42 }, /original_transcript/],
    [{ duration_seconds: 10, original_transcript: 'x', language_used: 'not a language!' }, /language_used/],
    [[1, 2], /JSON object/],
  ])('answers 400 naming the wrong field for %j', async (body, details) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(details) });
  });

  it('hides a transcription from another group (404 naming the id)', async () => {
    const created = await create({ duration_seconds: 1, original_transcript: 'private words' });
    const other = await newCaller();
    const res = await request(t.app).get(`/v1/transcriptions/${created.body.transcription.id}`).set(other.headers);
    expect(res.status).toBe(404);
    expect(res.body.details).toContain(created.body.transcription.id);
  });

  it('answers 404 for an id that is not a UUID', async () => {
    const res = await request(t.app).get('/v1/transcriptions/not-a-uuid').set(caller.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not Found', details: 'Transcription not-a-uuid not found' });
  });

  it('records transcription.created in the outbox without the transcript text', async () => {
    const marker = `MARKER-${Date.now()}`;
    const res = await create({ duration_seconds: 3, original_transcript: `patient says ${marker}` });
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const { rows } = await t.deps.pool.query(`SELECT type, group_id, data FROM outbox WHERE data->>'transcription_id' = $1`, [
      res.body.transcription.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'transcription.created', group_id: caller.groupId });
    expect(JSON.stringify(rows[0].data)).not.toContain(marker);
  });
});
