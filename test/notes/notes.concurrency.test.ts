import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { newNote, outboxEvents, patchNote } from './notes.builders.js';

describe('clinical note concurrency: ETag, If-Match and the row lock', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('keeps every one of 20 simultaneous PATCHes as its own version', async () => {
    const note = await newNote(t, caller);
    const n = 20;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => patchNote(t, caller, note.id, { feedback: `edit ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(n).fill(200));
    // Each answer saw a distinct version: the writers were serialised, none overwrote another unseen.
    expect(results.map((r) => r.body.version).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 2));

    const versions = (await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers)).body.versions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: n + 1 }, (_, i) => i + 1));
    const feedbacks = versions
      .slice(1)
      .map((v: { snapshot: { feedback: string } }) => v.snapshot.feedback)
      .sort();
    expect(feedbacks).toEqual(Array.from({ length: n }, (_, i) => `edit ${i}`).sort());
    // Each answer is exactly the snapshot of its version.
    for (const r of results) expect(versions[r.body.version - 1].snapshot).toEqual(r.body);
    const times = versions.map((v: { created_at: string }) => v.created_at);
    expect([...times].sort()).toEqual(times);

    const final = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(final.body.version).toBe(n + 1);
    expect(final.headers.etag).toBe(`"${n + 1}"`);
    expect(final.body).toEqual(versions[n].snapshot);
    const events = await outboxEvents(t, note.id);
    expect(
      events
        .filter((e) => e.type === 'note.updated')
        .map((e) => e.data.version)
        .sort((a, b) => Number(a) - Number(b)),
    ).toEqual(Array.from({ length: n }, (_, i) => i + 2));
  });

  it('honours If-Match: the current ETag wins, a stale one is 412 with the spec body', async () => {
    const note = await newNote(t, caller);
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    const etag = read.headers.etag;
    const first = await patchNote(t, caller, note.id, { feedback: 'mine' }, { 'if-match': etag });
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe('"2"');
    const stale = await patchNote(t, caller, note.id, { feedback: 'theirs' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ success: false, error: 'Precondition Failed', details: expect.stringContaining(note.id) });
    const after = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(after.body).toMatchObject({ feedback: 'mine', version: 2 });
  });

  it('accepts *, a list containing the current tag, and the FHIR-style weak form; refuses garbage', async () => {
    const note = await newNote(t, caller);
    expect((await patchNote(t, caller, note.id, { feedback: 'a' }, { 'if-match': '*' })).status).toBe(200);
    expect((await patchNote(t, caller, note.id, { feedback: 'b' }, { 'if-match': '"1", "2"' })).status).toBe(200);
    expect((await patchNote(t, caller, note.id, { feedback: 'c' }, { 'if-match': 'W/"3"' })).status).toBe(200);
    expect((await patchNote(t, caller, note.id, { feedback: 'd' }, { 'if-match': 'nonsense' })).status).toBe(412);
    expect((await patchNote(t, caller, note.id, { feedback: 'd' }, { 'if-match': '"99"' })).status).toBe(412);
  });

  it('If-Match on a note that does not exist is 404 (the note is missing, not stale)', async () => {
    const res = await patchNote(t, caller, '8f14e45f-ceea-4e67-9d7e-0a1b2c3d4e5f', { feedback: 'x' }, { 'if-match': '*' });
    expect(res.status).toBe(404);
  });

  it('of simultaneous PATCHes with the same If-Match exactly one succeeds', async () => {
    const note = await newNote(t, caller);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => patchNote(t, caller, note.id, { feedback: `race ${i}` }, { 'if-match': '"1"' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const versions = (await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers)).body.versions;
    expect(versions).toHaveLength(2);
  });
});
