import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/modules/runs/execute-run.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { createRun, newThread, runBody, VISIT } from '../runs/runs.builders.js';
import { newNote, patchNote } from './notes.builders.js';
import { pipelineNote, signNote } from './signoff.builders.js';

const EXTRACT = { 'x-is-chat': 'false' };

describe('the engine never rewrites a signed note', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp(); // no workers: this test runs the run's job itself, after signing
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('an extraction run naming a signed (or amended) note is refused with 409', async () => {
    const note = await newNote(t, caller);
    expect((await signNote(t, caller, note.id, {}, { 'if-match': '"1"' })).status).toBe(200);
    const threadId = await newThread(t.app, caller);
    const res = await createRun(t.app, caller, threadId, runBody(threadId, VISIT, { note_id: note.id }), EXTRACT);
    expect(res.status).toBe(409);
    expect(res.body.details).toMatch(/never rewrites a signed note/);
    await patchNote(t, caller, note.id, { feedback: 'x', amendment_reason: 'add feedback' });
    expect((await createRun(t.app, caller, threadId, runBody(threadId, VISIT, { note_id: note.id }), EXTRACT)).status).toBe(409);
  });

  it('a run accepted on a draft that is signed before the run ends fails with Conflict and leaves the note as signed', async () => {
    const note = await newNote(t, caller);
    const threadId = await newThread(t.app, caller);
    const run = await createRun(t.app, caller, threadId, runBody(threadId, VISIT, { note_id: note.id }), EXTRACT);
    expect(run.status).toBe(201);
    const signed = await signNote(t, caller, note.id, {}, { 'if-match': '"1"' });
    expect(signed.status).toBe(200);

    expect(await executeRun(t.deps, run.body.run_id)).toBe('failed');
    const ended = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${run.body.run_id}`).set(caller.headers);
    expect(ended.body).toMatchObject({ status: 'failed', error: { error: 'Conflict', details: expect.stringMatching(/is signed/) } });
    const after = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(after.body).toEqual(signed.body);
  });
});

describe('signing a note the engine wrote through the EHR pipeline', () => {
  let t: TestApp;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('without codes signs the final codes of the note pipeline codification', async () => {
    const { noteId, caller, codes } = await pipelineNote(t);
    expect(codes.length).toBeGreaterThan(0);
    const read = await request(t.app).get(`/v1/clinical-notes/${noteId}`).set(caller.headers);
    expect(read.body.status).toBe('draft');
    const res = await signNote(t, caller, noteId, undefined, { 'if-match': read.headers.etag });
    expect(res.status).toBe(200);
    expect(res.body.signed_codes).toEqual(codes);
    expect(res.body.signed_by).toBe(caller.userId);
  });
});
