import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditEvents, type AuditEvent } from '../helpers/api-reads.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { newNote, patchNote } from './notes.builders.js';

describe('clinical notes belong to the group that created them', () => {
  let t: TestApp;
  let owner: Caller;
  let stranger: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await newCaller();
    stranger = await newCaller();
  });
  afterAll(() => t.close());

  it('another group gets 404 on GET, PATCH, versions and fhir, and changes nothing', async () => {
    const note = await newNote(t, owner);
    const notFound = { success: false, error: 'Not Found', details: `Clinical note ${note.id} not found` };
    for (const path of ['', '/versions', '/fhir']) {
      const res = await request(t.app).get(`/v1/clinical-notes/${note.id}${path}`).set(stranger.headers);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    const patch = await patchNote(t, stranger, note.id, { feedback: 'hijack' });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual(notFound);
    const withIfMatch = await patchNote(t, stranger, note.id, { feedback: 'hijack' }, { 'if-match': '*' });
    expect(withIfMatch.status).toBe(404);
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(owner.headers);
    expect(read.body).toEqual(note);
  });

  it('a user of the same group sees and edits the note', async () => {
    const note = await newNote(t, owner);
    const colleague = await newCaller(owner.groupId);
    expect((await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(colleague.headers)).status).toBe(200);
    expect((await patchNote(t, colleague, note.id, { feedback: 'ok' })).status).toBe(200);
  });

  it('the audit log records the note id and outcome, without note text', async () => {
    const note = await newNote(t, owner, { feedback: 'secret-feedback-text' });
    await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(stranger.headers);
    // The audit row is written when the answer finishes; give it a moment.
    let rows: AuditEvent[] = [];
    for (let i = 0; i < 50 && rows.length < 2; i++) {
      rows = await readAuditEvents(t.app, { resource_id: note.id });
      if (rows.length < 2) await new Promise((r) => setTimeout(r, 20));
    }
    expect(rows.map((r) => [r.operation, r.status, r.group_id])).toEqual([
      ['POST /v1/clinical-notes', 201, owner.groupId],
      ['GET /v1/clinical-notes/:id', 404, stranger.groupId],
    ]);
    expect(JSON.stringify(rows)).not.toContain('secret-feedback-text');
  });
});
