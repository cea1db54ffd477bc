import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { dap, ISO, newNote, patchNote, soap } from './notes.builders.js';

describe('GET /v1/clinical-notes/{id}/versions', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('lists every version oldest first with who, when, which fields and the snapshot', async () => {
    const note = await newNote(t, caller);
    const v2 = await patchNote(t, caller, note.id, { feedback: 'too short' });
    const colleague = await newCaller(caller.groupId);
    const v3 = await patchNote(t, colleague, note.id, { template: 'DAP', ai_generated_content: dap(), feedback: 'too short' });
    const res = await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"3"');
    expect(res.body).toEqual({
      note_id: note.id,
      current_version: 3,
      versions: [
        {
          version: 1,
          changed_fields: ['template', 'ai_generated_content'],
          user_id: caller.userId,
          doctor_id: caller.doctor,
          created_at: note.created_at,
          snapshot: note,
        },
        {
          version: 2,
          changed_fields: ['feedback'],
          user_id: caller.userId,
          doctor_id: caller.doctor,
          created_at: v2.body.updated_at,
          snapshot: v2.body,
        },
        {
          version: 3,
          changed_fields: ['template', 'ai_generated_content'],
          user_id: colleague.userId,
          doctor_id: colleague.doctor,
          created_at: v3.body.updated_at,
          snapshot: v3.body,
        },
      ],
    });
    for (const v of res.body.versions) expect(v.created_at).toMatch(ISO);
    expect(res.body.versions[0].snapshot.ai_generated_content).toEqual(soap());
  });

  it('versions are immutable history: later changes do not alter earlier snapshots', async () => {
    const note = await newNote(t, caller, { feedback: 'v1' });
    await patchNote(t, caller, note.id, { feedback: 'v2' });
    await patchNote(t, caller, note.id, { ai_generated_content: soap({ plan: 'changed' }) });
    const res = await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers);
    expect(
      res.body.versions.map((v: { snapshot: { feedback: string; ai_generated_content: { plan: string } } }) => [
        v.snapshot.feedback,
        v.snapshot.ai_generated_content.plan,
      ]),
    ).toEqual([
      ['v1', soap().plan],
      ['v2', soap().plan],
      ['v2', 'changed'],
    ]);
  });

  it('answers 404 naming the id for unknown notes', async () => {
    const res = await request(t.app).get('/v1/clinical-notes/zzz/versions').set(caller.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Not Found', details: 'Clinical note zzz not found' });
  });
});
