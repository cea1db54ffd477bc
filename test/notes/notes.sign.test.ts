import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { ISO, newNote, outboxEvents, patchNote } from './notes.builders.js';
import { signNote } from './signoff.builders.js';

describe('signing a clinical note: POST /v1/clinical-notes/{id}/sign', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('a new note is a draft with empty signature fields', async () => {
    const note = await newNote(t, caller);
    expect(note).toMatchObject({ status: 'draft', signed_by: null, signed_at: null, signed_codes: null, amendment_reason: null });
  });

  it('signs with the codes sent: status signed, signer the token user, titles from the code table, a new version and ETag', async () => {
    const note = await newNote(t, caller);
    const res = await signNote(t, caller, note.id, { codes: ['J18.9', 'r509', 'J18.9'] }, { 'if-match': '"1"' });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.body).toMatchObject({
      id: note.id,
      version: 2,
      status: 'signed',
      signed_by: caller.userId,
      signed_at: expect.stringMatching(ISO),
      signed_codes: [
        { code: 'J18.9', description: 'Pneumonia, unspecified organism' },
        { code: 'R50.9', description: expect.stringMatching(/fever/i) },
      ],
      ai_generated_content: note.ai_generated_content,
    });
    const read = await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers);
    expect(read.body).toEqual(res.body);
    const fhir = await request(t.app).get(`/v1/clinical-notes/${note.id}/fhir`).set(caller.headers);
    expect(fhir.body).toMatchObject({ docStatus: 'final', authenticator: { identifier: { value: caller.userId } } });
    const events = await outboxEvents(t, note.id);
    const signed = events.filter((e) => e.type === 'note.signed');
    expect(signed).toHaveLength(1);
    expect(signed[0].data).toMatchObject({
      note_id: note.id,
      group_id: caller.groupId,
      version: 2,
      status: 'signed',
      signed_by: caller.userId,
      signed_codes: res.body.signed_codes,
      ai_generated_content: note.ai_generated_content,
    });
  });

  it('without If-Match answers 428 and signs nothing', async () => {
    const note = await newNote(t, caller);
    const res = await signNote(t, caller, note.id, { codes: ['J18.9'] });
    expect(res.status).toBe(428);
    expect(res.body).toEqual({ success: false, error: 'Precondition Required', details: expect.stringContaining('If-Match') });
    expect((await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers)).body.status).toBe('draft');
  });

  it('a stale If-Match is 412; a code outside the table, a malformed code or an unknown field is 400', async () => {
    const note = await newNote(t, caller);
    expect((await signNote(t, caller, note.id, {}, { 'if-match': '"7"' })).status).toBe(412);
    const unknown = await signNote(t, caller, note.id, { codes: ['J18.9', 'Z99.999', 'not a code'] }, { 'if-match': '"1"' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toMatch(/Z99\.999.*not a code|not in the ICD-10-CM code table/);
    expect((await signNote(t, caller, note.id, { codes: 'J18.9' }, { 'if-match': '"1"' })).status).toBe(400);
    expect((await signNote(t, caller, note.id, { signer: 'x' }, { 'if-match': '"1"' })).status).toBe(400);
    expect((await request(t.app).get(`/v1/clinical-notes/${note.id}`).set(caller.headers)).body).toMatchObject({
      status: 'draft',
      version: 1,
    });
  });

  it('signing twice answers 409, whatever If-Match says', async () => {
    const note = await newNote(t, caller);
    expect((await signNote(t, caller, note.id, {}, { 'if-match': '"1"' })).status).toBe(200);
    const again = await signNote(t, caller, note.id, {}, { 'if-match': '"2"' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, error: 'Conflict', details: expect.stringContaining('already signed') });
    expect((await signNote(t, caller, note.id, {}, { 'if-match': '"1"' })).status).toBe(409);
  });

  it('a note with no codification and no codes is signed with an empty list', async () => {
    const note = await newNote(t, caller);
    const res = await signNote(t, caller, note.id, undefined, { 'if-match': '*' });
    expect(res.status).toBe(200);
    expect(res.body.signed_codes).toEqual([]);
  });

  it("another group's note is 404; an unknown note is 404", async () => {
    const note = await newNote(t, caller);
    const other = await newCaller();
    expect((await signNote(t, other, note.id, {}, { 'if-match': '"1"' })).status).toBe(404);
    expect((await signNote(t, caller, '8f14e45f-ceea-4e67-9d7e-0a1b2c3d4e5f', {}, { 'if-match': '"1"' })).status).toBe(404);
  });

  it('of a sign and a PATCH sent at once with the same ETag exactly one wins; the other is 412', async () => {
    for (let round = 0; round < 5; round++) {
      const note = await newNote(t, caller);
      const [sign, patch] = await Promise.all([
        signNote(t, caller, note.id, { codes: ['J18.9'] }, { 'if-match': '"1"' }),
        patchNote(t, caller, note.id, { feedback: `edit ${round}` }, { 'if-match': '"1"' }),
      ]);
      expect([sign.status, patch.status].sort()).toEqual([200, 412]);
      const versions = (await request(t.app).get(`/v1/clinical-notes/${note.id}/versions`).set(caller.headers)).body.versions;
      expect(versions).toHaveLength(2);
      const winner = sign.status === 200 ? sign.body : patch.body;
      expect(versions[1].snapshot).toEqual(winner);
      expect(versions[1].snapshot.status).toBe(sign.status === 200 ? 'signed' : 'draft');
    }
  });
});

