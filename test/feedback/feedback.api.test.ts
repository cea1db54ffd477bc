import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newNote, patchNote } from '../notes/notes.builders.js';
import { pipelineNote, signNote, type PipelineNote } from '../notes/signoff.builders.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

describe('GET /api/v1/feedback: signed notes as learning signal', () => {
  let t: TestApp;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const group = `group-feedback-${Date.now()}`;
  let edited: PipelineNote;
  let plain: PipelineNote;
  let draft: Record<string, string>;
  let signedText: Record<string, string>;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url } });
    // The third is never signed: not listed.
    [edited, plain] = await Promise.all([1, 2, 3].map(() => pipelineNote(t, { group_id: group })));

    // The clinician moves the subjective's first sentence to the plan, then signs with their own codes.
    draft = (await request(t.app).get(`/v1/clinical-notes/${edited.noteId}`).set(edited.caller.headers)).body.ai_generated_content;
    const [first, ...rest] = draft.subjective.split(/(?<=\.)\s+/);
    signedText = { ...draft, subjective: rest.join(' ') || 'See plan.', plan: `${draft.plan} ${first}` };
    expect((await patchNote(t, edited.caller, edited.noteId, { ai_generated_content: signedText })).status).toBe(200);
    expect((await signNote(t, edited.caller, edited.noteId, { codes: ['J18.9', 'E11.9'] }, { 'if-match': '"2"' })).status).toBe(200);
    // An amendment afterwards is not the lesson of the signature.
    await patchNote(t, edited.caller, edited.noteId, { ai_generated_content: { plan: 'Changed later.' }, amendment_reason: 'later' });
    expect((await signNote(t, plain.caller, plain.noteId, undefined, { 'if-match': '"1"' })).status).toBe(200);
    // A note written by a person, signed: no draft of the engine, not listed.
    const human = await newNote(t, edited.caller);
    expect((await signNote(t, edited.caller, human.id, {}, { 'if-match': '"1"' })).status).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('lists each signed engine draft, oldest first, with the draft, the text at signature, and the suggested and signed codes', async () => {
    const res = await request(t.app).get(`/api/v1/feedback?group_id=${group}`).set(OPERATOR);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.items.map((i: { note_id: string }) => i.note_id)).toEqual([edited.noteId, plain.noteId]);
    const [a, b] = res.body.items;
    expect(a).toEqual({
      note_id: edited.noteId,
      group_id: group,
      template: 'SOAP',
      signed_at: expect.stringMatching(/Z$/),
      draft,
      signed: signedText,
      suggested_codes: edited.codes,
      signed_codes: [
        { code: 'J18.9', description: 'Pneumonia, unspecified organism' },
        { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
      ],
    });
    expect(b.draft).toEqual(b.signed);
    expect(b.signed_codes).toEqual(plain.codes);
    expect(b.suggested_codes).toEqual(plain.codes);
  });

  it('pages with next_cursor and filters by since; a bad cursor or limit is 400', async () => {
    const one = await request(t.app).get(`/api/v1/feedback?group_id=${group}&limit=1`).set(OPERATOR);
    expect(one.body.items).toHaveLength(1);
    expect(one.body.next_cursor).toEqual(expect.any(String));
    const two = await request(t.app).get(`/api/v1/feedback?group_id=${group}&limit=1&cursor=${one.body.next_cursor}`).set(OPERATOR);
    expect(two.body.items.map((i: { note_id: string }) => i.note_id)).toEqual([plain.noteId]);
    expect(two.body.next_cursor).toBeNull();

    const since = encodeURIComponent(two.body.items[0].signed_at);
    const late = await request(t.app).get(`/api/v1/feedback?group_id=${group}&since=${since}`).set(OPERATOR);
    expect(late.body.items.map((i: { note_id: string }) => i.note_id)).toEqual([plain.noteId]);
    expect((await request(t.app).get(`/api/v1/feedback?group_id=other-${group}`).set(OPERATOR)).body.items).toEqual([]);

    for (const q of ['cursor=nope', 'limit=0', 'limit=1001', 'since=yesterday']) {
      const bad = await request(t.app).get(`/api/v1/feedback?${q}`).set(OPERATOR);
      expect(bad.status, q).toBe(400);
      expect(bad.body.success).toBe(false);
    }
  });

  it('needs an operator key (401 without, 403 with the voice key) and leaves an audit row', async () => {
    expect((await request(t.app).get('/api/v1/feedback')).status).toBe(401);
    expect((await request(t.app).get('/api/v1/feedback').set('x-api-key', TEST_API_KEYS[0])).status).toBe(403);
    expect((await request(t.app).get('/api/v1/feedback?limit=1').set(OPERATOR)).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await request(t.app).get('/api/v1/audit-events?user=ops-test&limit=1000').set(OPERATOR)).body.items.filter(
            (r: { operation: string; status: number }) => r.operation === 'GET /api/v1/feedback' && r.status === 200,
          ).length,
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(1);
  });
});
