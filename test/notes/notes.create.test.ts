import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { dap, ISO, newLinks, newRun, newThread, newTranscription, outboxEvents, postNote, soap } from './notes.builders.js';

describe('POST and GET /v1/clinical-notes', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('creates a note with 201, the spec fields, an ETag and a Location', async () => {
    const res = await postNote(t, caller);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: caller.userId,
      group_id: caller.groupId,
      transcription_id: null,
      template: 'SOAP',
      ai_generated_content: soap(),
      feedback: null,
      report_thread_id: null,
      report_run_id: [],
      version: 1,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      status: 'draft',
      signed_by: null,
      signed_at: null,
      signed_codes: null,
      amendment_reason: null,
      patient_id: null,
      visit_id: null,
    });
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers.location).toBe(`/v1/clinical-notes/${res.body.id}`);
    expect(await outboxEvents(t, res.body.id)).toEqual([
      {
        type: 'note.created',
        group_id: caller.groupId,
        data: { note_id: res.body.id, template: 'SOAP', version: 1, group_id: caller.groupId },
      },
    ]);
  });

  it('reads it back with the same body and ETag; a matching If-None-Match is 304', async () => {
    const created = await postNote(t, caller, { template: 'DAP', ai_generated_content: dap(), feedback: 'ok' });
    const res = await request(t.app).get(`/v1/clinical-notes/${created.body.id}`).set(caller.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.headers.etag).toBe('"1"');
    const cached = await request(t.app).get(`/v1/clinical-notes/${created.body.id}`).set(caller.headers).set('if-none-match', '"1"');
    expect(cached.status).toBe(304);
  });

  it("stores the optional links when they are the group's", async () => {
    const {
      transcriptionId,
      threadId,
      runIds: [runId],
    } = await newLinks(t, caller);
    const res = await postNote(t, caller, {
      transcription_id: transcriptionId,
      report_thread_id: threadId,
      report_run_id: [runId],
      feedback: 'good',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      transcription_id: transcriptionId,
      report_thread_id: threadId,
      report_run_id: [runId],
      feedback: 'good',
    });
  });

  it.each([
    ['no template', { template: undefined }, 'template is required'],
    ['no content', { ai_generated_content: undefined }, 'ai_generated_content is required'],
    ['unknown template', { template: 'XYZ' }, 'template'],
    ['content of another template', { template: 'BIRP' }, 'ai_generated_content'],
    ['content with a number', { ai_generated_content: soap({ plan: 5 as unknown as string }) }, 'ai_generated_content.plan'],
    ['content with an unknown key', { ai_generated_content: { ...soap(), extra: 'x' } }, 'extra'],
    ['content missing a section', { ai_generated_content: { subjective: 's' } }, 'ai_generated_content.objective is required'],
    ['content as an array', { ai_generated_content: ['a'] }, 'ai_generated_content'],
    ['report_run_id as a string', { report_run_id: 'r1' }, 'report_run_id'],
    ['report_run_id with a number', { report_run_id: [1] }, 'report_run_id'],
    ['feedback as a number', { feedback: 3 }, 'feedback'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['another user_id', { user_id: 'someone-else' }, 'user_id'],
    ['another group_id', { group_id: 'other-group' }, 'group_id'],
    ['an id', { id: '5b0f6a43-9a43-4b8e-9b8e-8d4a1f1c2e3d' }, 'id'],
  ])('answers 400 for %s', async (_name, body, detail) => {
    const res = await postNote(t, caller, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'Bad Request' });
    expect(res.body.details).toContain(detail);
  });

  it("accepts user_id and group_id equal to the token's", async () => {
    const res = await postNote(t, caller, { user_id: caller.userId, group_id: caller.groupId });
    expect(res.status).toBe(201);
  });

  it.each([
    ['a transcription of another group', 'transcription_id'],
    ['a thread of another group', 'report_thread_id'],
  ])('answers 400 for %s', async (_name, field) => {
    const other = await newCaller();
    const id = field === 'transcription_id' ? await newTranscription(t, other) : await newThread(t, other);
    const res = await postNote(t, caller, { [field]: id });
    expect(res.status).toBe(400);
    expect(res.body.details).toContain(id);
  });

  it('answers 400 for runs that are not runs of the thread, or runs without a thread', async () => {
    const threadId = await newThread(t, caller);
    const otherThread = await newThread(t, caller);
    const foreignRun = await newRun(t, caller, otherThread);
    const wrong = await postNote(t, caller, { report_thread_id: threadId, report_run_id: [foreignRun] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toContain(foreignRun);
    const noThread = await postNote(t, caller, { report_run_id: [foreignRun] });
    expect(noThread.status).toBe(400);
    expect(noThread.body.details).toContain('report_thread_id');
    const notUuid = await postNote(t, caller, { report_thread_id: threadId, report_run_id: ['run-1'] });
    expect(notUuid.status).toBe(400);
  });

  it('answers 400 for a body that is not an object and for malformed JSON', async () => {
    const arr = await request(t.app).post('/v1/clinical-notes').set(caller.headers).set('content-type', 'application/json').send('[]');
    expect(arr.status).toBe(400);
    const bad = await request(t.app)
      .post('/v1/clinical-notes')
      .set(caller.headers)
      .set('content-type', 'application/json')
      .send('{"template":');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });

  it('needs a token (401) and x-doctor (400)', async () => {
    const noToken = await request(t.app).post('/v1/clinical-notes').send({ template: 'SOAP', ai_generated_content: soap() });
    expect(noToken.status).toBe(401);
    const noDoctor = await request(t.app)
      .post('/v1/clinical-notes')
      .set('authorization', caller.headers.authorization)
      .send({ template: 'SOAP', ai_generated_content: soap() });
    expect(noDoctor.status).toBe(400);
    expect(noDoctor.body.details).toContain('x-doctor');
  });

  it('answers 404 naming the id for unknown and malformed ids', async () => {
    for (const id of ['7a1b6f5e-1111-4c2d-8e9f-000000000000', 'not-a-uuid']) {
      const res = await request(t.app).get(`/v1/clinical-notes/${id}`).set(caller.headers);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'Not Found', details: `Clinical note ${id} not found` });
    }
  });
});