describe('amending a signed note: PATCH with amendment_reason', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  async function signedNote() {
    const note = await newNote(t, caller);
    const res = await signNote(t, caller, note.id, { codes: ['J18.9'] }, { 'if-match': '"1"' });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('a change of a signed note without amendment_reason is 400 and changes nothing', async () => {
    const signed = await signedNote();
    const res = await patchNote(t, caller, signed.id, { ai_generated_content: { plan: 'Changed.' } });
    expect(res.status).toBe(400);
    expect(res.body.details).toMatch(/amendment_reason/);
    expect((await request(t.app).get(`/v1/clinical-notes/${signed.id}`).set(caller.headers)).body).toEqual(signed);
  });

  it('amendment_reason on a draft is 400', async () => {
    const note = await newNote(t, caller);
    const res = await patchNote(t, caller, note.id, { feedback: 'x', amendment_reason: 'typo' });
    expect(res.status).toBe(400);
    expect(res.body.details).toMatch(/draft/);
  });

  it('an amendment is a new version, status amended, the signature kept, note.amended recorded; versions show every status', async () => {
    const signed = await signedNote();
    const res = await patchNote(
      t,
      caller,
      signed.id,
      { ai_generated_content: { plan: 'Amoxicillin 1 g three times a day; review in 5 days.' }, amendment_reason: 'Review date corrected' },
      { 'if-match': '"2"' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 3,
      status: 'amended',
      amendment_reason: 'Review date corrected',
      signed_by: signed.signed_by,
      signed_at: signed.signed_at,
      signed_codes: signed.signed_codes,
    });
    const again = await patchNote(t, caller, signed.id, { feedback: 'Discussed with patient.', amendment_reason: 'Feedback added' });
    expect(again.body).toMatchObject({ version: 4, status: 'amended', amendment_reason: 'Feedback added', signed_by: signed.signed_by });

    const versions = (await request(t.app).get(`/v1/clinical-notes/${signed.id}/versions`).set(caller.headers)).body.versions;
    expect(versions.map((v: { snapshot: { status: string } }) => v.snapshot.status)).toEqual(['draft', 'signed', 'amended', 'amended']);
    expect(versions[1].changed_fields).toEqual(['status', 'signed_by', 'signed_at', 'signed_codes']);
    expect(versions[2].changed_fields).toEqual(['ai_generated_content', 'status', 'amendment_reason']);
    expect(versions[3].changed_fields).toEqual(['feedback', 'amendment_reason']);

    const amended = (await outboxEvents(t, signed.id)).filter((e) => e.type === 'note.amended');
    expect(amended.map((e) => e.data.version)).toEqual([3, 4]);
    expect(amended[0].data).toMatchObject({
      status: 'amended',
      amendment_reason: 'Review date corrected',
      signed_by: signed.signed_by,
      signed_codes: signed.signed_codes,
    });
    const fhir = await request(t.app).get(`/v1/clinical-notes/${signed.id}/fhir`).set(caller.headers);
    expect(fhir.body).toMatchObject({
      docStatus: 'amended',
      authenticator: { type: 'Practitioner', identifier: { value: caller.userId } },
    });
    // Signing an amended note is 409 too.
    expect((await signNote(t, caller, signed.id, {}, { 'if-match': '"4"' })).status).toBe(409);
  });

  it('an amendment that changes nothing writes no version', async () => {
    const signed = await signedNote();
    const res = await patchNote(t, caller, signed.id, { feedback: null, amendment_reason: 'none' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(signed);
  });
});
