import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { dap, newLinks, newNote, newRun, newThread, outboxEvents, patchNote, soap } from './notes.builders.js';

describe('PATCH /v1/clinical-notes/{id}', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('changes only the fields sent and answers 200 with the note and the new ETag', async () => {
    const note = await newNote(t, caller, { feedback: 'first' });
    const res = await patchNote(t, caller, note.id, { feedback: 'second' });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.body).toEqual({ ...note, feedback: 'second', version: 2, updated_at: expect.any(String) });
    expect(res.body.updated_at >= note.updated_at).toBe(true);
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(read.body).toEqual(res.body);
    expect(await outboxEvents(t, note.id)).toEqual([
      expect.objectContaining({ type: 'note.created' }),
      {
        type: 'note.updated',
        group_id: caller.groupId,
        data: { note_id: note.id, template: 'SOAP', version: 2, group_id: caller.groupId, changed_fields: ['feedback'] },
      },
    ]);
  });

  it('replaces ai_generated_content of the same template and clears feedback with null', async () => {
    const note = await newNote(t, caller, { feedback: 'x' });
    const res = await patchNote(t, caller, note.id, { ai_generated_content: soap({ plan: 'Admit.' }), feedback: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ai_generated_content: soap({ plan: 'Admit.' }), feedback: null, version: 2 });
  });

  it('merges partial content of the same template: sections not sent keep their text', async () => {
    const note = await newNote(t, caller);
    const res = await patchNote(t, caller, note.id, { ai_generated_content: { plan: 'Admit for observation.' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ template: 'SOAP', ai_generated_content: soap({ plan: 'Admit for observation.' }), version: 2 });
    // The template named but unchanged merges alike; the version keeps the whole content.
    const again = await patchNote(t, caller, note.id, { template: 'SOAP', ai_generated_content: { subjective: 'Better today.' } });
    expect(again.status).toBe(200);
    expect(again.body.ai_generated_content).toEqual(soap({ plan: 'Admit for observation.', subjective: 'Better today.' }));
    const versions = await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers);
    expect(JSON.stringify(versions.body)).toContain('Better today.');
    expect(await outboxEvents(t, note.id)).toContainEqual(
      expect.objectContaining({
        type: 'note.updated',
        data: expect.objectContaining({ version: 2, changed_fields: ['ai_generated_content'] }),
      }),
    );
    // A partial section of the wrong type or an unknown section is still refused.
    expect((await patchNote(t, caller, note.id, { ai_generated_content: { plan: 1 } })).status).toBe(400);
    expect((await patchNote(t, caller, note.id, { ai_generated_content: { notes: 'n' } })).status).toBe(400);
  });

  it('changes template only with content of the new shape', async () => {
    const note = await newNote(t, caller);
    const noContent = await patchNote(t, caller, note.id, { template: 'DAP' });
    expect(noContent.status).toBe(400);
    expect(noContent.body.details).toContain('DAP');
    const oldShape = await patchNote(t, caller, note.id, { template: 'DAP', ai_generated_content: soap() });
    expect(oldShape.status).toBe(400);
    expect(oldShape.body.details).toContain('ai_generated_content');
    const ok = await patchNote(t, caller, note.id, { template: 'DAP', ai_generated_content: dap() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ template: 'DAP', ai_generated_content: dap(), version: 2 });
    // Content alone is checked against the current template (now DAP).
    const soapAgain = await patchNote(t, caller, note.id, { ai_generated_content: soap() });
    expect(soapAgain.status).toBe(400);
    const unchanged = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(unchanged.body.version).toBe(2);
  });

  it.each([
    ['an empty body', {}],
    ['only read-only fields', { id: 'x', version: 9 }],
    ['an unknown template', { template: 'NOTES' }],
    ['template as a number', { template: 1 }],
    ['content as a string', { ai_generated_content: 'text' }],
    ['content with a non-string section', { ai_generated_content: soap({ plan: ['a'] as unknown as string }) }],
    ['content with an unknown key', { ai_generated_content: { ...soap(), notes: 'n' } }],
    // Sections not sent keep their text only while the template stays: a new template needs them all.
    ['content missing a section', { template: 'DAP', ai_generated_content: { data: 'd', assessment: 'a' } }],
    ['report_run_id as a string', { report_run_id: 'abc' }],
    ['report_run_id with non-strings', { report_run_id: [1, 2] }],
    ['report_run_id as an object', { report_run_id: { a: 1 } }],
    ['feedback as an object', { feedback: { text: 'x' } }],
    ['an unknown field', { status: 'final' }],
    ['null template', { template: null }],
  ])('answers 400 for %s and keeps the note', async (_name, body) => {
    const note = await newNote(t, caller);
    const res = await patchNote(t, caller, note.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'Bad Request', details: expect.any(String) });
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(read.body).toEqual(note);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const note = await newNote(t, caller);
    const res = await request(t.app)
      .patch(`/v1/clinical-notes/${note.id}`)
      .set(caller.headers)
      .set('content-type', 'application/json')
      .send('["feedback"]');
    expect(res.status).toBe(400);
    const none = await request(t.app).patch(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(none.status).toBe(400);
  });

  it('never lets the body change ownership; echoed equal values are ignored', async () => {
    const note = await newNote(t, caller);
    for (const body of [
      { user_id: 'intruder', feedback: 'a' },
      { group_id: 'other-group', feedback: 'a' },
      { id: '0c3ad3c1-0000-4000-8000-000000000000', feedback: 'a' },
    ]) {
      const res = await patchNote(t, caller, note.id, body);
      expect(res.status).toBe(400);
    }
    const echoed = await patchNote(t, caller, note.id, { ...note, feedback: 'round trip' });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ user_id: caller.userId, group_id: caller.groupId, feedback: 'round trip', version: 2 });
  });

  it('keeps the creator as user_id when another user of the group edits; the version records the editor', async () => {
    const note = await newNote(t, caller);
    const colleague = await newCaller(caller.groupId);
    const res = await patchNote(t, colleague, note.id, { feedback: 'reviewed' });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(caller.userId);
    const versions = await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers);
    expect(versions.body.versions[1]).toMatchObject({ version: 2, user_id: colleague.userId, doctor_id: colleague.doctor });
  });

  it('answers 404 naming the id for an unknown note and a malformed id', async () => {
    for (const id of ['2d7b1c1e-5f7a-4a55-9a3b-111111111111', 'note-1']) {
      const res = await patchNote(t, caller, id, { feedback: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'Not Found', details: `Clinical note ${id} not found` });
    }
  });

  it('links a transcription, a thread and its runs of the same group', async () => {
    const note = await newNote(t, caller);
    const {
      transcriptionId,
      threadId,
      runIds: [run1, run2],
    } = await newLinks(t, caller, 2);
    const res = await patchNote(t, caller, note.id, {
      transcription_id: transcriptionId,
      report_thread_id: threadId,
      report_run_id: [run1, run2],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transcription_id: transcriptionId, report_thread_id: threadId, report_run_id: [run1, run2] });
    // Runs alone are checked against the stored thread.
    const otherThread = await newThread(t, caller);
    const foreignRun = await newRun(t, caller, otherThread);
    const wrongRun = await patchNote(t, caller, note.id, { report_run_id: [run1, foreignRun] });
    expect(wrongRun.status).toBe(400);
    expect(wrongRun.body.details).toContain(foreignRun);
    // Moving to another thread while keeping the old thread's runs is refused.
    const moveOnly = await patchNote(t, caller, note.id, { report_thread_id: otherThread });
    expect(moveOnly.status).toBe(400);
    const move = await patchNote(t, caller, note.id, { report_thread_id: otherThread, report_run_id: [foreignRun] });
    expect(move.status).toBe(200);
    expect(move.body).toMatchObject({ report_thread_id: otherThread, report_run_id: [foreignRun] });
    const unlink = await patchNote(t, caller, note.id, { transcription_id: null, report_thread_id: null, report_run_id: [] });
    expect(unlink.status).toBe(200);
    expect(unlink.body).toMatchObject({ transcription_id: null, report_thread_id: null, report_run_id: [] });
  });

  it("refuses links to another group's transcription, thread or runs, and ids that are not UUIDs", async () => {
    const note = await newNote(t, caller);
    const other = await newCaller();
    const {
      transcriptionId: theirTranscription,
      threadId: theirThread,
      runIds: [theirRun],
    } = await newLinks(t, other);
    const ownThread = await newThread(t, caller);
    const cases = [
      { transcription_id: theirTranscription },
      { transcription_id: 'tr-1' },
      { report_thread_id: theirThread },
      { report_thread_id: 'thread-1' },
      { report_thread_id: ownThread, report_run_id: [theirRun] },
      { report_run_id: [theirRun] },
    ];
    for (const body of cases) {
      const res = await patchNote(t, caller, note.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(read.body.version).toBe(1);
  });

  it('a PATCH that changes nothing keeps the version and writes no event', async () => {
    const note = await newNote(t, caller, { feedback: 'same' });
    const res = await patchNote(t, caller, note.id, { feedback: 'same', template: 'SOAP' });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.headers.etag).toBe('"1"');
    expect((await outboxEvents(t, note.id)).map((e) => e.type)).toEqual(['note.created']);
  });
});
