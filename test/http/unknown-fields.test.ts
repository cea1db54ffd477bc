import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { newNote, soap } from '../notes/notes.builders.js';

// One key in both lists: it reaches the calls and the operator routes whichever list guards them.
const KEY = 'unknown-fields-test-key';

/**
 * Every create and update route refuses body fields it does not know with a 400 naming them, as
 * /v1/codify does: a misspelt field is never silently dropped. The LangGraph-compatible thread and
 * run bodies are the exception DESIGN.md names: their unused fields are accepted and ignored.
 */
describe('unknown body fields', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp({ env: { VOICE_API_KEYS: KEY, OPERATOR_API_KEYS: KEY } });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const expectRefused = (res: request.Response, fields: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringContaining(fields) });
  };

  it('POST /v1/transcriptions/create: a misspelt language_used is refused and nothing is stored', async () => {
    const res = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 60, original_transcript: '[doctor] hello', langauge_used: 'es' });
    expectRefused(res, 'unknown field: langauge_used');
    // SQL: "nothing is stored": no API lists a group's transcriptions (the refused one has no id to GET).
    const stored = await t.deps.pool.query('SELECT count(*)::int AS n FROM transcriptions WHERE group_id = $1', [caller.groupId]);
    expect(stored.rows[0].n).toBe(0);
  });

  it('POST and PATCH /v1/clinical-notes name every unknown field', async () => {
    const created = await request(t.app)
      .post('/v1/clinical-notes')
      .set(caller.headers)
      .send({ template: 'SOAP', ai_generated_content: soap(), colour: 'red', size: 2 });
    expectRefused(created, 'unknown fields: colour, size');
    const note = await newNote(t, caller);
    const patched = await request(t.app)
      .patch(`/v1/clinical-notes/${note.id}`)
      .set(caller.headers)
      .send({ feedback: 'ok', feedbak: 'typo' });
    expectRefused(patched, 'unknown field: feedbak');
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(read.body.version).toBe(1);
  });

  it('POST /api/v1/calls/external-questionnaire refuses a snake_case phone_number beside the right fields', async () => {
    const res = await request(t.app)
      .post('/api/v1/calls/external-questionnaire')
      .set('x-api-key', KEY)
      .send({ questionnaireId: 'phq-9', phoneNumber: '+14155552671', phone_number: '+14155552671' });
    expectRefused(res, 'unknown field: phone_number');
  });

  it('POST /api/v1/webhook-endpoints refuses a misspelt events', async () => {
    const res = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set('x-api-key', KEY)
      .send({ url: 'http://127.0.0.1:9/hook', evnets: ['note.ready'] });
    expectRefused(res, 'unknown field: evnets');
  });

  it('the LangGraph thread and run bodies still accept and ignore the fields Clinigate does not use', async () => {
    const thread = await request(t.app)
      .post('/v1/agent/threads')
      .set(caller.headers)
      .send({ metadata: { from: 'sdk' }, if_exists: 'raise' });
    expect(thread.status).toBe(201);
    const threadId = thread.body.thread_id;
    const run = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set(caller.headers)
      .send({
        assistant_id: 'agent',
        stream_mode: ['values'],
        metadata: {},
        input: { messages: [{ role: 'user', content: 'hello' }] },
        config: { configurable: { thread_id: threadId } },
      });
    expect(run.status).toBe(201);
  });
});
